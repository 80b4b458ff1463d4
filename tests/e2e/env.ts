import path from 'node:path'

// Where the shared e2e server listens and keeps its files; read by the config, the launcher
// (server.ts) and the specs alike. No Playwright import here: the launcher runs without it.

/** The shared server's port (E2E_PORT, default 3210). */
export const PORT = Number(process.env.E2E_PORT ?? 3210)
export const BASE_URL = `http://localhost:${PORT}`
/** The shared server's data folder, a copy of the seeded template made at each start. */
export const DATA_DIR = path.resolve(`data/e2e-${PORT}`)
/** The working folder of every e2e server: a copy of build/ taken at the start (template.ts snapshotBuild). */
export const PORTAL_DIR = path.resolve(`data/e2e-${PORT}-portal`)
/** The mail the shared server sends, one JSON file per message (tests/e2e/mailbox.ts). */
export const MAIL_DIR = path.resolve(`data/e2e-${PORT}-mail`)
/** The signed-in states saved by signed-in.setup.ts, one file per demo user. */
export const AUTH_DIR = path.resolve(`data/e2e-${PORT}-auth`)

/** The environment every e2e portal server runs with (the shared one and the specs' own). */
export const SERVER_ENV = {
  LOG_LEVEL: 'warn',
  APP_ENV: 'e2e',
  SEED_DEMO: '1',
  // scrypt at 2^10 instead of the production 2^17 (~1 s per hash): sign-ins and the seed are fast.
  PASSWORD_HASH_COST: '10',
  // No local PowerDNS: the DNS specs check what the portal keeps and shows, not what is served.
  POWERDNS_MODE: 'none',
  // No local Pebble either: ssl.spec.ts runs a server of its own with both.
  ACME_LOCAL_PEBBLE: '0',
  // The loopback is our own proxy: a test may give its requests an address of their own with
  // X-Forwarded-For, so that the per-address sign-in limits it uses up are not the other tests'.
  TRUST_PROXY: 'loopback',
}

import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Vitest runs without the React Router plugin: unit tests beside the code and
// integration tests against a real database (PGlite, or DATABASE_URL).
/**
 * Files that mostly drive outside processes (PowerDNS, Pebble, the OIDC provider, servers killed
 * and started again) rather than the database: a second pass on another database adds minutes and
 * proves nothing new (issue 27). `.ci/run` runs its PGlite pass with VITEST_ONCE_ON_POSTGRES=1,
 * which leaves them to the PostgreSQL pass that follows; `npm test` alone runs them on PGlite.
 * Files whose subject is the database's behaviour (crash recovery of jobs, locks, the list engine)
 * stay in both passes.
 */
export const ONCE_ON_POSTGRES = [
  // The HTTP edge and the OpenAPI document, not the database: hostile input is refused before any
  // query (and what reaches one meets the same PostgreSQL, compiled to WebAssembly or not), the
  // document and the API reference are the same on either (issue 27: hostile-input was the PGlite
  // pass's costliest file).
  'tests/integration/api-docs.test.ts',
  'tests/integration/hostile-input.test.ts',
  'tests/integration/openapi.test.ts',
  'tests/integration/auth-sso.test.ts',
  'tests/integration/dns-publish-integrity.test.ts',
  'tests/integration/dns-statistics.test.ts',
  'tests/integration/outbound.test.ts',
  'tests/integration/powerdns.test.ts',
  'tests/integration/server-kill-restart.test.ts',
  'tests/integration/ssl.test.ts',
]

export default defineConfig({
  test: {
    include: ['common/**/*.test.ts', 'app/**/*.test.ts', 'server/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/epp/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(process.env.VITEST_ONCE_ON_POSTGRES === '1' && !process.env.DATABASE_URL ? ONCE_ON_POSTGRES : [])],
    environment: 'node',
    // Time-outs catch a test that hangs, never a slow one: a loaded 2-core CI machine runs these files
    // two or three times slower than a quiet one (PGlite is CPU-bound, beside the browser tests).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time even on two cores: a file spends much of its time waiting on its
    // database, registry or PowerDNS (Vitest's default would run one at a time here).
    maxWorkers: Math.max(2, availableParallelism()),
    setupFiles: ['./tests/setup/vitest.setup.ts'],
    globalSetup: ['./tests/setup/global-setup.ts'],
    // New password hashes at scrypt N=2^10 instead of 2^17: a hash carries its parameters, so the
    // same code verifies; passwords.test.ts keeps the production cost honest.
    // Servers a test spawns (server/main.ts) start no PowerDNS or Pebble of their own: the DNS and SSL tests start theirs.
    env: { PASSWORD_HASH_COST: '10', POWERDNS_MODE: 'none', ACME_LOCAL_PEBBLE: '0' },
  },
})

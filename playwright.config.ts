import { existsSync, readdirSync } from 'node:fs'
import { defineConfig, type Project } from '@playwright/test'
import { BASE_URL, PORT } from './tests/e2e/env.ts'

// Debian's Chromium, never a downloaded browser. The server is the real one, built first, started
// by tests/e2e/server.ts from a copy of a migrated and seeded data folder (tests/e2e/template.ts;
// on DATABASE_URL when set), its mail filed for the specs. The setup project signs each demo user
// in once; the specs reuse those sessions (tests/e2e/support.ts).
//
// Every spec makes the data it changes, so the files pass alone and in any order:
// E2E_ORDER=reverse (npm run test:e2e:reverse) runs them last file first, on one server.

// Debian's headless shell (the package chromium-headless-shell) when installed: the same engine
// without the browser's UI, a quarter less CPU than the full browser in headless mode for the same
// specs (Chromium is the largest consumer of .ci/run's CPU; issue 27, decision 027).
const CHROMIUM = existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'

const specs = readdirSync('tests/e2e')
  .filter((file) => file.endsWith('.spec.ts'))
  .sort()
const setup: Project = { name: 'setup', testMatch: /signed-in\.setup\.ts$/ }
// One project per file, in reverse order, when asked: with one worker, Playwright runs the
// projects of a phase in the order they are listed here.
const projects: Project[] =
  process.env.E2E_ORDER === 'reverse'
    ? [setup, ...specs.toReversed().map((file) => ({ name: file.replace(/\.spec\.ts$/, ''), testMatch: new RegExp(`/${file.replace(/\./g, '\\.')}$`), dependencies: ['setup'] }))]
    : [setup, { name: 'e2e', testMatch: /\.spec\.ts$/, dependencies: ['setup'] }]

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // Two files at a time (E2E_WORKERS=1 for one): every spec makes the data it changes, so it passes
  // beside any other. The two places where two specs met (a shared billing entity's balance and
  // newest renewal; PowerDNS's SQLite backend answering 500 to concurrent changes) were made
  // independent (issue 27, item 6). The tests of a file run in order, in one worker.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Time-outs catch a hang, never a slow step: in CI the browser tests share two cores with both
  // Vitest passes, and a page that renders in 100 ms alone can take ten times that there.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  reporter: 'list',
  projects,
  use: {
    baseURL: BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? CHROMIUM,
      // --no-opt: no optimising compiler for pages that live seconds (Chromium spent ~10 % less CPU).
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--no-opt'],
    },
  },
  webServer: {
    command: 'node tests/e2e/server.ts',
    url: `${BASE_URL}/readyz`,
    // The first run after a change of the server's code seeds the template first.
    timeout: 240_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: { E2E_PORT: String(PORT) },
  },
})

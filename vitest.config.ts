import { readdirSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Vitest runs without the React Router plugin: unit tests beside the code and
// integration tests against a real database (PGlite, or DATABASE_URL).
/**
 * The integration files whose subject is the database's own behaviour: they run on both databases
 * in CI (issue 27, decision 027). Every other integration file tests our code over SQL that is the
 * same PostgreSQL on either side (PGlite is PostgreSQL compiled to WebAssembly, several times the
 * CPU for the same file): `.ci/run` runs its PGlite pass with VITEST_ONCE_ON_POSTGRES=1, which leaves
 * them to the PostgreSQL pass that follows — PostgreSQL being the system of record — while the
 * browser tests run the whole product on PGlite, and `npm test` alone runs every file on PGlite.
 * A new file runs once unless it is added here with its reason.
 */
export const BOTH_DATABASES = [
  // Migrations applied, refused and ordered by each database.
  'tests/integration/migrate.test.ts',
  'tests/integration/migrate-order.test.ts',
  // The list engine's SQL (keyset paging, filters, counts, its cache) and its plans.
  'tests/integration/list-engine.test.ts',
  'tests/integration/list-cache.test.ts',
  'tests/integration/domains-list.test.ts',
  // What survives a crash: jobs, invoice runs and webhook deliveries after SIGKILL, durable on each.
  'tests/integration/job-crash.test.ts',
  'tests/integration/job-resume.test.ts',
  'tests/integration/invoice-run-crash.test.ts',
  'tests/integration/webhooks-crash.test.ts',
  // Locks and transactions under concurrency: row locks, gapless numbers, ON CONFLICT on a partial
  // index, a change undone whole. (orders, billing and blocks test the business over the same
  // locks, each with one concurrent case: on PGlite the pool runs transactions one at a time, which
  // these two files and server/db/pglite-pool.test.ts prove; they run once, on PostgreSQL.)
  'tests/integration/domains-concurrency.test.ts',
  'tests/integration/invoice-numbers.test.ts',
  // Several server processes on one database.
  'tests/integration/cluster.test.ts',
]

const INTEGRATION = 'tests/integration'
/** The integration files the PGlite pass of `.ci/run` leaves to the PostgreSQL pass. */
export const ONCE_ON_POSTGRES = readdirSync(INTEGRATION)
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `${INTEGRATION}/${file}`)
  .filter((file) => !BOTH_DATABASES.includes(file))

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

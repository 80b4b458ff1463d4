import { defineConfig } from 'vitest/config'

// Vitest runs without the React Router plugin: unit tests beside the code and
// integration tests against a real database (PGlite, or DATABASE_URL).
export default defineConfig({
  test: {
    include: ['app/**/*.test.ts', 'server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['./tests/setup/vitest.setup.ts'],
  },
})

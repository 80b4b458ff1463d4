import { defineConfig } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3210)

// Debian's Chromium, never a downloaded browser. The server is the real one, built first, on a
// fresh embedded database in its own data folder (or DATABASE_URL when set).
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : 'list',
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `rm -rf ./data/e2e-${PORT} && node server/main.ts`,
    url: `http://localhost:${PORT}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(PORT), DATA_DIR: `./data/e2e-${PORT}`, LOG_LEVEL: 'warn', APP_ENV: 'e2e', SEED_DEMO: '1' },
  },
})

import { DATA_DIR, MAIL_DIR, PORT, PORTAL_DIR, SERVER_ENV } from './env.ts'
import { startMailbox } from './mailbox.ts'
import { prepareDataDir, snapshotBuild, spawnServer } from './template.ts'

// The shared e2e server, started by playwright.config.ts's webServer: the real server/main.ts, on a
// private copy of build/ (template.ts snapshotBuild) and a copy of the seeded template (tests/e2e/template.ts), its mail going to a real SMTP server that
// files every message for the specs (tests/e2e/mailbox.ts). With DATABASE_URL it runs on that
// PostgreSQL database instead, seeding it when empty, as before.

snapshotBuild(PORTAL_DIR)
if (!process.env.DATABASE_URL) await prepareDataDir(DATA_DIR, PORTAL_DIR)
const mailbox = await startMailbox(MAIL_DIR)
const server = spawnServer(PORTAL_DIR, { ...process.env, ...SERVER_ENV, PORT: String(PORT), DATA_DIR, SMTP_URL: mailbox.url })
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal))
server.once('exit', (code, signal) => {
  void mailbox.close().finally(() => process.exit(code ?? (signal ? 1 : 0)))
})

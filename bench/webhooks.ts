/**
 * Webhook fan-out (issue 20: 1,000 events a second to 10 endpoints without loss or duplicate ids):
 * events are committed through the outbox at a steady rate (each in its own transaction, as a
 * change would write it) for an account with 10 endpoints on a local HTTP receiver; the worker's
 * dispatcher and delivery jobs run as in the server. Reports the rate written, when the last
 * delivery arrived, and how many of events × endpoints arrived once, twice or not at all.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/webhooks.ts [--rate 1000] [--seconds 5] [--endpoints 10]
 *
 * Without DATABASE_URL it runs on PGlite. By hand only (not in CI).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openDatabase } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { startWebhookDispatcher } from '#server/platform/webhooks/delivery.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { registerWebhookJobs } from '#server/platform/webhooks/http.ts'
import { createEndpoint } from '#server/platform/webhooks/service.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

const { values: args } = parseArgs({ options: { rate: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '5' }, endpoints: { type: 'string', default: '10' } } })
const RATE = Number(args.rate)
const SECONDS = Number(args.seconds)
const ENDPOINTS = Number(args.endpoints)
const TOTAL = RATE * SECONDS

const seen = new Map<string, number>()
let lastAt = 0
const receiver = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    const key = `${req.url} ${String(req.headers['webhook-id'])}`
    seen.set(key, (seen.get(key) ?? 0) + 1)
    lastAt = performance.now()
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const port = (receiver.address() as AddressInfo).port

const url = process.env.DATABASE_URL
const dbName = `rp_bench_${randomBytes(4).toString('hex')}`
const admin = url ? new pg.Client({ connectionString: url }) : null
if (admin) {
  await admin.connect()
  await admin.query(`CREATE DATABASE ${dbName}`)
  await admin.end()
}
const target = url ? Object.assign(new URL(url), { pathname: `/${dbName}` }).toString() : ''
const database = url ? await openDatabase({ kind: 'postgres', url: target, max: 8 }) : await openDatabase({ kind: 'pglite' })
await migrate(database)
const logger = createLogger('warn')
const jobs = createJobs(database, logger)
const config = { APP_ENV: 'bench', MAIL_FROM: 'bench <bench@example.com>', SMTP_URL: undefined }
const deps = { database, db: database.db, logger, jobs, now: () => new Date(), mailer: createMailer(config, logger), webhooks: { allowPrivateAddresses: true } } as unknown as PlatformDeps
const platform = { deps, db: database.db, database }
const account = (await createAccount(database.db, systemScope('bench'), { name: 'Bench Corp' })).id
const scope = systemScope('bench', account)
for (let i = 0; i < ENDPOINTS; i++) await createEndpoint(platform.deps, scope, { url: `http://127.0.0.1:${port}/e${i}`, events: ['domain.renewed'] })
registerWebhookJobs(deps)
await platform.deps.jobs.start({ work: true })
const dispatcher = await startWebhookDispatcher(platform.deps)

console.log(`${platform.database.kind}: ${TOTAL} events at ${RATE}/s to ${ENDPOINTS} endpoints`)
const started = performance.now()
let written = 0
// Each event in its own transaction; writers run in parallel so the target rate is reachable.
const WRITERS = 16
await Promise.all(
  Array.from({ length: WRITERS }, async (_, w) => {
    for (let n = w; n < TOTAL; n += WRITERS) {
      const due = started + (n / RATE) * 1000
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      await change(platform.db, scope, (tx) => recordEvent(tx, { accountId: account, type: 'domain.renewed', data: { n } }))
      written++
    }
  }),
)
const writeSeconds = (performance.now() - started) / 1000
console.log(`written: ${written} events in ${writeSeconds.toFixed(1)} s (${(written / writeSeconds).toFixed(0)}/s)`)

const expected = TOTAL * ENDPOINTS
const deadline = performance.now() + 600_000
while (seen.size < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 200))
const twice = [...seen.values()].filter((c) => c > 1).length
console.log(
  `delivered: ${seen.size}/${expected} distinct (event, endpoint) in ${((lastAt - started) / 1000).toFixed(1)} s from the first event (${(seen.size / ((lastAt - started) / 1000)).toFixed(0)} deliveries/s); sent more than once: ${twice}; missing: ${expected - seen.size}`,
)

await dispatcher.close()
await jobs.stop()
await database.close()
if (url) {
  const dropper = new pg.Client({ connectionString: url })
  await dropper.connect()
  await dropper.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
  await dropper.end()
}
receiver.close()

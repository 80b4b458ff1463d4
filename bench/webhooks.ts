/**
 * Webhook fan-out (issue 20: 1,000 events a second to 10 endpoints without loss or duplicate ids).
 * Three processes, as in production: this one is the worker (the job engine and the webhook sender,
 * started as server/main.ts starts them); a writer process commits events through the outbox at a
 * steady rate, each in its own transaction as a change would write it; a receiver process is a
 * plain node:http server behind the 10 endpoints that counts each (endpoint, webhook-id) and the
 * time from the event's commit to its arrival. Reports the rate written, the deliveries a second
 * while events were written and overall, the delay, repeats and losses, and the CPU each process
 * and the machine spent.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/webhooks.ts [--rate 1000] [--seconds 10] [--endpoints 10] [--backlog]
 *
 * --backlog measures the sender alone: the rate × seconds events are in the outbox before the
 * sender starts (one INSERT, not the writer), and the time to deliver them all is its ceiling.
 *
 * The floor beside it (issue 34), before and after the sender in the same run: a plain loop in this
 * process posting the same number of signed messages — the same body, headers and HMAC per endpoint
 * secret, as many at a time per endpoint over kept-alive connections as the sender — to the same
 * receiver, which reads and parses them as it does the sender's. No database: what the sender
 * costs beyond it (the outbox, the fan-out, the attempts logged) is its ratio to this.
 *
 * Without DATABASE_URL it runs on PGlite (writer and sender then share this process). By hand only (not in CI).
 */
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { messageIdOf, startWebhookDispatcher } from '#server/platform/webhooks/delivery.ts'
import { signatureHeader } from '#server/platform/webhooks/signing.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { registerWebhookJobs } from '#server/platform/webhooks/jobs.ts'
import { createEndpoint } from '#server/platform/webhooks/service.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { cpuSeconds as processCpuSeconds } from './process-cpu.ts'

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    endpoints: { type: 'string', default: '10' },
    role: { type: 'string', default: 'worker' },
    db: { type: 'string', default: '' },
    account: { type: 'string', default: '' },
    backlog: { type: 'boolean', default: false },
  },
})
const RATE = Number(args.rate)
const SECONDS = Number(args.seconds)
const ENDPOINTS = Number(args.endpoints)
const TOTAL = RATE * SECONDS
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

type ReceiverReport = { distinct: number; repeated: number; requests: number; floor: number; cpu: number; delays: number[] }

/** The receiver: counts each (endpoint, webhook-id) and how long after its commit the event came. */
async function receiver() {
  const seen = new Map<string, number>()
  let requests = 0
  let floor = 0
  const delays: number[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      // The floor's messages (/floor/…): read and parsed alike, counted apart.
      if (req.url!.startsWith('/floor/')) {
        floor += (JSON.parse(body) as { data: { t: number } }).data.t > 0 ? 1 : 0
        res.writeHead(204).end()
        return
      }
      requests++
      const key = `${req.url} ${String(req.headers['webhook-id'])}`
      const count = (seen.get(key) ?? 0) + 1
      seen.set(key, count)
      if (count === 1) delays.push(Date.now() - (JSON.parse(body) as { data: { t: number } }).data.t)
      res.writeHead(204).end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  process.send!({ port: (server.address() as AddressInfo).port })
  process.on('message', (message: { report?: boolean; delays?: boolean }) => {
    if (!message.report) return
    let repeated = 0
    for (const n of seen.values()) if (n > 1) repeated++
    process.send!({ distinct: seen.size, repeated, requests, floor, cpu: cpuSeconds(), delays: message.delays ? delays : [] } satisfies ReceiverReport)
  })
}

/** The writer: TOTAL events at RATE a second, each committed in its own transaction. */
async function writer(database: Database, account: string): Promise<{ written: number; seconds: number; cpu: number }> {
  const scope = systemScope('bench', account)
  const cpu = cpuSeconds()
  const started = performance.now()
  let written = 0
  // Writers in parallel so the target rate is reachable.
  const WRITERS = 32
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let n = w; n < TOTAL; n += WRITERS) {
        const due = started + (n / RATE) * 1000
        const wait = due - performance.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        await change(database.db, scope, (tx) => recordEvent(tx, { accountId: account, type: 'domain.renewed', data: { n, t: Date.now() } }))
        written++
      }
    }),
  )
  return { written, seconds: (performance.now() - started) / 1000, cpu: cpuSeconds() - cpu }
}

/** Busy and total jiffies of the whole machine. */
function machine() {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const n = fields.map(Number)
  const idle = n[3]! + n[4]!
  const total = n.reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}

/** The same concurrency per endpoint as the sender's (CONCURRENCY in server/platform/webhooks/delivery.ts). */
const SENDER_CONCURRENCY = 16

/**
 * The floor: `events` messages to each endpoint, posted by a plain loop with kept-alive connections
 * (as many at a time per endpoint as the sender), each signed with its endpoint's secret as the
 * sender signs. Answers deliveries a second and this process's CPU seconds.
 */
async function floorLoop(port: number, secrets: string[], events: number): Promise<{ seconds: number; deliveries: number; failed: number; cpu: number }> {
  const cpu = cpuSeconds()
  const started = performance.now()
  let failed = 0
  const post = (agent: Agent, path: string, secret: string, n: number) =>
    new Promise<void>((resolve) => {
      const id = messageIdOf(randomBytes(16).toString('hex'))
      const timestamp = Math.floor(Date.now() / 1000)
      const body = JSON.stringify({ type: 'domain.renewed', timestamp: new Date().toISOString(), data: { n, t: Date.now() } })
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'RegistrarPortal-Webhooks/1.0',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader([secret], id, timestamp, body),
          },
        },
        (res) => {
          if (res.statusCode !== 204) failed++
          res.resume()
          res.on('end', resolve)
        },
      )
      req.on('error', () => {
        failed++
        resolve()
      })
      req.end(body)
    })
  await Promise.all(
    secrets.map(async (secret, e) => {
      const agent = new Agent({ keepAlive: true, maxSockets: SENDER_CONCURRENCY, maxFreeSockets: SENDER_CONCURRENCY, scheduling: 'lifo' })
      let next = 0
      await Promise.all(
        Array.from({ length: SENDER_CONCURRENCY }, async () => {
          while (next < events) await post(agent, `/floor/e${e}`, secret, next++)
        }),
      )
      agent.destroy()
    }),
  )
  const seconds = (performance.now() - started) / 1000
  return { seconds, deliveries: events * secrets.length, failed, cpu: cpuSeconds() - cpu }
}

if (args.role === 'receiver') await receiver()
else if (args.role === 'writer') {
  const database = await openDatabase({ kind: 'postgres', url: args.db, max: 32 })
  const result = await writer(database, args.account)
  await database.close()
  process.send!(result, () => process.exit(0))
} else await worker()

async function worker() {
  const receiving = fork(import.meta.filename, ['--role', 'receiver'], { stdio: 'inherit' })
  const port = await new Promise<number>((resolve) => receiving.once('message', (m: { port: number }) => resolve(m.port)))
  const report = (delays = false) =>
    new Promise<ReceiverReport>((resolve) => {
      receiving.once('message', (m: ReceiverReport) => resolve(m))
      receiving.send({ report: true, delays })
    })

  const url = process.env.DATABASE_URL
  const dbName = `rp_bench_${randomBytes(4).toString('hex')}`
  if (url) {
    const admin = new pg.Client({ connectionString: url })
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
  const account = (await createAccount(database.db, systemScope('bench'), { name: 'Bench Corp' })).id
  const scope = systemScope('bench', account)
  for (let i = 0; i < ENDPOINTS; i++) await createEndpoint(deps, scope, { url: `http://127.0.0.1:${port}/e${i}`, events: ['domain.renewed'] })
  if (args.backlog)
    await database.pool.query(
      `INSERT INTO webhook_events (account_id, type, data) SELECT $1, 'domain.renewed', jsonb_build_object('n', n, 't', (extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM generate_series(1, $2::int) n`,
      [account, TOTAL],
    )
  registerWebhookJobs(deps)
  await jobs.start({ work: true })
  const secrets = (await database.db.selectFrom('webhook_endpoints').select('secret').where('account_id', '=', account).orderBy('url').execute()).map((e) => e.secret)
  const floorLine = (label: string, f: Awaited<ReturnType<typeof floorLoop>>) =>
    console.log(
      `floor ${label}: ${f.deliveries} signed posts in ${f.seconds.toFixed(1)} s (${(f.deliveries / f.seconds).toFixed(0)}/s), ${f.failed} failed, CPU ${f.cpu.toFixed(1)} s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  const floorBefore = await floorLoop(port, secrets, TOTAL)
  floorLine('before (plain keep-alive loop, same receiver)', floorBefore)

  console.log(
    `${database.kind}: ${TOTAL} events ${args.backlog ? 'waiting in the outbox' : `at ${RATE}/s`} to ${ENDPOINTS} endpoints; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  const machineBefore = machine()
  const cpuBefore = cpuSeconds()
  const started = performance.now()
  const dispatcher = await startWebhookDispatcher(deps)
  const writing = args.backlog
    ? Promise.resolve({ written: 0, seconds: 0, cpu: 0 })
    : url
      ? new Promise<{ written: number; seconds: number; cpu: number }>((resolve) => {
          const child = fork(import.meta.filename, ['--role', 'writer', '--db', target, '--account', account, '--rate', String(RATE), '--seconds', String(SECONDS)], { stdio: 'inherit' })
          child.once('message', resolve)
        })
      : writer(database, account)
  let wrote: { written: number; seconds: number; cpu: number } | undefined
  void writing.then((w) => (wrote = w))

  // Deliveries arrived, sampled each second: the rate while events are written is the sustained one.
  const expected = TOTAL * ENDPOINTS
  const samples: { at: number; distinct: number }[] = []
  let atWriteEnd: { at: number; distinct: number } | undefined
  const deadline = started + 600_000
  // The CPU of this database's PostgreSQL backends (the writer's too), read while they live.
  const backends = new Map<number, number>()
  const readBackends = async () => {
    if (!url) return
    const { rows } = await database.pool.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
    for (const { pid } of rows as { pid: number }[]) backends.set(pid, Math.max(backends.get(pid) ?? 0, processCpuSeconds(pid)))
  }
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000))
    await readBackends()
    const { distinct } = await report()
    const at = (performance.now() - started) / 1000
    samples.push({ at, distinct })
    if (wrote && !atWriteEnd && !args.backlog) atWriteEnd = { at, distinct }
    if (distinct >= expected || performance.now() > deadline) break
  }
  const done = samples.at(-1)!
  await readBackends()
  const final = await report(true)
  const machineAfter = machine()
  const w = (await writing)!
  const perSecond = samples.slice(1).map((s, i) => (s.distinct - samples[i]!.distinct) / (s.at - samples[i]!.at))
  const steady = perSecond.slice(1, Math.max(2, Math.floor(SECONDS) - 1)).sort((a, b) => a - b)
  const delays = final.delays.sort((a, b) => a - b)
  const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor(p * delays.length))] ?? NaN
  const busy = ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100
  console.log(`written: ${w.written} events in ${w.seconds.toFixed(1)} s (${(w.written / w.seconds).toFixed(0)}/s)`)
  console.log(
    `delivered: ${final.distinct}/${expected} (event, endpoint) in ${done.at.toFixed(1)} s (${(final.distinct / done.at).toFixed(0)} deliveries/s overall); while writing: ${atWriteEnd ? (atWriteEnd.distinct / atWriteEnd.at).toFixed(0) : '-'}/s, per second median ${steady[Math.floor(steady.length / 2)]?.toFixed(0) ?? '-'} (min ${steady[0]?.toFixed(0) ?? '-'}, max ${steady.at(-1)?.toFixed(0) ?? '-'})`,
  )
  console.log(`commit to arrival: p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, p99 ${pct(0.99)} ms, max ${delays.at(-1)} ms`)
  console.log(`sent more than once: ${final.repeated} (requests ${final.requests}); missing: ${expected - final.distinct}`)
  console.log(
    `CPU seconds: sender ${(cpuSeconds() - cpuBefore).toFixed(1)}, receiver ${final.cpu.toFixed(1)}, writer ${url ? w.cpu.toFixed(1) : '(in the sender)'}, PostgreSQL backends ${url ? [...backends.values()].reduce((a, b) => a + b, 0).toFixed(1) : '(in the sender)'}; machine ${busy.toFixed(0)} % busy (all ${availableParallelism()} cores, everyone's work); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )

  await dispatcher.close()
  const floorAfter = await floorLoop(port, secrets, TOTAL)
  floorLine('after', floorAfter)
  const floorRate = (floorBefore.deliveries / floorBefore.seconds + floorAfter.deliveries / floorAfter.seconds) / 2
  const senderRate = final.distinct / done.at
  console.log(
    `sender / floor: ${(senderRate / floorRate).toFixed(2)}× (${senderRate.toFixed(0)} against ${floorRate.toFixed(0)} deliveries/s; target ≥ 0.5×: ${senderRate / floorRate >= 0.5 ? 'met' : 'MISSED'}); the receiver counted ${(await report()).floor} floor posts`,
  )
  await jobs.stop()
  await database.close()
  if (url) {
    const dropper = new pg.Client({ connectionString: url })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await dropper.end()
  }
  receiving.kill()
}

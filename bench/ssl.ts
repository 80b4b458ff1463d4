/**
 * SSL issuance (issue 19, "Performance and faults"): a DV certificate for a hosted name is issued
 * ≤ 10 s after ordering; 50 orders at once all complete, paced by the CA's order limit.
 *
 *   node bench/ssl.ts [--orders 50] [--limit 10/5]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/ssl.ts …
 *
 * A real Pebble checking DNS-01 against a real PowerDNS (as the integration tests start them), the
 * Platform API and its job worker in this process over a database of its own (PGlite in memory, or
 * a new PostgreSQL database, dropped after). Orders go through the API as a person's would; the
 * times are the certificate's own (created_at → issued_at, the database's record of them). The
 * pacing is read back from the CA's slots (ssl_ca_orders): the most orders sent to the CA in any
 * window of the interval. By hand only (not in CI).
 */
import { parseArgs } from 'node:util'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { startPebble } from '#server/integrations/acme/local-pebble.ts'
import { startPowerDns } from '#server/integrations/powerdns/local-server.ts'
import { createPlatformApi } from '#server/platform/api.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { parseOrderLimit } from '#server/platform/ssl/pacing.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { loadAverage, openBenchDatabase } from './support.ts'

const { values: args } = parseArgs({ options: { orders: { type: 'string', default: '50' }, limit: { type: 'string', default: '10/5' } } })
const ORDERS = Number(args.orders)
const limit = parseOrderLimit(args.limit)
if (!limit) throw new Error('--limit must be orders/seconds, e.g. 10/5')
const ZONE = 'bench-ssl.test'

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function main() {
  console.log(`load average before: ${await loadAverage()}`)
  const pdns = await startPowerDns()
  const pebble = await startPebble({ dnsServer: `127.0.0.1:${pdns.dnsPort}` })
  const { database, label, drop } = await openBenchDatabase()
  const logger = createLogger('silent')
  const jobs = createJobs(database, logger)
  const config = { APP_ENV: 'test', BODY_LIMIT_BYTES: 1_048_576, SUPPORT_EMAIL: 'support@registrar.example', MAIL_FROM: 'Bench <bench@registrar.example>' } as PlatformDeps['config']
  const deps: PlatformDeps = {
    config,
    database,
    db: database.db,
    logger,
    jobs,
    now: () => new Date(),
    mailer: createMailer(config as never, logger),
    powerdns: pdns.settings,
    ssl: { keySecret: 'bench-ssl-key-secret-0123456789abcdef', acme: { directoryUrl: pebble.directoryUrl, caName: 'Pebble', tlsCaPem: pebble.tlsCaPem, dvOnly: true, orderLimit: limit! } },
  }
  const api = createPlatformApi(deps)
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await api.fetch(
      new Request(`http://platform.bench/v1${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    )
    return { status: response.status, json: await response.json().catch(() => undefined) }
  }
  try {
    await seedDemo(database.db, logger, { domainsPerAccount: [1, 1] })
    await jobs.start({ work: true })
    const token = (await call('POST', '/login', undefined, { username: 'admin@acme.example', password: DEMO_PASSWORD })).json.access_token as string
    const account = (await call('GET', '/me', token)).json.group_id as string
    // Room for 51 charges: the bench measures the CA, not the credit limit.
    await database.db.updateTable('billing_balances').set({ credit_limit_minor: 100_000_000 }).execute()
    const zone = await call('POST', `/groups/${account}/zones`, token, { name: ZONE })
    if (zone.status !== 201) throw new Error(`zone: ${JSON.stringify(zone.json)}`)
    // A name hosted elsewhere: its zone is live once the proof of control is in (issue 26), here confirmed by staff.
    const staff = (await call('POST', '/login', undefined, { username: 'staff@example.com', password: DEMO_PASSWORD })).json.access_token as string
    const verified = await call('POST', `/groups/${account}/zones/${zone.json.id}/verify`, staff, { staff_confirmed: true })
    if (verified.status !== 200) throw new Error(`zone proof: ${JSON.stringify(verified.json)}`)
    console.log(`${label}; Pebble ${pebble.directoryUrl} checking DNS-01 at PowerDNS 127.0.0.1:${pdns.dnsPort}; order limit ${limit!.orders} per ${limit!.intervalSeconds} s`)

    const order = async (name: string) => {
      const res = await call('POST', `/groups/${account}/ssls`, token, { product: 'dv-single', period_months: 12, names: [name] })
      if (res.status !== 201) throw new Error(`order ${name}: ${res.status} ${JSON.stringify(res.json)}`)
      return res.json.id as string
    }
    const rows = (ids: string[]) => database.db.selectFrom('ssl_certificates').select(['id', 'status', 'created_at', 'issued_at', 'failure_reason']).where('id', 'in', ids).execute()
    const settle = async (ids: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const now = await rows(ids)
        if (now.every((r) => !['draft', 'pending_validation', 'issuing'].includes(r.status)) || Date.now() > deadline) return now
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }

    // One order: ordering → issued.
    const wallStart = performance.now()
    const single = await order(`one.${ZONE}`)
    const [one] = await settle([single], 60_000)
    const wall = performance.now() - wallStart
    if (one!.status !== 'issued') throw new Error(`the single order is ${one!.status}: ${one!.failure_reason}`)
    console.log(
      `\none DV certificate, hosted name: ordering → issued ${s(one!.issued_at!.getTime() - one!.created_at.getTime())} (by the certificate's times; ${s(wall)} from the API call to the poll that saw it)`,
    )

    // The orders at once: they all complete, no more sent to the CA in any interval than the limit.
    const burstStart = performance.now()
    const ids = await Promise.all(Array.from({ length: ORDERS }, (_, i) => order(`b${i}.${ZONE}`)))
    const placed = performance.now() - burstStart
    const done = await settle(ids, 15 * 60_000)
    const total = performance.now() - burstStart
    const issued = done.filter((r) => r.status === 'issued')
    const per = issued.map((r) => r.issued_at!.getTime() - r.created_at.getTime()).sort((a, b) => a - b)
    const slots = (await database.db.selectFrom('ssl_ca_orders').select(['certificate_id', 'ordered_at']).where('certificate_id', 'in', ids).orderBy('ordered_at').execute()).map((r) =>
      new Date(r.ordered_at).getTime(),
    )
    const windowMs = limit!.intervalSeconds * 1000
    let most = 0
    for (let i = 0; i < slots.length; i++) most = Math.max(most, slots.filter((t) => t >= slots[i]! && t < slots[i]! + windowMs).length)
    const floor = Math.ceil(ORDERS / limit!.orders - 1) * limit!.intervalSeconds
    console.log(`\n${ORDERS} orders at once (placed through the API in ${s(placed)}):`)
    console.log(
      `  issued ${issued.length}/${ORDERS}${issued.length < ORDERS ? `; not issued: ${JSON.stringify(done.filter((r) => r.status !== 'issued').map((r) => [r.status, r.failure_reason]))}` : ''}`,
    )
    console.log(`  total, first order → last issued: ${s(total)} (the limit alone allows no less than ${floor} s)`)
    console.log(`  per order, ordering → issued: p50 ${s(quantile(per, 0.5))}, max ${s(per.at(-1)!)}, min ${s(per[0]!)}`)
    console.log(
      `  sent to the CA: ${slots.length} new orders from ${s(0)} to ${s(slots.at(-1)! - slots[0]!)}; most in any ${limit!.intervalSeconds} s window: ${most} (limit ${limit!.orders}: ${most <= limit!.orders ? 'held' : 'BROKEN'})`,
    )
    const buckets = new Map<number, number>()
    for (const t of slots) buckets.set(Math.floor((t - slots[0]!) / windowMs), (buckets.get(Math.floor((t - slots[0]!) / windowMs)) ?? 0) + 1)
    console.log(`  per interval from the first: ${[...buckets.values()].join(', ')}`)
  } finally {
    console.log(`\nload average after: ${await loadAverage()}`)
    await jobs.stop()
    await drop()
    await pebble.stop()
    await pdns.stop()
  }
}

await main()
process.exit(0)

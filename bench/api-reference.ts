/**
 * How long the pages of /api/reference take to render (issue 20: at most 150 ms; issue 34: the first
 * page ≤ 300 KB, p95 ≤ 200 ms): the OpenAPI document of the running platform read from the API and
 * rendered on the server — the first page, then every area's page the first page links to, the
 * webhook events, the errors and the schemas — one request at a time (a reader's latency, not
 * throughput), beside two searches and the /api page for scale. The server's CPU time per request
 * (from /proc) is printed too: on a loaded machine the latency measures the queue for a core as much
 * as the render.
 *
 *   node bench/api-reference.ts [--requests 40] [--warmup 10] [--port 3975]
 *
 * Runs the built portal as `npm start` does (PGlite with the demo data) from a private copy of
 * build/, so a rebuild by someone else cannot change it mid-run.
 */
import { parseArgs } from 'node:util'
import { portalCopy, quantile, say, startPortal, uptime } from './portal.ts'
import { cpuSeconds } from './process-cpu.ts'

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '40' }, warmup: { type: 'string', default: '10' }, port: { type: 'string', default: '3975' } } })
const REQUESTS = Number(args.requests)
const WARMUP = Number(args.warmup)
const PORT = Number(args.port)
const FIRST = '/api/reference'
const FIRST_LIMIT = 300 * 1024
const P95_LIMIT = 200

// Beside the first page and the pages it links to: a search shown as links (more than 25 matches),
// one shown in full, and /api for scale.
const OTHERS = ['/api/reference?q=ssl', '/api/reference?q=ssl+revoke', '/api']

async function timed(url: string): Promise<{ ms: number; bytes: number; status: number; text: string }> {
  const started = performance.now()
  const response = await fetch(url)
  const body = await response.arrayBuffer()
  return { ms: performance.now() - started, bytes: body.byteLength, status: response.status, text: Buffer.from(body).toString('utf8') }
}

/** CPU time the server process has used (all its threads), in ms: what a render costs whatever else runs. */
const cpuMs = (pid: number) => cpuSeconds(pid) * 1000

type Row = { page: string; bytes: number; p50: number; p95: number; max: number; cpu: number; failed: number }

async function measure(origin: string, pid: number, page: string): Promise<Row> {
  const url = `${origin}${page}`
  for (let i = 0; i < WARMUP; i++) await timed(url)
  const runs = []
  const cpuBefore = cpuMs(pid)
  for (let i = 0; i < REQUESTS; i++) runs.push(await timed(url))
  const cpu = (cpuMs(pid) - cpuBefore) / REQUESTS
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b)
  const row = { page, bytes: runs[0]!.bytes, p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), max: ms.at(-1)!, cpu, failed: runs.filter((r) => r.status !== 200).length }
  say(
    `${page.padEnd(44)} ${`${(row.bytes / 1024).toFixed(0)} KB`.padStart(7)}  p50 ${row.p50.toFixed(1).padStart(6)} ms  p95 ${row.p95.toFixed(1).padStart(6)} ms  ` +
      `max ${row.max.toFixed(1).padStart(6)} ms  server CPU ${row.cpu.toFixed(1).padStart(5)} ms/request  ${row.failed ? `${row.failed} failed` : 'all 200'}`,
  )
  return row
}

const dir = portalCopy('api-reference')
const server = await startPortal(dir, PORT, { NODE_ENV: undefined, LOG_LEVEL: 'warn' }, 180_000)
try {
  const pid = server.child.pid!
  say(`load before: ${uptime()}`)
  say(`${REQUESTS} requests a page after ${WARMUP} to warm up, one at a time`)
  // The pages of the reference are the ones the first page links to (each area's, webhook events, errors, schemas).
  const first = await timed(`${server.origin}${FIRST}`)
  if (first.status !== 200) throw new Error(`${FIRST} answered ${first.status}`)
  const pages = [...new Set([...first.text.matchAll(/href="(\/api\/reference\/[a-z0-9-]+)[#"]/g)].map((m) => m[1]!))]
  const index = await measure(server.origin, pid, FIRST)
  const parts = []
  for (const page of pages) parts.push(await measure(server.origin, pid, page))
  for (const page of OTHERS) await measure(server.origin, pid, page)
  const worst = parts.reduce((a, b) => (b.p95 > a.p95 ? b : a))
  const largest = parts.reduce((a, b) => (b.bytes > a.bytes ? b : a))
  say('')
  say(
    `first load (${FIRST}): ${(index.bytes / 1024).toFixed(1)} KB of HTML (target ≤ ${FIRST_LIMIT / 1024} KB: ${index.bytes <= FIRST_LIMIT ? 'met' : 'NOT met'}), p50 ${index.p50.toFixed(1)} ms, p95 ${index.p95.toFixed(1)} ms`,
  )
  say(
    `${parts.length} pages linked from it: p95 ${Math.min(...parts.map((r) => r.p95)).toFixed(1)}–${worst.p95.toFixed(1)} ms (slowest ${worst.page}), ` +
      `largest ${largest.page} ${(largest.bytes / 1024).toFixed(0)} KB; p95 ≤ ${P95_LIMIT} ms on ${[index, ...parts].filter((r) => r.p95 <= P95_LIMIT).length} of ${parts.length + 1} pages`,
  )
  say(`load after: ${uptime()}`)
} finally {
  await server.stop()
}

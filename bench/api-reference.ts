/**
 * How long /api/reference takes to render (issue 20: at most 150 ms; issue 34: the first page ≤ 300 KB,
 * p95 ≤ 200 ms): the OpenAPI document of the running platform read from the API and rendered on the
 * server — the first page and the others of the reference — one request at a time
 * (a reader's latency, not throughput), beside a search and the /api page for scale. The server's
 * CPU time per request (from /proc) is printed too: on a loaded machine the latency measures the
 * queue for a core as much as the render.
 *
 *   node bench/api-reference.ts [--requests 60] [--warmup 20] [--port 3975]
 *
 * Runs the built portal as `npm start` does (PGlite with the demo data) from a private copy of
 * build/, so a rebuild by someone else cannot change it mid-run.
 */
import { parseArgs } from 'node:util'
import { portalCopy, quantile, say, startPortal, uptime } from './portal.ts'
import { cpuSeconds } from './process-cpu.ts'

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '60' }, warmup: { type: 'string', default: '20' }, port: { type: 'string', default: '3975' } } })
const REQUESTS = Number(args.requests)
const WARMUP = Number(args.warmup)
const PORT = Number(args.port)

// The first page (every operation as a link), the largest area's page in full, the errors, every
// schema, a search shown as links (more than 25 matches) and one shown in full, and /api for scale.
const PAGES = ['/api/reference', '/api/reference/dns', '/api/reference/errors', '/api/reference/schemas', '/api/reference?q=ssl', '/api/reference?q=ssl+revoke', '/api']

async function timed(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  const started = performance.now()
  const response = await fetch(url)
  const body = await response.arrayBuffer()
  return { ms: performance.now() - started, bytes: body.byteLength, status: response.status }
}

/** CPU time the server process has used (all its threads), in ms: what a render costs whatever else runs. */
const cpuMs = (pid: number) => cpuSeconds(pid) * 1000

const dir = portalCopy('api-reference')
const server = await startPortal(dir, PORT, { NODE_ENV: undefined, LOG_LEVEL: 'warn' }, 180_000)
try {
  say(`load before: ${uptime()}`)
  for (const page of PAGES) {
    const url = `${server.origin}${page}`
    for (let i = 0; i < WARMUP; i++) await timed(url)
    const runs = []
    const cpuBefore = cpuMs(server.child.pid!)
    for (let i = 0; i < REQUESTS; i++) runs.push(await timed(url))
    const cpuPerRequest = (cpuMs(server.child.pid!) - cpuBefore) / REQUESTS
    const failed = runs.filter((r) => r.status !== 200).length
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b)
    say(
      `${page.padEnd(30)} p50 ${quantile(ms, 0.5).toFixed(1)} ms  p95 ${quantile(ms, 0.95).toFixed(1)} ms  max ${ms.at(-1)!.toFixed(1)} ms  server CPU ${cpuPerRequest.toFixed(1)} ms/request  ` +
        `${(runs[0]!.bytes / 1024).toFixed(0)} KB  ${failed ? `${failed} failed` : 'all 200'}`,
    )
  }
  say(`load after: ${uptime()}`)
} finally {
  await server.stop()
}

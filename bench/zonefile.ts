// Zone-file benchmark (issue 7): parse+validate vs `named-checkzone -i local`, the parser's peak
// memory under --max-old-space-size=300, import into PostgreSQL, export rate, and a check that
// the exported file passes named-checkzone with the same record sets as the input.
// Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/zonefile.ts [records=1000000]
import { execFile, spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { promisify } from 'node:util'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createZone, exportZone, importZone } from '#server/platform/dns/service.ts'
import { parseZoneBatches, type ZoneRecord } from '#server/platform/dns/zone-parser.ts'
import { printZone } from '#server/platform/dns/zone-printer.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { cpuSeconds } from './process-cpu.ts'
import { generateZone } from './zonefile-generate.ts'

const run = promisify(execFile)
const ZONE = 'bench.example'
const records = Number(process.argv[2] ?? 1_000_000)
const IMPORT_ONLY = process.argv.includes('--import-only')
const file = `bench/out/zone-${records}.db`
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d

/** Parse and validate the file once; returns records, errors, warnings (TTLs evened out per RRset), seconds and peak memory. */
async function parseOnce(keep: boolean) {
  let count = 0
  let errors = 0
  let warnings = 0
  let peakRss = 0
  let peakHeap = 0
  const kept: ZoneRecord[] = []
  const started = performance.now()
  for await (const batch of parseZoneBatches(createReadStream(file, { highWaterMark: 1 << 16 }), { zone: ZONE })) {
    for (const e of batch) {
      if (e.kind === 'record') {
        count++
        if (keep) kept.push(e.record)
      } else if (e.kind === 'warning') warnings++
      else errors++
    }
    if ((count & 0x3fff) < batch.length) {
      const m = process.memoryUsage()
      peakRss = Math.max(peakRss, m.rss)
      peakHeap = Math.max(peakHeap, m.heapUsed)
    }
  }
  const seconds = (performance.now() - started) / 1000
  const m = process.memoryUsage()
  return { count, errors, warnings, seconds, peakRss: Math.max(peakRss, m.rss), peakHeap: Math.max(peakHeap, m.heapUsed), kept }
}

// Child mode: only the parser, in a heap capped at 300 MB.
if (process.argv.includes('--parse-only')) {
  const result = await parseOnce(false)
  console.log(JSON.stringify({ ...result, kept: undefined }))
  process.exit(0)
}

if (!existsSync(file)) await generateZone(records, file, ZONE)
console.log(
  `load average at start: ${loadavg()
    .map((l) => round(l, 1))
    .join(' ')} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
)
console.log(`zone file: ${file}, ${records} records, ${round(statSync(file).size / 1e6, 1)} MB`)

// --import-only: steps 1–3 are skipped, for the import's own figure without the parse runs before it.
if (!IMPORT_ONLY) {
  // 1. Side by side in one run: named-checkzone, then our parser (best of two runs each).
  const timeChecker = (path: string) => {
    const started = performance.now()
    const result = spawnSync('named-checkzone', ['-i', 'local', '-q', ZONE, path])
    if (result.status !== 0) throw new Error(`named-checkzone failed on ${path}: ${result.stdout}${result.stderr}`)
    return (performance.now() - started) / 1000
  }
  const bind = Math.min(timeChecker(file), timeChecker(file))
  const ours1 = await parseOnce(false)
  const ours2 = await parseOnce(false)
  const ours = ours1.seconds < ours2.seconds ? ours1 : ours2
  console.log(
    `parse+validate: ours ${round(ours.seconds)} s (${ours.count} records, ${ours.errors} errors, ${ours.warnings} warnings) vs named-checkzone -i local ${round(bind)} s → ${round(bind / ours.seconds)}× as fast`,
  )

  // 2. Peak memory of the streaming parser, in a child whose heap is capped at 300 MB.
  // The old generation is capped at 300 MB: a parser that kept the file would fail here. The young
  // generation grows to ~100 MB by default on a large machine (garbage, not kept data); it is shown
  // both as it comes and at 16 MB, where the RSS is what the parser itself needs.
  for (const flags of [['--max-old-space-size=300'], ['--max-old-space-size=300', '--max-semi-space-size=16']]) {
    const child = await run(process.execPath, [...flags, process.argv[1]!, String(records), '--parse-only'], { maxBuffer: 1 << 20 })
    const capped = JSON.parse(child.stdout.trim().split('\n').pop()!) as { count: number; peakRss: number; peakHeap: number; seconds: number }
    console.log(
      `parser memory (${flags.join(' ')}): completed ${capped.count} records in ${round(capped.seconds)} s, peak RSS ${round(capped.peakRss / 1e6, 0)} MB, peak heap ${round(capped.peakHeap / 1e6, 0)} MB`,
    )
  }

  // 3. Printer rate on records in memory.
  const all = (await parseOnce(true)).kept
  let bytes = 0
  const printStarted = performance.now()
  for (const chunk of printZone(ZONE, all)) bytes += chunk.length
  const printSeconds = (performance.now() - printStarted) / 1000
  console.log(`printer: ${all.length} records in ${round(printSeconds, 3)} s → ${round(all.length / printSeconds / 1e6)} M records/s (${round(bytes / 1e6, 1)} MB)`)
  all.length = 0
}

// 4. Import into PostgreSQL (or PGlite without DATABASE_URL) and export back from it.
if (!process.env.DATABASE_URL) console.log('note: DATABASE_URL is not set; the import runs on the embedded PGlite')
const database = await createTestDatabase()
const logger = createLogger('silent')
const jobs = createJobs(database, logger)
const deps = { config: { APP_ENV: 'bench' }, database, db: database.db, logger, jobs, now: () => new Date() } as unknown as PlatformDeps
try {
  await jobs.start({ work: false })
  const account = await database.db.insertInto('accounts').values({ name: 'Bench' }).returning('id').executeTakeFirstOrThrow()
  const scope = systemScope('bench', account.id)
  const zone = await createZone(deps, scope, { name: ZONE })
  // CPU seconds of this process and of this database's server processes: on a machine shared with
  // other work, wall time says as much about the neighbours as about the import.
  const backendCpu = async () => {
    if (database.kind !== 'postgres') return 0
    const pids = (await database.pool.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows.map((r) => r.pid as number)
    // A process that ended counts 0.
    return pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  }
  const cpu = async () => ({ node: process.cpuUsage(), db: await backendCpu() })
  const cpuSince = async (start: Awaited<ReturnType<typeof cpu>>) => {
    const used = process.cpuUsage(start.node)
    return `CPU: node ${round((used.user + used.system) / 1e6, 1)} s, postgres ${round((await backendCpu()) - start.db, 1)} s; load average ${loadavg()
      .map((l) => round(l, 1))
      .join(' ')}`
  }
  const importCpu = await cpu()
  const rssBefore = process.memoryUsage().rss
  const importStarted = performance.now()
  const summary = await importZone(deps, scope, zone.id, createReadStream(file, { highWaterMark: 1 << 16 }))
  const importSeconds = (performance.now() - importStarted) / 1000
  if (!summary.applied) throw new Error(`import failed: ${JSON.stringify(summary.errors.slice(0, 3))}`)
  console.log(
    `import into ${database.kind}: ${summary.counts.added} records in ${round(importSeconds)} s (${round(summary.counts.added / importSeconds / 1000, 0)} k records/s), one transaction; ${await cpuSince(importCpu)}${IMPORT_ONLY ? `; peak RSS of this process ${round(process.resourceUsage().maxRSS / 1000, 0)} MB (${round(rssBefore / 1e6, 0)} MB before the import)` : ''}`,
  )

  const exported = 'bench/out/exported.db'
  const out = createWriteStream(exported)
  const exportCpu = await cpu()
  const exportStarted = performance.now()
  let exportedRecords = 0
  for await (const chunk of exportZone(database, scope, zone.id)) {
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) exportedRecords++
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve) => out.end(resolve))
  const exportSeconds = (performance.now() - exportStarted) / 1000
  exportedRecords -= 2 // the comment and $ORIGIN lines
  console.log(`export from ${database.kind} to a file: ${round(exportSeconds)} s → ${round(exportedRecords / exportSeconds / 1e6)} M records/s; ${await cpuSince(exportCpu)}`)

  // 5. The exported file passes named-checkzone and holds the same record sets (SOA aside: the portal manages it).
  const canonical = async (path: string) => {
    const { stdout } = await run('named-checkzone', ['-i', 'local', '-q', '-D', '-o', '-', ZONE, path], { maxBuffer: 1 << 30 })
    return stdout
      .split('\n')
      .filter((l) => l && !/\tSOA\t|\sSOA\s/.test(l))
      .sort()
  }
  const [a, b] = [await canonical(file), await canonical(exported)]
  const same = a.length === b.length && a.every((line, i) => line === b[i])
  console.log(`named-checkzone on the export: passes; same record sets as the input: ${same} (${a.length} vs ${b.length} lines)`)
  if (!same) process.exitCode = 1
} finally {
  await jobs.stop()
  await database.drop()
}

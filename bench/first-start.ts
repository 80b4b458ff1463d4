/**
 * What a newcomer waits for (issue 28, item 18): `npm install && npm start` from a fresh clone to
 * the first page, each phase timed on its own — install, the portal build (`prestart`), opening the
 * embedded database, migrations, the demo seed, listening — then the first GET of `/login`.
 *
 *   node bench/first-start.ts                     # clones this working tree's HEAD into a temporary folder
 *   node bench/first-start.ts --dir /tmp/x --keep # …into /tmp/x, kept afterwards
 *   node bench/first-start.ts --dir /tmp/x --skip-install --again   # a second start on the kept clone (no build, no seed)
 *
 * Target: ≤ 120 s to the first page on a quiet machine. The machine's load is printed before and
 * after: on a shared machine the figures are a ceiling.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string' },
    from: { type: 'string', default: path.resolve(import.meta.dirname, '..') },
    port: { type: 'string', default: '3970' },
    keep: { type: 'boolean', default: false },
    'skip-install': { type: 'boolean', default: false },
    again: { type: 'boolean', default: false },
  },
})

const say = (line: string) => process.stdout.write(`${line}\n`)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

const dir = args.dir ?? mkdtempSync(path.join(os.tmpdir(), 'rp-first-start-'))
say(`load average before: ${load()} (${os.cpus().length} cores)`)
if (!args['skip-install'] && !args.again) {
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  const cloned = spawnSync('git', ['clone', '-q', args.from, dir], { stdio: 'inherit' })
  if (cloned.status !== 0) throw new Error('git clone failed')
}

const phases: [string, number][] = []
let installWarnings: string[] = []
if (!args['skip-install'] && !args.again) {
  const started = performance.now()
  // The system's npm, as a newcomer runs it (its node may be older than the project's).
  const install = spawnSync('npm', ['install'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: undefined } })
  phases.push(['npm install', performance.now() - started])
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`)
  installWarnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((line) => /\bwarn\b/i.test(line))
}

// `npm start` with the demo log; each line's arrival time marks a phase's end.
const started = performance.now()
const server = spawn('npm', ['start'], { cwd: dir, env: { ...process.env, PORT: args.port, HOST: '127.0.0.1', NODE_ENV: undefined }, detached: true })
const lines: { at: number; text: string }[] = []
let buffered = ''
const take = (chunk: Buffer) => {
  buffered += chunk.toString('utf8')
  const parts = buffered.split('\n')
  buffered = parts.pop() ?? ''
  for (const text of parts) lines.push({ at: performance.now() - started, text })
}
server.stdout.on('data', take)
server.stderr.on('data', take)
const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)))

const url = `http://127.0.0.1:${args.port}/login`
let firstPage: number | undefined
const deadline = performance.now() + 15 * 60_000
while (performance.now() < deadline) {
  const gone = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('waiting'), 250))])
  if (gone !== 'waiting') break
  try {
    const answer = await fetch(url)
    await answer.text()
    if (answer.status === 200) {
      firstPage = performance.now() - started
      break
    }
  } catch {
    // not listening yet
  }
}

// The build prints a line per bundle (client, then server): its phase ends at the last one.
const at = (pattern: RegExp) => (pattern.source.includes('built') ? lines.findLast((line) => pattern.test(line.text)) : lines.find((line) => pattern.test(line.text)))?.at
const marks: [string, RegExp][] = [
  ['build done (prestart)', /built in|✓ built|build skipped|is up to date/i],
  ['database open', /"database open"/],
  ['migrations applied', /"migrations applied"/],
  ['demo data seeded (accounts, users, domains)', /"demo data seeded"/],
  ['demo zones', /"demo zones created"/],
  ['demo registry preload', /"demo domains preloaded/],
  ['demo renewals', /"demo renewals made/],
  ['demo invoices', /"demo invoices issued"/],
  ['listening', /"listening"/],
]
// In the order they happened (the demo's zones are logged after the registry's preload).
const found = marks.flatMap(([name, pattern]) => {
  const mark = at(pattern)
  return mark === undefined ? [] : [{ name, mark }]
})
found.sort((a, b) => a.mark - b.mark)
let previous = 0
for (const { name, mark } of found) {
  phases.push([`npm start → ${name}`, mark - previous])
  previous = mark
}
if (firstPage !== undefined) phases.push(['first page (GET /login answered)', firstPage - previous])

say('')
for (const [name, ms] of phases) say(`${name.padEnd(52)} ${seconds(ms).padStart(8)}`)
const total = phases.reduce((sum, [, ms]) => sum + ms, 0)
say(`${'total to the first page'.padEnd(52)} ${firstPage === undefined ? 'never' : seconds(total).padStart(8)}`)
say(`install warnings: ${installWarnings.length}`)
for (const line of installWarnings.slice(0, 12)) say(`  ${line}`)
say(`load average after: ${load()}`)
say('\nthe last lines of the start log:')
for (const line of lines.slice(-14)) say(`  ${line.text}`)

try {
  process.kill(-server.pid!, 'SIGTERM')
} catch {
  // already gone
}
await exited
if (!args.keep && !args.dir) rmSync(dir, { recursive: true, force: true })

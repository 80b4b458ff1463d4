/**
 * Lighthouse (mobile: its default Moto G Power profile, 4× CPU slowdown, slow 4G simulated) on a
 * signed-in screen of a running portal (issue 28, "Look": performance ≥ 80, accessibility 100 on
 * /domains). Signs in through the /login form as a person does, then hands the session cookie to
 * Lighthouse; runs the npm package `lighthouse` through npx (not a dependency: a newcomer's
 * `npm install` does not fetch it) with Debian's Chromium.
 *
 *   npm start                                   # in another terminal (or any running portal)
 *   node bench/lighthouse.ts                    # http://127.0.0.1:3000/domains as admin@acme.example
 *   node bench/lighthouse.ts --origin http://127.0.0.1:3204 --path /contacts --runs 3 --json out.json
 *
 * With several runs it prints each and the median performance score (Lighthouse's own advice: a
 * single run varies by several points, more on a shared machine — the load average is printed).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const LIGHTHOUSE = 'lighthouse@13.5.0'
const { values: args } = parseArgs({
  options: {
    origin: { type: 'string', default: 'http://127.0.0.1:3000' },
    path: { type: 'string', default: '/domains' },
    email: { type: 'string', default: 'admin@acme.example' },
    password: { type: 'string', default: 'portal-demo-2026' },
    runs: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
})

const say = (line: string) => process.stdout.write(`${line}\n`)

/** The session cookie of a sign-in through the /login form (as bench/portal.ts's signIn, without its database imports). */
async function signIn(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/login`, {
    method: 'POST',
    body: new URLSearchParams({ intent: 'password', username: email, password, redirectTo: '/' }),
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin },
  })
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!)
  if (response.status !== 302 || cookies.length === 0) throw new Error(`sign-in failed: ${response.status}`)
  return cookies.join('; ')
}

type Audit = { id: string; title: string; score: number | null; numericValue?: number; displayValue?: string; details?: { items?: Record<string, unknown>[] } }
type Report = { categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>; audits: Record<string, Audit> }

const cookie = await signIn(args.origin, args.email, args.password)
const dir = mkdtempSync(path.join(os.tmpdir(), 'rp-lighthouse-'))
const scores: number[] = []
for (let run = 1; run <= Number(args.runs); run++) {
  say(
    `run ${run}: load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  const out = path.join(dir, `run-${run}.json`)
  const result = spawnSync(
    'npx',
    [
      '-y',
      LIGHTHOUSE,
      `${args.origin}${args.path}`,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,accessibility',
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } },
  )
  if (result.status !== 0) throw new Error(`lighthouse exited with ${result.status}`)
  const report = JSON.parse(readFileSync(out, 'utf8')) as Report
  if (args.json) writeFileSync(args.json, JSON.stringify(report))
  const performance = Math.round(report.categories.performance!.score * 100)
  const accessibility = Math.round(report.categories.accessibility!.score * 100)
  scores.push(performance)
  say(`  performance ${performance}, accessibility ${accessibility}`)
  for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive']) {
    const audit = report.audits[id]
    if (audit) say(`  ${audit.title.padEnd(28)} ${audit.displayValue ?? ''}`)
  }
  const failing = report.categories.accessibility!.auditRefs.filter((ref) => ref.weight > 0 && report.audits[ref.id]?.score === 0)
  for (const ref of failing) {
    const audit = report.audits[ref.id]!
    say(`  accessibility: ${audit.title}`)
    for (const item of audit.details?.items?.slice(0, 3) ?? []) say(`    ${JSON.stringify((item.node as { snippet?: string } | undefined)?.snippet ?? item)}`)
  }
  // Where the main thread went, by script: what blocking time is made of.
  const bootup = report.audits['bootup-time']?.details?.items ?? []
  for (const item of bootup.slice(0, 5)) say(`  script ${String(item.url).replace(args.origin, '')}: ${Math.round(Number(item.total))} ms (${Math.round(Number(item.scripting))} ms scripting)`)
  const transfer = report.audits['total-byte-weight']
  if (transfer) say(`  ${transfer.title}: ${transfer.displayValue}`)
}
if (scores.length > 1) say(`median performance: ${[...scores].sort((a, b) => a - b)[Math.floor(scores.length / 2)]}`)
rmSync(dir, { recursive: true, force: true })

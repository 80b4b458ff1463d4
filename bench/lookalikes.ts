/**
 * bench:lookalikes — the lookalike engine (issue 30, decision 029), in process, no database.
 *
 *   npx node bench/lookalikes.ts [--brands 1000] [--names 1000000] [--seed 7]
 *
 * 1. Generation: a 10-letter brand (`acmebrands.com`) with every fuzzer, tld-swap and the
 *    whole-script confusables over every TLD of the bundled IANA list (~1,440). First call (the
 *    confusables table turned round) and the median of five more. Target ≤ 1 s.
 * 2. Reverse match: an index of `--brands` brands (6–12 letters, random, each with the default
 *    dictionary), two zone files of `--names` names (.com) a day apart (1 % dropped, 1 % new, among
 *    the new a lookalike of a random brand for one in ten, by a random fuzzer), the day's diff, and
 *    every new name matched. Target ≤ 10 s for the match; the planted lookalikes found are counted.
 */
import { tlds } from '@hapi/tlds'
import { execSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { generateLookalikes } from '#server/platform/brand/lookalikes.ts'
import { LookalikeIndex } from '#server/platform/brand/match.ts'
import { diffZoneNames, namesOfZoneFile, newLookalikes } from '#server/platform/brand/zone-file.ts'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const { values } = parseArgs({ options: { brands: { type: 'string', default: '1000' }, names: { type: 'string', default: '1000000' }, seed: { type: 'string', default: '7' } } })
const BRANDS = Number(values.brands)
const NAMES = Number(values.names)
let state = Number(values.seed) >>> 0
/** mulberry32: the same data for the same seed. */
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
const CONSONANTS = 'bcdfghjklmnprstvwz'
const VOWELS = 'aeiou'
const word = (min: number, max: number) => {
  const length = min + Math.floor(random() * (max - min + 1))
  let out = ''
  while (out.length < length) out += out.length % 2 === 0 ? CONSONANTS[Math.floor(random() * CONSONANTS.length)] : VOWELS[Math.floor(random() * VOWELS.length)]
  return out
}
const ms = (t0: number) => Math.round(performance.now() - t0)
/** CPU milliseconds of this process since `c0` (the machine is shared: wall time alone says its load). */
const cpu = (c0: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(c0)
  return Math.round((used.user + used.system) / 1000)
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

console.log(`uptime: ${execSync('uptime').toString().trim()}`)

// ------------------------------------------------------------------ 1. generation
const ALL = [...tlds]
let t0 = performance.now()
let c0 = process.cpuUsage()
const first = generateLookalikes('acmebrands.com', { tlds: ALL })
const cold = `${ms(t0)} ms (CPU ${cpu(c0)} ms)`
const warm: number[] = []
const warmCpu: number[] = []
for (let i = 0; i < 5; i++) {
  t0 = performance.now()
  c0 = process.cpuUsage()
  generateLookalikes('acmebrands.com', { tlds: ALL })
  warm.push(ms(t0))
  warmCpu.push(cpu(c0))
}
const byFuzzer = new Map<string, number>()
for (const c of first) for (const f of c.fuzzers) byFuzzer.set(f, (byFuzzer.get(f) ?? 0) + 1)
console.log(
  `generation: acmebrands.com over ${ALL.length} TLDs: ${first.length} candidates (${first.filter((c) => c.registrable).length} registrable), first ${cold}, then median ${median(warm)} ms, CPU ${median(warmCpu)} ms (${warm.join(', ')})`,
)
console.log(`  by fuzzer: ${[...byFuzzer].map(([f, n]) => `${f} ${n}`).join(', ')}`)

// ------------------------------------------------------------------ 2. zone diff and reverse match
const brands = new Set<string>()
while (brands.size < BRANDS) brands.add(word(6, 12))
const brandList = [...brands]
t0 = performance.now()
c0 = process.cpuUsage()
const index = new LookalikeIndex(brandList.map((label) => ({ id: label, name: `${label}.com` })))
console.log(`index: ${BRANDS} brands, ${index.size} fuzzed labels, built in ${ms(t0)} ms (CPU ${cpu(c0)} ms)`)

t0 = performance.now()
const yesterday: string[] = []
const seen = new Set<string>()
while (yesterday.length < NAMES) {
  const name = `${word(4, 14)}${random() < 0.2 ? Math.floor(random() * 100) : ''}.com`
  if (!seen.has(name) && !brands.has(name.slice(0, -4))) {
    seen.add(name)
    yesterday.push(name)
  }
}
// Today: 1 % of yesterday's names dropped, as many new ones, one in ten of them a lookalike.
const dropped = new Set<string>()
while (dropped.size < NAMES / 100) dropped.add(pick(yesterday))
const today = yesterday.filter((n) => !dropped.has(n))
const planted = new Map<string, string>()
const made = new Map<string, string[]>()
const lookalikesOf = (brand: string, fuzzer: string) => {
  let list = made.get(`${brand} ${fuzzer}`)
  if (!list)
    made.set(
      `${brand} ${fuzzer}`,
      (list = generateLookalikes(`${brand}.com`, { fuzzers: [fuzzer as never], tlds: [] })
        .filter((c) => c.registrable)
        .map((c) => c.ascii)),
    )
  return list
}
const FUZZERS = ['addition', 'bitsquatting', 'homoglyph', 'hyphenation', 'insertion', 'omission', 'repetition', 'replacement', 'transposition', 'vowel-swap', 'dictionary', 'cyrillic'] as const
while (today.length < NAMES) {
  if (random() < 0.1) {
    const brand = pick(brandList)
    const candidates = lookalikesOf(brand, pick(FUZZERS))
    if (!candidates.length) continue
    const ascii = pick(candidates)
    if (seen.has(ascii) || brands.has(ascii.slice(0, -4))) continue
    seen.add(ascii)
    planted.set(ascii, brand)
    today.push(ascii)
  } else {
    const name = `${word(4, 14)}.com`
    if (seen.has(name) || brands.has(name.slice(0, -4))) continue
    seen.add(name)
    today.push(name)
  }
}
console.log(`names: ${yesterday.length} and ${today.length} made in ${ms(t0)} ms (${planted.size} planted lookalikes)`)

t0 = performance.now()
c0 = process.cpuUsage()
const before = new Set(yesterday)
const added = today.filter((n) => !before.has(n))
const after = new Set(today)
const gone = yesterday.filter((n) => !after.has(n))
console.log(`diff: ${added.length} new, ${gone.length} dropped, in ${ms(t0)} ms (CPU ${cpu(c0)} ms)`)

for (const [label, names] of [
  ['new names', added],
  ['every name of the zone', today],
] as const) {
  t0 = performance.now()
  c0 = process.cpuUsage()
  let matched = 0
  let found = 0
  for (const name of names) {
    const matches = index.match(name)
    if (matches.length) matched++
    const brand = planted.get(name)
    if (brand && matches.some((m) => m.brand === brand)) found++
  }
  const took = ms(t0)
  console.log(
    `match ${label}: ${names.length} names against ${BRANDS} brands in ${took} ms, CPU ${cpu(c0)} ms (${Math.round(names.length / (took / 1000)).toLocaleString('en')} names/s): ${matched} lookalikes, ${found} of ${planted.size} planted found`,
  )
}

// ------------------------------------------------------------------ 3. the same days as CZDS zone files
const dir = mkdtempSync(join(tmpdir(), 'bench-zones-'))
const writeZone = async (file: string, names: string[]) => {
  const out = createWriteStream(file)
  out.write('com.\t86400\tin\tsoa\ta.gtld-servers.net. nstld.verisign-grs.com. 1 1800 900 604800 86400\n')
  for (const name of names) if (!out.write(`${name}.\t172800\tin\tns\tns1.${name}.\n${name}.\t172800\tin\tns\tns2.${name}.\n`)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(() => r()))
}
await writeZone(join(dir, 'day1.zone'), yesterday)
await writeZone(join(dir, 'day2.zone'), today)
t0 = performance.now()
c0 = process.cpuUsage()
const [day1, day2] = [await namesOfZoneFile(join(dir, 'day1.zone'), 'com'), await namesOfZoneFile(join(dir, 'day2.zone'), 'com')]
const read = `${ms(t0)} ms (CPU ${cpu(c0)} ms)`
t0 = performance.now()
c0 = process.cpuUsage()
const zoneDiff = diffZoneNames(day1, day2)
const found = newLookalikes(index, zoneDiff.added)
console.log(
  `zone files: two of ${day1.size.toLocaleString('en')} names (2 NS each) read in ${read}; diffed and the ${zoneDiff.added.length} new names matched in ${ms(t0)} ms (CPU ${cpu(c0)} ms): ${found.length} lookalikes, ${found.filter((f) => f.matches.some((m) => m.brand === planted.get(f.name))).length} of ${planted.size} planted found`,
)
rmSync(dir, { recursive: true, force: true })
console.log(`uptime: ${execSync('uptime').toString().trim()}`)

import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { createGunzip } from 'node:zlib'
import type { LookalikeIndex, Match } from './match.ts'

/**
 * Zone-file feeds (issue 30): the names a TLD's zone delegates, read from a master file as ICANN's
 * CZDS serves it (RFC 1035 §5 text, one record a line, owner names written out in full:
 * `example.com.	172800	in	ns	ns1.example.net.`), and the day-over-day difference of two such
 * files, whose new names the lookalike index matches against every brand. Pure and streaming: a
 * 1M-name file is read line by line, never held as text.
 */

/** The registered names (ASCII, no trailing dot) a zone delegates: the owners of its NS records one label below the zone's apex. */
export function namesOfZoneLines(lines: Iterable<string>, zone: string, into: Set<string> = new Set()): Set<string> {
  const apex = zone.toLowerCase().replace(/\.$/, '')
  const suffix = `.${apex}`
  let origin = `${apex}.`
  let last = ''
  for (const raw of lines) {
    const line = raw.replace(/;.*$/, '')
    if (!line.trim()) continue
    if (line.startsWith('$ORIGIN')) {
      origin = line.split(/\s+/)[1]?.toLowerCase() ?? origin
      continue
    }
    if (line.startsWith('$')) continue
    // An owner left blank repeats the previous one (RFC 1035 §5.1).
    const fields = line.trim().split(/\s+/)
    const owner = /^\s/.test(line) ? last : fields.shift()!.toLowerCase()
    last = owner
    const type = fields.find((f) => !/^\d+$/.test(f) && !/^(in|ch|hs)$/i.test(f))
    if (type?.toLowerCase() !== 'ns') continue
    const name = (owner.endsWith('.') ? owner : owner === '@' ? origin : `${owner}.${origin}`).replace(/\.$/, '')
    if (!name.endsWith(suffix)) continue
    const label = name.slice(0, -suffix.length)
    if (label && !label.includes('.')) into.add(name)
  }
  return into
}

/** The delegated names of a zone file on disk (gzipped when its name ends `.gz`), read as a stream. */
export async function namesOfZoneFile(path: string, zone: string): Promise<Set<string>> {
  const names = new Set<string>()
  const batch: string[] = []
  // CZDS serves its files gzipped (`com.txt.gz`): read as they come.
  const input = path.endsWith('.gz') ? createReadStream(path).pipe(createGunzip()) : createReadStream(path)
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    batch.push(line)
    if (batch.length === 10_000) namesOfZoneLines(batch.splice(0), zone, names)
  }
  namesOfZoneLines(batch, zone, names)
  return names
}

/** What changed between two days' names of a zone: the new (registered since) and the dropped. */
export function diffZoneNames(before: ReadonlySet<string>, after: ReadonlySet<string>): { added: string[]; dropped: string[] } {
  const added: string[] = []
  const dropped: string[] = []
  for (const name of after) if (!before.has(name)) added.push(name)
  for (const name of before) if (!after.has(name)) dropped.push(name)
  return { added: added.sort(), dropped: dropped.sort() }
}

/** Every new name that looks like a brand of the index, with the brands and fuzzers. */
export function newLookalikes(index: LookalikeIndex, added: Iterable<string>): { name: string; matches: Match[] }[] {
  const found: { name: string; matches: Match[] }[] = []
  for (const name of added) {
    const matches = index.match(name)
    if (matches.length) found.push({ name, matches })
  }
  return found
}

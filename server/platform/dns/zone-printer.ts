import { relativeName } from './names.ts'

export type PrintableRecord = { name: string; type: string; ttl: number; content: string }

const CHUNK = 1 << 16

/**
 * Writes records as a BIND master file with `$ORIGIN zone.`, owners relative to it and every
 * TTL explicit, in chunks of about 64 KiB. Content is already canonical presentation text with
 * absolute names, so it is copied as it is.
 */
export function* printZone(zone: string, records: Iterable<PrintableRecord>, header?: string, withOrigin = true): Generator<string> {
  let out = header ? `; ${header.replace(/\n/g, '\n; ')}\n` : ''
  // Continuation pages of an export already follow a $ORIGIN line.
  if (withOrigin) out += `$ORIGIN ${zone}.\n`
  let lastName = ''
  let lastRel = '@'
  for (const r of records) {
    // Owners repeat in runs; reuse the relative form instead of recomputing it.
    if (r.name !== lastName) {
      lastName = r.name
      lastRel = relativeName(r.name, zone)
    }
    out += `${lastRel}\t${r.ttl}\tIN\t${r.type}\t${r.content}\n`
    if (out.length > CHUNK) {
      yield out
      out = ''
    }
  }
  if (out) yield out
}

/** The whole file as one string (small zones). */
export function printZoneText(zone: string, records: Iterable<PrintableRecord>, header?: string): string {
  let text = ''
  for (const chunk of printZone(zone, records, header)) text += chunk
  return text
}

/** Export order: SOA, then NS, then by name, type and content. */
export function exportOrder(a: PrintableRecord, b: PrintableRecord): number {
  const rank = (r: PrintableRecord) => (r.type === 'SOA' ? 0 : r.type === 'NS' ? 1 : 2)
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb && (ra < 2 || rb < 2)) return ra - rb
  if (a.name !== b.name) return a.name < b.name ? -1 : 1
  if (a.type !== b.type) return a.type < b.type ? -1 : 1
  return a.content < b.content ? -1 : a.content > b.content ? 1 : 0
}

import type { RecordOperation } from '#common/change-sets.ts'
import type { FieldError } from '#server/platform/core/errors.ts'
import { validateRecord } from '#server/platform/dns/changes.ts'

/**
 * A change set's DNS operations over one zone (issue 33): what they add and remove given the
 * records the zone holds at the names they touch, and whether the result would conflict. Pure, so
 * the preview of 10,000 zones is one read and this loop, and the rollout computes the same diff
 * again against the zone as it is when its turn comes (a retried stage finds nothing left to do).
 */

export type CurrentRecord = { id: string; name: string; type: string; ttl: number; content: string }
export type RecordAdd = { name: string; type: string; ttl?: number; content: string }
export type ZoneDiff = {
  /** Why the change cannot be made to this zone (it is then not sent), or null. */
  conflict: string | null
  adds: RecordAdd[]
  removes: CurrentRecord[]
  /** The RRsets (`name\ttype`, absolute names) the diff changes. */
  touched: string[]
}
/** An object's state before its change: the RRsets it touched, each as it was (empty: absent). */
export type ZoneBaseline = { rrsets: Record<string, { ttl: number; content: string }[]> }

const rrsetKey = (name: string, type: string) => `${name}\t${type}`
const recordKey = (name: string, type: string, content: string) => `${name}\t${type}\t${content}`

/** The relative owner names the operations touch ('@', 'www'), for the one read of their records. */
export const namesOf = (operations: RecordOperation[]) => [...new Set(operations.map((o) => relativeName(o.name)))]
const relativeName = (name: string) => (name.trim() === '' ? '@' : name.trim().replace(/\.$/, '').toLowerCase())

/** One operation's values in this zone (absolute owner, canonical content), or the reason it is not valid here. */
function valuesIn(zone: string, op: RecordOperation, contents: string[], ttlMin: number): { values: RecordAdd[]; problem: string | null; name: string; type: string } {
  const errors: FieldError[] = []
  const values: RecordAdd[] = []
  let name = ''
  const type = op.type.toUpperCase()
  // A remove of a whole RRset gives no content: its owner alone is checked, with a placeholder.
  for (const content of contents.length ? contents : [null]) {
    const value = validateRecord(zone, { name: op.name, type, content: content ?? placeholder(type), ...(op.op !== 'remove' && op.ttl !== undefined ? { ttl: op.ttl } : {}) }, 'op', errors, ttlMin)
    if (value) {
      name = value.name
      if (content !== null) values.push({ name: value.name, type, content: value.content, ...(op.op !== 'remove' && op.ttl !== undefined ? { ttl: op.ttl } : {}) })
    }
  }
  return { values, name, type, problem: errors.length ? errors.map((e) => e.message).join('; ') : null }
}

const PLACEHOLDERS: Record<string, string> = { A: '192.0.2.1', AAAA: '2001:db8::1', MX: '10 host.invalid.', TXT: '"x"', CAA: '0 issue "x"', SRV: '0 0 1 host.invalid.', DS: '1 13 2 ' + '0'.repeat(64) }
const placeholder = (type: string) => PLACEHOLDERS[type] ?? 'host.invalid.'

export function zoneDiff(zone: string, operations: RecordOperation[], current: CurrentRecord[], ttlMin: number): ZoneDiff {
  const state = new Map<string, CurrentRecord | RecordAdd>(current.map((r) => [recordKey(r.name, r.type, r.content), r]))
  const problems: string[] = []
  for (const op of operations) {
    const contents = op.op === 'add' ? [op.content] : op.op === 'replace' ? op.contents : op.content ? [op.content] : []
    const { values, problem, name, type } = valuesIn(zone, op, contents, ttlMin)
    if (problem) {
      problems.push(problem)
      continue
    }
    if (op.op === 'add') {
      for (const v of values) if (!state.has(recordKey(v.name, v.type, v.content))) state.set(recordKey(v.name, v.type, v.content), v)
      continue
    }
    if (op.op === 'remove') {
      if (values.length) for (const v of values) state.delete(recordKey(v.name, v.type, v.content))
      else for (const [key, r] of state) if (r.name === name && r.type === type) state.delete(key)
      continue
    }
    // replace: the RRset (or its records starting with `match`) becomes exactly the contents.
    const wanted = new Set(values.map((v) => v.content))
    for (const [key, r] of state) if (r.name === name && r.type === type && (!op.match || r.content.startsWith(op.match)) && !wanted.has(r.content)) state.delete(key)
    for (const v of values) if (!state.has(recordKey(v.name, v.type, v.content))) state.set(recordKey(v.name, v.type, v.content), v)
  }
  const before = new Set(current.map((r) => recordKey(r.name, r.type, r.content)))
  const adds = [...state.entries()].filter(([key]) => !before.has(key)).map(([, r]) => ({ name: r.name, type: r.type, content: r.content, ...(r.ttl !== undefined ? { ttl: r.ttl } : {}) }))
  const removes = current.filter((r) => !state.has(recordKey(r.name, r.type, r.content)))
  const touched = [...new Set([...adds, ...removes].map((r) => rrsetKey(r.name, r.type)))]
  if (!problems.length && touched.length) {
    // The rules of the zone as it would be, at the names changed: a CNAME stands alone (RFC 1034
    // §3.6.2) and never at the apex; the apex keeps its NS records.
    const byName = new Map<string, Set<string>>()
    for (const r of state.values()) byName.set(r.name, (byName.get(r.name) ?? new Set()).add(r.type))
    for (const name of new Set([...adds, ...removes].map((r) => r.name))) {
      const types = byName.get(name) ?? new Set()
      if (types.has('CNAME') && name === zone) problems.push(`a CNAME at the apex of ${zone}`)
      else if (types.has('CNAME') && types.size > 1)
        problems.push(
          `a CNAME beside other data at ${name} (${[...types]
            .filter((t) => t !== 'CNAME')
            .sort()
            .join(', ')})`,
        )
      if (name === zone && !types.has('NS') && current.some((r) => r.name === zone && r.type === 'NS')) problems.push(`${zone} would have no NS records`)
    }
  }
  return { conflict: problems.length ? [...new Set(problems)].join('; ') : null, adds, removes, touched }
}

/** The baseline of a zone before `diff`: each RRset it touches, as `current` holds it. */
export function baselineOf(diff: ZoneDiff, current: CurrentRecord[]): ZoneBaseline {
  const rrsets: ZoneBaseline['rrsets'] = {}
  for (const key of diff.touched) rrsets[key] = []
  for (const r of current) rrsets[rrsetKey(r.name, r.type)]?.push({ ttl: r.ttl, content: r.content })
  return { rrsets }
}

/** What puts the RRsets of a baseline back as they were, from the records the zone holds now. */
export function restoreDiff(baseline: ZoneBaseline, current: CurrentRecord[]): ZoneDiff {
  const adds: RecordAdd[] = []
  const removes: CurrentRecord[] = []
  for (const [key, was] of Object.entries(baseline.rrsets)) {
    const [name, type] = key.split('\t') as [string, string]
    const now = current.filter((r) => r.name === name && r.type === type)
    const keep = new Set(was.map((w) => w.content))
    removes.push(...now.filter((r) => !keep.has(r.content)))
    const present = new Set(now.map((r) => r.content))
    adds.push(...was.filter((w) => !present.has(w.content)).map((w) => ({ name, type, ttl: w.ttl, content: w.content })))
  }
  return { conflict: null, adds, removes, touched: [...new Set([...adds, ...removes].map((r) => rrsetKey(r.name, r.type)))] }
}

/** The diff as lines a person reads ("+ www.example.com A 192.0.2.1"). */
export const diffLines = (diff: ZoneDiff) => [...diff.removes.map((r) => `- ${r.name} ${r.type} ${r.content}`), ...diff.adds.map((r) => `+ ${r.name} ${r.type} ${r.content}`)].join('\n')

/** The change set of the DNS area's editor that makes the diff (one `applyChangeSet` per zone). */
export const changesOf = (diff: ZoneDiff) => [
  ...diff.removes.map((r) => ({ action: 'delete' as const, id: r.id })),
  ...diff.adds.map((a) => ({ action: 'add' as const, name: `${a.name}.`, type: a.type, content: a.content, ...(a.ttl !== undefined ? { ttl: a.ttl } : {}) })),
]

import type { ChangeSetCheck } from '#common/change-sets.ts'
import type { ChangeSet } from '#server/db/schema-change-sets.ts'
import { outboundOf } from '#server/platform/core/outbound.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { recordsAtRelativeNames, zonesPublishStates } from '#server/platform/dns/reads.ts'
import { powerDnsSettings } from '#server/platform/dns/zones.ts'
import { liveDomainsOf } from '#server/platform/domains/reads.ts'
import { LOCK_STATUSES } from '#server/platform/domains/update.ts'
import type { ZoneBaseline } from './diff.ts'

/**
 * The health check after a stage (issue 33): every object of the stage changed without failing,
 * and for zones, PowerDNS serving what we hold — each changed zone published at its new serial
 * (a zone PowerDNS refused is a failure with PowerDNS's reason), then each RRset the stage changed
 * asked of PowerDNS with a resolver query (DNS_RESOLVER: our PowerDNS) and compared with our
 * records. Null while a zone still waits for its publication (the check looks again).
 */
export async function stageHealth(deps: PlatformDeps, set: ChangeSet, stage: number): Promise<ChangeSetCheck | null> {
  const objects = await deps.db.selectFrom('change_set_objects').select(['subject_id', 'name', 'outcome', 'error', 'baseline']).where('change_set_id', '=', set.id).where('stage', '=', stage).execute()
  const failures = objects.filter((o) => o.outcome === 'failed').map((o) => ({ name: o.name, reason: o.error ?? 'failed' }))
  const at = deps.now().toISOString()
  const result = (checked: number, skipped?: string): ChangeSetCheck => ({ stage, ok: failures.length === 0, checked, failures, at, ...(skipped ? { skipped } : {}) })
  // Domains: what the registry holds now of each changed domain, against our row (lock and nameservers live there).
  if (set.target === 'domains') return registryHealth(deps, set, objects, failures, result)
  const applied = objects.filter((o) => o.outcome === 'applied')
  if (!applied.length) return result(0)
  if (!powerDnsSettings(deps)) return result(0, 'powerdns')
  const states = await zonesPublishStates(
    deps.db,
    applied.map((o) => o.subject_id),
  )
  const deadline = set.check_deadline ? set.check_deadline.getTime() : 0
  const waiting = states.filter((z) => z.verified_at !== null && z.publish_state !== 'failed' && z.published_serial !== z.serial)
  const refused = states.filter((z) => z.publish_state === 'failed')
  for (const z of refused) failures.push({ name: z.name, reason: `PowerDNS refused the zone: ${z.last_error ?? 'no reason given'}` })
  if (waiting.length && !refused.length && deps.now().getTime() < deadline) return null
  for (const z of waiting) failures.push({ name: z.name, reason: 'not published in time' })
  const served = states.filter((z) => z.verified_at !== null && z.publish_state === 'published' && z.published_serial === z.serial)
  const outbound = outboundOf(deps)
  if (!Array.isArray(outbound.resolver)) return result(served.length, 'resolver')
  // What we hold now at each RRset the stage changed, and what PowerDNS answers for it.
  const baselines = new Map(applied.map((o) => [o.subject_id, o.baseline as ZoneBaseline | null]))
  let checked = 0
  for (const zone of served) {
    const keys = Object.keys(baselines.get(zone.id)?.rrsets ?? {})
    const names = [...new Set(keys.map((k) => k.split('\t')[0]!))]
    const ours = await recordsAtRelativeNames(
      deps.db,
      [zone.id],
      names.map((n) => (n === zone.name ? '@' : n.slice(0, -(zone.name.length + 1)))),
    )
    for (const key of keys) {
      const [name, type] = key.split('\t') as [string, string]
      if (!ANSWERED.has(type)) continue
      const expected = ours
        .filter((r) => r.name === name && r.type === type)
        .map((r) => comparable(type, r.content))
        .sort()
      let answered: string[]
      try {
        answered = (await outbound.resolveRecords(name, type as AnsweredType)).map((a) => fromAnswer(type, a)).sort()
      } catch (error) {
        failures.push({ name, reason: `${type}: no answer from PowerDNS (${error instanceof Error ? error.message : String(error)})` })
        continue
      }
      checked++
      if (expected.join('\n') !== answered.join('\n')) failures.push({ name, reason: `${type}: PowerDNS answers ${answered.join(', ') || 'nothing'}, we hold ${expected.join(', ') || 'nothing'}` })
    }
  }
  return result(checked)
}

type AnsweredType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS' | 'CAA' | 'SRV'
const ANSWERED = new Set<string>(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'CAA', 'SRV'])

/** Our record's content in the form the answer is compared in (TXT: its strings joined, names without the final dot, lower case). */
function comparable(type: string, content: string): string {
  if (type === 'TXT') return [...content.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1')).join('')
  return content
    .replace(/\.(\s|$)/g, '$1')
    .trim()
    .toLowerCase()
}

/** A resolver answer (node's shapes) in the same form. */
function fromAnswer(type: string, answer: unknown): string {
  const a = answer as Record<string, unknown>
  switch (type) {
    case 'TXT':
      return (answer as string[]).join('')
    case 'MX':
      return `${a.priority} ${a.exchange || ''}`.trim().toLowerCase()
    case 'SRV':
      return `${a.priority} ${a.weight} ${a.port} ${a.name}`.toLowerCase()
    case 'CAA': {
      const tag = ['issue', 'issuewild', 'iodef', 'contactemail', 'contactphone'].find((t) => t in a) ?? 'issue'
      return `${a.critical ?? 0} ${tag} "${a[tag]}"`.toLowerCase()
    }
    default:
      return String(answer).replace(/\.$/, '').toLowerCase()
  }
}

/**
 * The registry's side of a domain stage: each applied domain's info asked of its registry (eight at
 * a time) and compared with our row for what lives there — the registry lock (its client statuses)
 * and the nameservers. Auto-renew and tags are ours alone: nothing to ask. No registry configured:
 * skipped, said so.
 */
async function registryHealth(
  deps: PlatformDeps,
  set: ChangeSet,
  objects: { subject_id: string; outcome: string | null }[],
  failures: { name: string; reason: string }[],
  result: (checked: number, skipped?: string) => ChangeSetCheck,
): Promise<ChangeSetCheck> {
  const kind = set.change.kind
  if (kind !== 'registry_lock' && kind !== 'nameservers') return result(objects.length, 'registry_fields')
  if (!deps.registries) return result(0, 'registry')
  const ids = objects.filter((o) => o.outcome === 'applied').map((o) => o.subject_id)
  const domains = ids.length
    ? await liveDomainsOf(deps.db, set.account_id).select(['domains.id', 'domains.name', 'domains.tld', 'domains.registry_lock', 'domains.nameservers']).where('domains.id', 'in', ids).execute()
    : []
  let checked = 0
  for (let i = 0; i < domains.length; i += 8) {
    await Promise.all(
      domains.slice(i, i + 8).map(async (d) => {
        const connection = deps.registries?.forTld(d.tld)
        if (!connection) return
        try {
          const info = await connection.infoDomain(d.name)
          checked++
          if (kind === 'registry_lock') {
            const locked = LOCK_STATUSES.every((s) => info.statuses.includes(s))
            if (locked !== d.registry_lock) failures.push({ name: d.name, reason: `the registry has the lock ${locked ? 'on' : 'off'}, we hold it ${d.registry_lock ? 'on' : 'off'}` })
          } else {
            const held = info.nameservers.map((n) => n.toLowerCase().replace(/\.$/, '')).sort()
            const ours = d.nameservers.map((n) => n.toLowerCase().replace(/\.$/, '')).sort()
            if (held.join(' ') !== ours.join(' ')) failures.push({ name: d.name, reason: `the registry holds ${held.join(', ') || 'no nameservers'}, we hold ${ours.join(', ') || 'none'}` })
          }
        } catch (error) {
          failures.push({ name: d.name, reason: `no answer from the registry (${error instanceof Error ? error.message : String(error)})` })
        }
      }),
    )
  }
  return result(checked)
}

import { normaliseCertificateName } from '#common/ssl.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import { applyChangeSet } from '#server/platform/dns/service.ts'
import { hostingZone, zoneRecordsAt } from '#server/platform/dns/reads.ts'

/**
 * The CAA check before an order (RFC 8659, with RFC 8657's accounturi and validationmethods): per
 * name, the first CAA record set found climbing from the name towards the root decides. For a name
 * in a zone we host, the zone's own records are read (down to its apex, where we are the authority);
 * a name hosted elsewhere is looked up through the outbound guard's resolver (DNS_RESOLVER, decision
 * 022; a lookup that does not answer, or no resolver configured, does not hold the order back: the
 * CA checks CAA itself).
 */
export type CaaRecord = { flags: number; tag: string; value: string }
export type CaaVerdict = { name: string; domain: string | null; records: CaaRecord[]; allowed: boolean; reason: string | null }

/** Whether a record set lets a CA of these identities issue for the name (wildcard: issuewild first). */
export function caaAllows(records: CaaRecord[], identities: string[], options: { wildcard: boolean; accountUri?: string | null; method?: string }): { allowed: boolean; reason: string | null } {
  const issue = records.filter((r) => r.tag === 'issue')
  const wild = records.filter((r) => r.tag === 'issuewild')
  const relevant = options.wildcard && wild.length ? wild : issue
  const critical = records.find((r) => r.flags & 128 && !['issue', 'issuewild', 'iodef'].includes(r.tag))
  if (critical) return { allowed: false, reason: `an unknown critical CAA property '${critical.tag}'` }
  if (!relevant.length) return { allowed: true, reason: null }
  const ours = new Set(identities.map((i) => i.toLowerCase()))
  for (const r of relevant) {
    const [domain = '', ...params] = r.value.split(';').map((p) => p.trim())
    if (!domain || !ours.has(domain.toLowerCase())) continue
    const param = (key: string) =>
      params
        .find((p) => p.toLowerCase().startsWith(`${key}=`))
        ?.slice(key.length + 1)
        .trim()
    const account = param('accounturi')
    if (account && account !== options.accountUri) continue
    const methods = param('validationmethods')
    if (
      methods &&
      !methods
        .split(',')
        .map((m) => m.trim())
        .includes(options.method ?? 'dns-01')
    )
      continue
    return { allowed: true, reason: null }
  }
  return { allowed: false, reason: `CAA allows only ${relevant.map((r) => r.value || ';').join(', ')}` }
}

const parse = (content: string): CaaRecord | null => {
  const m = /^(\d+)\s+([a-z0-9]+)\s+"?(.*?)"?$/i.exec(content.trim())
  return m ? { flags: Number(m[1]), tag: m[2]!.toLowerCase(), value: m[3]! } : null
}

async function externalCaa(deps: WithOutbound, domain: string): Promise<CaaRecord[]> {
  try {
    const rows = await outboundOf(deps).resolveCaa(domain)
    // node:dns answers { critical, <tag>: value } (and, in recent versions, type: 'CAA').
    return rows.map((r) => {
      const [tag = '', value = ''] = Object.entries(r).find(([k]) => k !== 'critical' && k !== 'type') ?? []
      return { flags: r.critical, tag, value: String(value) }
    })
  } catch {
    return []
  }
}

export async function checkCaa(deps: Pick<PlatformDeps, 'db'> & WithOutbound, accountId: string, names: string[], identities: string[], accountUri: string | null): Promise<CaaVerdict[]> {
  const out: CaaVerdict[] = []
  for (const name of names) {
    const wildcard = name.startsWith('*.')
    const labels = (wildcard ? name.slice(2) : name).split('.')
    const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'))
    const zone = await hostingZone(deps.db, accountId, candidates)
    let found: { domain: string; records: CaaRecord[] } | null = null
    for (const domain of zone ? candidates.filter((c) => c === zone.name || c.endsWith(`.${zone.name}`)) : candidates) {
      const records = zone
        ? (await zoneRecordsAt(deps.db, zone.id, domain, 'CAA').select('content').execute()).map((r) => parse(r.content)).filter((r): r is CaaRecord => r !== null)
        : await externalCaa(deps, domain)
      if (records.length) {
        found = { domain, records }
        break
      }
    }
    const verdict = found ? caaAllows(found.records, identities, { wildcard, accountUri }) : { allowed: true, reason: null }
    out.push({ name, domain: found?.domain ?? null, records: found?.records ?? [], ...verdict })
  }
  return out
}

/**
 * "Allow our CA": for a name in a zone we host whose CAA forbids the CA, one CAA record naming the
 * CA is added where the deciding record set is (issuewild for a wildcard), through the DNS service
 * with the person's own DNS permission and audit. A name already allowed changes nothing.
 */
export async function allowCaByCaa(deps: PlatformDeps, scope: Scope, rawName: string, acme: { caName: string; caaIdentities?: string[] | undefined } | null) {
  requirePermission(scope.actor, 'ssl-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const identity = acme?.caaIdentities?.[0]
  if (!identity) throw refused('ssl.no-caa-identity', 'The CA has no CAA identity configured here')
  const name = normaliseCertificateName(rawName)
  if (!name) throw invalid('ssl.caa-invalid', 'The name is not valid', [fieldError('name', 'ssl.name-invalid', `'${rawName}' is not a host name`)])
  const [verdict] = await checkCaa(deps, accountId, [name], acme.caaIdentities!, null)
  if (verdict!.allowed) return { name, domain: verdict!.domain, added: null }
  const labels = (name.startsWith('*.') ? name.slice(2) : name).split('.')
  const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'))
  const zone = await hostingZone(deps.db, accountId, candidates)
  if (!zone || !verdict!.domain) throw refused('ssl.caa-not-hosted', `${name} is not in a zone hosted here: its CAA records are changed where it is hosted`)
  const content = `0 ${name.startsWith('*.') ? 'issuewild' : 'issue'} "${identity}"`
  await applyChangeSet(deps, scope, zone.id, { changes: [{ action: 'add', name: `${verdict!.domain}.`, type: 'CAA', content }] })
  return { name, domain: verdict!.domain, added: content }
}

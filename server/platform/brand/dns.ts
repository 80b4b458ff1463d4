import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import type { RdapClient } from '#server/integrations/rdap/index.ts'
import type { DnsEvidence, RegistryEvidence } from './service.ts'

const strings = (rows: unknown[]) => rows.map((r) => (typeof r === 'object' && r && 'exchange' in r ? String(r.exchange) : String(r))).sort()

/**
 * A candidate's DNS evidence through the configured resolver (decision 022: never node:dns here):
 * its NS, A and MX answers. A name is live only on answers a registration explains: a failing
 * resolver (SERVFAIL, REFUSED, a time-out) is no evidence, and where the resolver answers an A
 * record for a name that cannot exist (a wildcard, a resolver that rewrites NXDOMAIN: dnstwist's
 * users' most common false positive), an A answer alone is not taken, only NS or MX. Null without
 * a resolver of our own (none, or the system's).
 */
export function dnsEvidence(deps: WithOutbound): DnsEvidence | null {
  const outbound = outboundOf(deps)
  if (outbound.resolver === null || outbound.resolver === 'system') return null
  const wildcard = new Map<string, Promise<boolean>>()
  const ask = (name: string, type: 'NS' | 'A' | 'MX') => outbound.resolveRecords(name, type).then(strings)
  return async (name) => {
    const tld = name.slice(name.indexOf('.') + 1)
    if (!wildcard.has(tld))
      wildcard.set(
        tld,
        ask(`nx-${crypto.randomUUID().slice(0, 18)}.${tld}`, 'A').then(
          (a) => a.length > 0,
          () => false,
        ),
      )
    try {
      const [ns, a, mx] = await Promise.all([ask(name, 'NS'), ask(name, 'A'), ask(name, 'MX')])
      const wild = await wildcard.get(tld)!
      return { ns, a: ns.length || mx.length || !wild ? a : [], mx }
    } catch {
      return null
    }
  }
}

/**
 * A candidate's registry evidence through the platform's RDAP client (RDAP_BASE_URL, else the
 * local registry's service): the registrar, its abuse contact, the dates and the statuses. A
 * failed lookup (a time-out, the host's pace) is no evidence. Null without an RDAP client.
 */
export function registryEvidence(deps: { rdap?: RdapClient | undefined }): RegistryEvidence | null {
  const rdap = deps.rdap
  if (!rdap) return null
  return async (name) => {
    if (!rdap.baseFor(name)) return null
    try {
      const found = await rdap.lookupDomain(name)
      return found ? { registrar: found.registrar, iana_id: found.ianaId, abuse_email: found.abuseEmail, created: found.created, expires: found.expires, statuses: found.statuses } : null
    } catch {
      return null
    }
  }
}

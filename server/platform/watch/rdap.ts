/**
 * What watch needs of RDAP (RFC 9083): the sponsoring registrar with its IANA id, the registrar's
 * abuse contact (its nested `abuse` entity), the dates, statuses and nameservers, and which server
 * answered (re-checks are paced per server). The RDAP client is the integration's
 * (`deps.rdap`, server/integrations/rdap); watch reads it through the shape below, written here so
 * the area builds and tests without it, and answers null where the process has no client.
 */
export type RdapFacts = {
  server: string
  registrar: string | null
  iana_id: string | null
  abuse_email: string | null
  registrant: string | null
  registered_at: string | null
  expires_at: string | null
  statuses: string[]
  nameservers: string[]
}

/** The part of the integration's client watch uses (its `RdapClient`). */
export type RdapClientLike = {
  baseFor(name: string): string | null
  lookupDomain(name: string): Promise<{
    registrar: string | null
    ianaId: string | null
    abuseEmail: string | null
    created: string | null
    expires: string | null
    statuses: string[]
    nameservers: string[]
  } | null>
}

export type RdapLookup = {
  /** The RDAP server that answers for a name (its host), for pacing. */
  serverOf(name: string): string
  /** The name's facts, or null when RDAP has no answer (not found, no server for its TLD, a failure). */
  lookup(name: string): Promise<RdapFacts | null>
}

export type WithRdap = { rdap?: RdapClientLike | undefined }

const hostOf = (base: string | null) => {
  try {
    return base ? new URL(base).host : 'none'
  } catch {
    return 'none'
  }
}

/** The process's RDAP client as watch reads it, or null without one. */
export function rdapOf(deps: WithRdap): RdapLookup | null {
  const client = deps.rdap
  if (!client) return null
  return {
    serverOf: (name) => hostOf(client.baseFor(name)),
    async lookup(name) {
      const base = client.baseFor(name)
      if (!base) return null
      const found = await client.lookupDomain(name).catch(() => null)
      if (!found) return null
      return {
        server: hostOf(base),
        registrar: found.registrar,
        iana_id: found.ianaId,
        abuse_email: found.abuseEmail,
        registrant: null,
        registered_at: found.created,
        expires_at: found.expires,
        statuses: found.statuses,
        nameservers: found.nameservers,
      }
    },
  }
}

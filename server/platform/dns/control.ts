import { randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Tx } from '#server/platform/core/change.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { outboundOf, type Outbound } from '#server/platform/core/outbound.ts'
import { foreignLiveDomains, liveDomains, liveDomainsNamed } from '#server/platform/domains/reads.ts'

/**
 * Whose a name is (issue 26). PowerDNS serves one namespace and answers from the most specific
 * zone it has, so a zone for `www.example.com` answers for that name whoever holds example.com.
 * A zone is therefore made only for a name the account controls — a domain of its portfolio or a
 * name under one, a name under one of its own live zones, or a name hosted elsewhere once the
 * account has put the TXT record we name in the name's DNS — and never for a name at, inside or
 * above another account's domain or live zone. Certificates are held to the same rule.
 */

/** The proof's record: `_registrar-portal-challenge.<zone>` TXT with the token the API issued. */
export const PROOF_LABEL = '_registrar-portal-challenge'
export const proofRecordName = (zone: string) => `${PROOF_LABEL}.${zone}`
export const newProofToken = () => `registrar-portal-verification=${randomBytes(18).toString('base64url')}`

/** The name and its parents with at least two labels: `a.b.example.com` → itself, `b.example.com`, `example.com`. */
export function namesAbove(name: string): string[] {
  const labels = name.split('.')
  return labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'))
}

/** A zone is live (served, and holding its name) once control is established. */
export const isLive = (zone: { verified_at: Date | null }) => zone.verified_at !== null

export type Holder = { kind: 'domain' | 'zone'; id: string; account_id: string; name: string }

/**
 * Another account's domains (not deleted) and live zones at the name, above it or below it: any of
 * them makes the name not this account's. `below` may be turned off for a certificate's name, where
 * only what covers the name matters (a wildcard asks for what is below its base too).
 */
export async function foreignHolders(db: Kysely<DB> | Tx, accountId: string, name: string, options: { below?: boolean } = {}): Promise<Holder[]> {
  const above = namesAbove(name)
  const below = options.below ?? true
  const pattern = `%.${name.replace(/[\\%_]/g, (c) => `\\${c}`)}`
  const domains = await foreignLiveDomains(db, accountId, above, below ? pattern : null)
    .select([sql<'domain'>`'domain'`.as('kind'), 'id', 'account_id', 'name'])
    .limit(5)
    .execute()
  const zones = await db
    .selectFrom('dns_zones')
    .select([sql<'zone'>`'zone'`.as('kind'), 'id', 'account_id', 'name'])
    .where('account_id', '<>', accountId)
    .where('verified_at', 'is not', null)
    .where((eb) => (below ? eb.or([eb('name', 'in', above), eb('name', 'like', pattern)]) : eb('name', 'in', above)))
    .limit(5)
    .execute()
  return [...domains, ...zones]
}

/**
 * How the account controls the name without a proof: 'portfolio' when a domain of its portfolio
 * (not deleted) or one of its own live zones is the name or above it; otherwise null.
 */
export async function portfolioCovers(db: Kysely<DB> | Tx, accountId: string, name: string): Promise<boolean> {
  const above = namesAbove(name)
  const domain = await liveDomainsNamed(db, accountId, above).select('id').executeTakeFirst()
  if (domain) return true
  const zone = await db.selectFrom('dns_zones').select('id').where('account_id', '=', accountId).where('verified_at', 'is not', null).where('name', 'in', above).executeTakeFirst()
  return Boolean(zone)
}

/** Serialises the decisions on names (create, verify, attach): two accounts cannot both take overlapping names at once. */
export async function lockNames(tx: Tx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('dns.zone-names'))`.execute(tx)
}

/**
 * The TXT strings published at a name, looked up through the outbound guard's resolver
 * (DNS_RESOLVER, decision 022): the one place a proof of control reaches the DNS. Nothing found, no
 * answer, or no resolver configured is an empty list (the proof is not seen).
 */
export async function lookupTxt(deps: { outbound?: Outbound | undefined }, name: string): Promise<string[]> {
  try {
    return (await outboundOf(deps).resolveTxt(name)).map((chunks) => chunks.join(''))
  } catch {
    return []
  }
}

export type ZoneOverlap = {
  /** The inner name (equal to or under the outer one) and what holds it. */
  inner: Holder
  /** The outer name and what holds it, in another account. */
  outer: Holder
}

/**
 * Every live zone at, inside or above a domain or live zone of another account: what PowerDNS may
 * answer for someone else. Found by each name's parents (an index probe per label), not by
 * comparing every pair. Zones made before issue 26 are the ones that can be here.
 */
export async function findZoneOverlaps(db: Kysely<DB>, limit = 500): Promise<ZoneOverlap[]> {
  const rows = await sql<{
    inner_kind: 'domain' | 'zone'
    inner_id: string
    inner_account: string
    inner_name: string
    outer_kind: 'domain' | 'zone'
    outer_id: string
    outer_account: string
    outer_name: string
  }>`
    WITH held AS (
      SELECT 'zone' AS kind, id, account_id, name FROM dns_zones WHERE verified_at IS NOT NULL
      UNION ALL
      ${liveDomains(db).select([sql<string>`'domain'`.as('kind'), 'id', 'account_id', 'name'])}
    ),
    parents AS (
      SELECT h.*, array_to_string((string_to_array(h.name, '.'))[k:], '.') AS parent
      FROM held h, generate_series(1, array_length(string_to_array(h.name, '.'), 1) - 1) AS k
    )
    SELECT p.kind AS inner_kind, p.id AS inner_id, p.account_id AS inner_account, p.name AS inner_name,
           o.kind AS outer_kind, o.id AS outer_id, o.account_id AS outer_account, o.name AS outer_name
    FROM parents p JOIN held o ON o.name = p.parent AND o.account_id <> p.account_id
    WHERE (p.kind = 'zone' OR o.kind = 'zone') AND NOT (p.name = o.name AND p.kind = 'domain')
    ORDER BY o.name, p.name, o.kind, p.kind
    LIMIT ${limit}`.execute(db)
  return rows.rows.map((r) => ({
    inner: { kind: r.inner_kind, id: r.inner_id, account_id: r.inner_account, name: r.inner_name },
    outer: { kind: r.outer_kind, id: r.outer_id, account_id: r.outer_account, name: r.outer_name },
  }))
}

/** The start check: overlaps are logged for staff (and listed at GET /v1/dns/zone-overlaps). */
export async function reportZoneOverlaps(deps: Pick<PlatformDeps, 'db' | 'logger'>): Promise<ZoneOverlap[]> {
  const overlaps = await findZoneOverlaps(deps.db)
  for (const o of overlaps) {
    deps.logger.warn('dns: a zone overlaps another account', {
      inner: `${o.inner.kind} ${o.inner.name} (account ${o.inner.account_id})`,
      outer: `${o.outer.kind} ${o.outer.name} (account ${o.outer.account_id})`,
    })
  }
  return overlaps
}

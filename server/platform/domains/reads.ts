import { sql, type Kysely } from 'kysely'
import type { DB, DomainStatus } from '#server/db/schema.ts'
import { reachOf, type Scope } from '#server/platform/core/scope.ts'

/**
 * What other areas may read of the domains area's tables (decision 024), and the rules that come
 * with them written once: a domain is live until it is deleted; a scope reaches its account's
 * domains (staff in their own group every account's). Each read takes the caller's executor — the
 * database or the transaction of its `change()` — and the ones that return a query builder let
 * the caller pick the columns, add conditions or embed them in its own statement (one query).
 */
type Db = Kysely<DB>

/** The one state that ends a domain's life in the portfolio: the rule below is written once, here. */
const DELETED = 'deleted' satisfies DomainStatus

/** The live domains: every one not deleted. */
export function liveDomains(db: Db) {
  return db.selectFrom('domains').where('domains.status', '<>', DELETED)
}

/** The same rule as SQL for a list resource's trusted `where` (`alias` is the resource's own name for domains). */
export const liveDomainSql = (alias: string) => `${alias}.status <> '${DELETED}'`

/** The live domains of an account; null is every account (staff in their own group). */
export function liveDomainsOf(db: Db, accountId: string | null) {
  const live = liveDomains(db)
  return accountId === null ? live : live.where('domains.account_id', '=', accountId)
}

/** The live domains a scope reaches (its account, or every account for staff in their own group). */
export function reachableDomains(db: Db, scope: Scope) {
  return liveDomainsOf(db, reachOf(scope))
}

/** The live domains with these ids that the scope reaches, in one query per thousand ids. */
export async function reachableDomainsByIds(db: Db, scope: Scope, ids: string[]) {
  const found: { id: string; name: string; account_id: string; tld: string; status: DomainStatus; expires_at: Date | null }[] = []
  for (let i = 0; i < ids.length; i += 1000) {
    found.push(
      ...(await reachableDomains(db, scope)
        .select(['id', 'name', 'account_id', 'tld', 'status', 'expires_at'])
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute()),
    )
  }
  return found
}

/** The live domain of this name, in whichever account holds it. */
export function liveDomainNamed(db: Db, name: string) {
  return liveDomains(db).where('domains.name', '=', name)
}

/** The live domains of an account at these names (a name and its parents, e.g.). */
export function liveDomainsNamed(db: Db, accountId: string, names: string[]) {
  return liveDomainsOf(db, accountId).where('domains.name', 'in', names)
}

/**
 * Another account's live domains at these names or below `below` (a LIKE pattern of the names
 * under one, or null): what holds a name against an account.
 */
export function foreignLiveDomains(db: Db, accountId: string, names: string[], below: string | null) {
  return liveDomains(db)
    .where('domains.account_id', '<>', accountId)
    .where((eb) => (below === null ? eb('domains.name', 'in', names) : eb.or([eb('domains.name', 'in', names), eb('domains.name', 'like', below)])))
}

/** A domain of the account by id, in any state (the zone of a domain, a contact linked to it). */
export function domainOfAccount(db: Db, accountId: string, id: string) {
  return db.selectFrom('domains').where('domains.id', '=', id).where('domains.account_id', '=', accountId)
}

/** A domain by id, in any state (a job's own domain, already checked when it was queued). */
export function domainById(db: Db, id: string) {
  return db.selectFrom('domains').where('domains.id', '=', id)
}

/** A domain by id carrying at least one of these tags (an API token bound to tags). */
export function domainCarryingTags(db: Db, id: string, tags: string[]) {
  return domainById(db, id).where(sql<boolean>`domains.tags && ${sql.val(tags)}::text[]`)
}

/** The differences with the registry not yet resolved, of an account (null: every account). */
export function openDifferencesOf(db: Db, accountId: string | null) {
  const open = db.selectFrom('domain_differences').where('domain_differences.resolved_at', 'is', null)
  return accountId === null ? open : open.where('domain_differences.account_id', '=', accountId)
}

/** A domain by id in any state, for a membership test against another table's ids (`id IN (…)`). */
export function domainIds(db: Db) {
  return db.selectFrom('domains').select('domains.id')
}

/**
 * The SQL a list resource of another area joins the domains by (its `from`): `JOIN domains <alias>
 * ON <alias>.id = <on>`. `alias` and `on` are the resource's own trusted names, never input.
 */
export const joinDomains = (alias: string, on: string) => `JOIN domains ${alias} ON ${alias}.id = ${on}`

/**
 * How many live domains of an account (null: every account) expire within each window from
 * `today` (`until(days)` is its first day after), and how many of those will not renew on their
 * own: one indexed count for every window.
 */
export async function expiringCounts(db: Db, accountId: string | null, today: Date, windows: readonly number[], until: (days: number) => Date) {
  const row = (await liveDomainsOf(db, accountId)
    .select(
      windows.flatMap((days) => [
        sql<string>`count(*) FILTER (WHERE expires_at < ${until(days)})`.as(`total_${days}`),
        sql<string>`count(*) FILTER (WHERE expires_at < ${until(days)} AND NOT auto_renew)`.as(`off_${days}`),
      ]),
    )
    .where('domains.expires_at', '>=', today)
    .where('domains.expires_at', '<', until(Math.max(...windows)))
    .executeTakeFirstOrThrow()) as Record<string, string>
  return windows.map((days) => ({ days, total: Number(row[`total_${days}`]), auto_renew_off: Number(row[`off_${days}`]) }))
}

/** How many differences with the registry are open in an account (null: every account). */
export async function openDifferenceCount(db: Db, accountId: string | null): Promise<number> {
  return Number(
    (
      await openDifferencesOf(db, accountId)
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
}

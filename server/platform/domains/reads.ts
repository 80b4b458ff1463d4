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
  const found: { id: string; name: string; account_id: string; tld: string; status: DomainStatus; expires_at: Date | null; registry_lock: boolean }[] = []
  for (let i = 0; i < ids.length; i += 1000) {
    found.push(
      ...(await reachableDomains(db, scope)
        .select(['id', 'name', 'account_id', 'tld', 'status', 'expires_at', 'registry_lock'])
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

/** The live domains of an account (null: every account) carrying a tag (null: any), as the domain list's `tags equals` filter selects them. */
export function liveDomainsTagged(db: Db, accountId: string | null, tag: string | null) {
  const live = liveDomainsOf(db, accountId)
  return tag === null ? live : live.where(sql<boolean>`domains.tags && ${sql.val([tag])}::text[]`)
}

/** A count of live domains by one value of one dimension (a status, a TLD, an expiry bucket …). */
export type DomainCount = { key: string; count: number }

/**
 * The portfolio counted by status, TLD, registrar lock (the registry reporting the registrar's
 * transfer lock), registry lock, auto-renew, DNSSEC, expiry bucket and tag, for an account (null:
 * every account) and optionally one tag: two statements, one pass over the domains with grouping
 * sets and one over their tags. `buckets` are `[key, until]` in order (the first bucket is before
 * its `until`, the last, `until` null, is the rest): the caller's days, so its list links agree.
 */
export async function domainBreakdown(
  db: Db,
  accountId: string | null,
  options: { tag: string | null; registrarLockStatus: string; buckets: readonly (readonly [string, Date | null])[]; tagsNamed: number },
) {
  const live = liveDomainsTagged(db, accountId, options.tag)
  const bucket = sql<string | null>`CASE WHEN domains.expires_at IS NULL THEN NULL ${sql.join(
    options.buckets.map(([key, until]) => (until === null ? sql`ELSE ${key}` : sql`WHEN domains.expires_at < ${until} THEN ${key}`)),
    sql` `,
  )} END`
  const rows = live.select([
    'domains.status',
    'domains.tld',
    'domains.registry_lock',
    'domains.auto_renew',
    'domains.dnssec',
    sql<boolean>`${options.registrarLockStatus} = ANY(domains.registry_statuses)`.as('registrar_lock'),
    bucket.as('expiry'),
  ])
  const dimensions = ['status', 'tld', 'registrar_lock', 'registry_lock', 'auto_renew', 'dnssec', 'expiry'] as const
  const [grouped, tags] = await Promise.all([
    db
      .selectFrom(rows.as('d'))
      .select([
        sql<string | null>`coalesce(d.status::text, d.tld, d.registrar_lock::text, d.registry_lock::text, d.auto_renew::text, d.dnssec::text, d.expiry)`.as('key'),
        sql<number>`GROUPING(d.status, d.tld, d.registrar_lock, d.registry_lock, d.auto_renew, d.dnssec, d.expiry)`.as('grouping'),
        sql<string>`count(*)`.as('n'),
      ])
      .groupBy(sql`GROUPING SETS ((d.status), (d.tld), (d.registrar_lock), (d.registry_lock), (d.auto_renew), (d.dnssec), (d.expiry), ())`)
      .execute(),
    db
      .selectFrom(live.select(sql<string>`unnest(domains.tags)`.as('tag')).as('t'))
      .select(['t.tag', sql<string>`count(*)`.as('n')])
      .groupBy('t.tag')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('t.tag')
      .limit(options.tagsNamed)
      .execute(),
  ])
  const by = Object.fromEntries([...dimensions, 'tag'].map((d) => [d, [] as DomainCount[]])) as Record<(typeof dimensions)[number] | 'tag', DomainCount[]>
  let total = 0
  for (const row of grouped) {
    // GROUPING's bits: 1 for each column left out of the set, the first column the highest bit.
    const grouping = Number(row.grouping)
    if (grouping === (1 << dimensions.length) - 1) {
      total = Number(row.n)
      continue
    }
    const dimension = dimensions[dimensions.findIndex((_, i) => (grouping & (1 << (dimensions.length - 1 - i))) === 0)]!
    // A domain without an expiry date (a registration under way) is in no bucket.
    if (row.key !== null) by[dimension].push({ key: row.key, count: Number(row.n) })
  }
  for (const list of Object.values(by)) list.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
  by.tag = tags.map((t) => ({ key: t.tag, count: Number(t.n) }))
  return { total, by }
}

/**
 * The live domains of an account (null: every account), optionally of one tag, expiring in
 * `[from, until)`: counted by account, TLD, month of expiry (YYYY-MM, UTC) and auto-renew (what the
 * renewals forecast prices), and by tag (the `tagsNamed` most used) — two indexed statements.
 */
export async function renewalsDue(db: Db, accountId: string | null, tag: string | null, from: Date, until: Date, tagsNamed: number) {
  const due = liveDomainsTagged(db, accountId, tag).where('domains.expires_at', '>=', from).where('domains.expires_at', '<', until)
  const [groups, tags] = await Promise.all([
    due
      .select(['domains.account_id', 'domains.tld', 'domains.auto_renew', sql<string>`to_char(domains.expires_at AT TIME ZONE 'UTC', 'YYYY-MM')`.as('month'), sql<string>`count(*)`.as('n')])
      .groupBy(['domains.account_id', 'domains.tld', 'domains.auto_renew', sql`4`])
      .execute(),
    db
      .selectFrom(due.select(sql<string>`unnest(domains.tags)`.as('tag')).as('t'))
      .select(['t.tag', sql<string>`count(*)`.as('n')])
      .groupBy('t.tag')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('t.tag')
      .limit(tagsNamed)
      .execute(),
  ])
  return {
    groups: groups.map((g) => ({ account_id: g.account_id, tld: g.tld, auto_renew: g.auto_renew, month: g.month, count: Number(g.n) })),
    tags: tags.map((t) => ({ key: t.tag, count: Number(t.n) })),
  }
}

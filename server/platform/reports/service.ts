import { REGISTRAR_LOCK_STATUS } from '#common/vocabulary.ts'
import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { forbidden } from '#server/platform/core/errors.ts'
import { can, isStaff, reachOf, type Scope } from '#server/platform/core/scope.ts'
import { accountsByIds, joinAccounts } from '#server/platform/accounts/reads.ts'
import { auditResource, readableAreas } from '#server/platform/audit/http.ts'
import { recordsResource } from '#server/platform/dns/http.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { REPORT_RECORDS_LIST, REPORT_ZONES_LIST } from '#common/lists/reports.ts'
import { activityBreakdown } from '#server/platform/audit/reads.ts'
import { addressedNames, dnsPosture, recordsOf, ZONE_POSTURE_SQL, zonesFrom, zonesOf } from '#server/platform/dns/reads.ts'
import { domainBreakdown, liveDomainsTagged, openDifferencesOf, renewalsDue, type DomainCount } from '#server/platform/domains/reads.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { certificateBreakdown, uncoveredHosts } from '#server/platform/ssl/reads.ts'
import { ZONE_DNSSEC_STATES, ZONE_PUBLISH_STATES } from '#common/lists/dns.ts'
import {
  activityFrom,
  bucketDays,
  DMARC_POSTURES,
  DRIFT_STATES,
  EXPIRY_BUCKETS,
  forecastMonths,
  OPERATIONS_DAYS,
  pastMonths,
  REPORT_SECTIONS,
  REVENUE_MONTHS,
  SPF_POSTURES,
  STALE_DAYS,
  TTL_BUCKETS,
  weekOf,
  type DomainDimension,
  type Figure,
  type FigureReport,
  type FigureSection,
} from '#common/reports.ts'
import { SSL_STATES } from '#common/ssl.ts'
import { ORDER_STATES } from '#common/lists/orders.ts'
import { DIFFERENCE_FIELDS } from '#common/lists/domains.ts'
import { ordersByState } from '#server/platform/orders/reads.ts'
import { failedJobsByQueue } from '#server/platform/jobs/reads.ts'
import { billingEntitiesByIds, settledByMonth } from '#server/platform/billing/reads.ts'

/** How many tags the domains report names (the most used first). */
export const TAGS_NAMED = 50

/** The filters every report takes (in the URL): one tag. Staff choose the account by the request's context. */
export type ReportFilters = { tag: string | null }

export type DomainsReport = {
  /** The day the expiry buckets count from (UTC, YYYY-MM-DD). */
  today: string
  generated_at: string
  filters: ReportFilters
  /** Every live domain the report covers. */
  total: number
  by: Record<DomainDimension, DomainCount[]>
}

const dayOf = (now: Date) => now.toISOString().slice(0, 10)

/**
 * The domains report (issue 29): the portfolio the scope reaches (every account for staff in their
 * own group), counted by each dimension — the domains area's one aggregate read. Each figure is
 * the total of the domain list filtered by `domainFigureFilters` (common/reports.ts).
 */
export async function domainsReport(db: Kysely<DB>, scope: Scope, now: Date, filters: ReportFilters): Promise<DomainsReport> {
  const today = dayOf(now)
  const buckets = EXPIRY_BUCKETS.map((bucket) => {
    const { until } = bucketDays(bucket, today)
    return [bucket, until === null ? null : new Date(`${until}T00:00:00Z`)] as const
  })
  const { total, by } = await domainBreakdown(db, reachOf(scope), { tag: filters.tag, registrarLockStatus: REGISTRAR_LOCK_STATUS, buckets, tagsNamed: TAGS_NAMED })
  // Buckets in their own order (past first), not by count.
  by.expiry.sort((a, b) => EXPIRY_BUCKETS.indexOf(a.key as never) - EXPIRY_BUCKETS.indexOf(b.key as never))
  return { today, generated_at: now.toISOString(), filters, total, by }
}

/** How many DNS records the record report covers: every record the scope reaches (every account's for staff in their own group). */
export async function dnsRecordCount(db: Kysely<DB>, scope: Scope): Promise<number> {
  return Number(
    (
      await recordsOf(db, reachOf(scope))
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
}

export type ReportsIndex = {
  generated_at: string
  filters: ReportFilters
  /** Each report's headline figure, null when the actor may not read it. */
  domains: { total: number } | null
  dns_records: { total: number } | null
  dns: { total: number } | null
  ssls: { total: number } | null
  renewals_forecast: { total: number } | null
  portfolio_activity: { total: number } | null
  /** Staff: the orders of the last OPERATIONS_DAYS days. */
  operations: { total: number } | null
}

const countOf = async (query: { select: (s: never) => { executeTakeFirstOrThrow: () => Promise<{ n: string }> } }) =>
  Number((await query.select(sql<string>`count(*)`.as('n') as never).executeTakeFirstOrThrow()).n)

/** The reports index: each report's headline for the filters, only those the actor may read (403 when none). */
export async function reportsIndex(db: Kysely<DB>, scope: Scope, now: Date, filters: ReportFilters): Promise<ReportsIndex> {
  const domains = can(scope.actor, 'domain-viewer')
  const dns = can(scope.actor, 'dns-viewer')
  const ssl = can(scope.actor, 'ssl-viewer')
  if (!domains && !dns && !ssl) throw forbidden('Reports need domain-viewer, dns-viewer or ssl-viewer')
  const reach = reachOf(scope)
  const today = dayOf(now)
  const [y, m] = today.split('-').map(Number)
  const total = (n: number | null) => (n === null ? null : { total: n })
  const [domainTotal, records, zones, certificates, renewing, activity] = await Promise.all([
    domains ? domainBreakdownTotal(db, scope, filters) : null,
    dns ? dnsRecordCount(db, scope) : null,
    dns ? countOf(zonesOf(db, reach) as never) : null,
    ssl ? certificateBreakdown(db, reach).then((rows) => rows.find((r) => r.dim === '')?.count ?? 0) : null,
    domains
      ? countOf(
          liveDomainsTagged(db, reach, filters.tag)
            .where('domains.expires_at', '>=', new Date(`${today}T00:00:00Z`))
            .where('domains.expires_at', '<', new Date(Date.UTC(y!, m! - 1 + 12, 1))) as never,
        )
      : null,
    activityReport(db, scope, now, 30).then((r) => r.total),
  ])
  const operations = isStaff(scope.actor) ? (await recentOrders(db, reach, today)).reduce((n, r) => n + r.count, 0) : null
  return {
    generated_at: now.toISOString(),
    filters,
    domains: total(domainTotal),
    dns_records: total(records),
    dns: total(zones),
    ssls: total(certificates),
    renewals_forecast: total(renewing),
    portfolio_activity: total(activity),
    operations: total(operations),
  }
}

async function domainBreakdownTotal(db: Kysely<DB>, scope: Scope, filters: ReportFilters) {
  return Number(
    (
      await liveDomainsTagged(db, reachOf(scope), filters.tag)
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )
}

/* --- The figure reports (issue 29): DNS, SSL, renewals forecast, portfolio activity ------------- */

/** What every figure report answers: the day it counts from, its filters, its total and its sections in order. */
export type SectionsReport = {
  today: string
  generated_at: string
  filters: { tag: string | null; days: number | null; months: number | null }
  total: number
  sections: FigureSection[]
  /** SSL: the hosted names that answer an address but no valid certificate of ours covers (the first named). */
  gap: { count: number; named: string[] } | null
  /** Forecast: every renewal priced, totalled per currency; how many renewals no price could be found for. */
  totals: { currency: string; minor: number }[] | null
  unpriced: number | null
}

/** The forecast's figure of the accounts that name no billing entity yet. */
const NO_PAYER = 'none'

/** How many names the SSL report's gap names, and how many actors the activity report names. */
const GAP_NAMED = 50
const ACTORS_NAMED = 12

/** Counts `{ dim, key, count }` into the report's sections in order (each largest first unless `ordered`); the `''` row is the total. */
function sectionsOf(report: FigureReport, rows: { dim: string; key: string; count: number }[], ordered: Partial<Record<string, readonly string[]>> = {}) {
  const total = rows.find((r) => r.dim === '')?.count ?? 0
  const sections: FigureSection[] = REPORT_SECTIONS[report].map((key) => {
    const figures = rows.filter((r) => r.dim === key && r.key !== null).map((r) => ({ key: r.key, count: r.count }))
    const order = ordered[key]
    figures.sort((a, b) => (order ? order.indexOf(a.key) - order.indexOf(b.key) : b.count - a.count || a.key.localeCompare(b.key)))
    return { key, figures }
  })
  return { total, sections }
}

const base = (now: Date, filters: Partial<SectionsReport['filters']>) => ({
  today: dayOf(now),
  generated_at: now.toISOString(),
  filters: { tag: null, days: null, months: null, ...filters },
  gap: null,
  totals: null,
  unpriced: null,
})

/** /reports/dns: zones by publishing, DNSSEC, drift and mail/certificate posture, staleness; records by type and TTL. */
export async function dnsReport(db: Kysely<DB>, scope: Scope, now: Date): Promise<SectionsReport> {
  const staleBefore = new Date(`${addDaysTo(dayOf(now), -STALE_DAYS)}T00:00:00Z`)
  const rows = await dnsPosture(db, reachOf(scope), staleBefore)
  // Record rows carry no total of their own: the zones' is the report's.
  const { total, sections } = sectionsOf('dns', rows, {
    publish_state: ZONE_PUBLISH_STATES,
    dnssec_state: ZONE_DNSSEC_STATES,
    drift: DRIFT_STATES,
    spf: SPF_POSTURES,
    dmarc: DMARC_POSTURES,
    caa: ['true', 'false'],
    mx: ['true', 'false'],
    stale: ['stale', 'recent'],
    ttl: TTL_BUCKETS.map((b) => b[0]),
  })
  return { ...base(now, {}), total, sections }
}

/** /reports/ssls: certificates by state, CA, key type and expiry month, the failed renewals, and the hosted names no certificate covers. */
export async function sslsReport(db: Kysely<DB>, scope: Scope, now: Date): Promise<SectionsReport> {
  const reach = reachOf(scope)
  const [rows, gap] = await Promise.all([certificateBreakdown(db, reach), can(scope.actor, 'dns-viewer') ? uncoveredHosts(db, addressedNames(db, reach), GAP_NAMED) : null])
  const { total, sections } = sectionsOf('ssls', rows, { status: SSL_STATES })
  // Every month from this one to the last certificate's (at least a year), a month without one as a zero.
  const expiry = sections.find((s) => s.key === 'expiry_month')!
  const counted = new Map(expiry.figures.map((f) => [f.key, f.count]))
  const today = dayOf(now)
  const last = [...counted.keys()].sort().at(-1) ?? today.slice(0, 7)
  const span = (Number(last.slice(0, 4)) - Number(today.slice(0, 4))) * 12 + Number(last.slice(5, 7)) - Number(today.slice(5, 7)) + 1
  const months = forecastMonths(today, Math.min(Math.max(span, 12), 60))
  expiry.figures = [...months.map((key) => ({ key, count: counted.get(key) ?? 0 })), ...expiry.figures.filter((f) => !months.includes(f.key)).sort((a, b) => a.key.localeCompare(b.key))]
  return { ...base(now, {}), total, sections, gap: gap ? { count: gap.count, named: gap.named.map((n) => n.name) } : null }
}

/**
 * /reports/renewals-forecast: the domains that renew in each of the next `months` months (this one
 * from today), each priced by the pricing engine as the cart would quote a one-year renewal on the
 * month's first day (today for this month) in its account's currency; auto-renew off apart, by TLD
 * and by tag, totals per currency.
 */
export async function forecastReport(db: Kysely<DB>, scope: Scope, now: Date, filters: ReportFilters, months: number): Promise<SectionsReport> {
  const today = dayOf(now)
  const list = forecastMonths(today, months)
  const [y, m] = today.split('-').map(Number)
  const until = new Date(Date.UTC(y!, m! - 1 + months, 1))
  const { groups, tags } = await renewalsDue(db, reachOf(scope), filters.tag, new Date(`${today}T00:00:00Z`), until, TAGS_NAMED)
  // Who pays for each account (its billing entity, by name): the forecast per payer.
  const accountIds = [...new Set(groups.map((g) => g.account_id))]
  const payers = new Map(
    (await accountsByIds(db, accountIds).select(['accounts.id', 'accounts.billing_entity_id']).execute()).flatMap((a) => (a.billing_entity_id ? [[a.id, a.billing_entity_id] as const] : [])),
  )
  const payerNames = new Map(
    (
      await billingEntitiesByIds(db, [...new Set(payers.values())])
        .select(['billing_entities.id', 'billing_entities.name'])
        .execute()
    ).map((b) => [b.id, b.name]),
  )
  // One quoter per account (its price list read once), each month priced on its own day.
  const priced = new Map<string, { currency: string; minor: number } | null>()
  for (const accountId of accountIds) {
    const quoter = await accountQuoter(db, accountId, now)
    for (const g of groups.filter((x) => x.account_id === accountId)) {
      const key = `${accountId}|${g.tld}|${g.month}`
      if (priced.has(key)) continue
      const on = g.month === today.slice(0, 7) ? now : new Date(`${g.month}-01T00:00:00Z`)
      const quote = await quoter.quote([{ tld: g.tld, action: 'renew', period: 1 }], on).then(
        (q) => q[0] ?? null,
        () => null,
      )
      priced.set(key, quote ? { currency: quote.currency, minor: quote.total_minor } : null)
    }
  }
  const add = (into: Map<string, Figure>, key: string, count: number, price: { currency: string; minor: number } | null) => {
    const f = into.get(key) ?? { key, count: 0, amounts: [] }
    f.count += count
    if (price) {
      const amount = f.amounts!.find((a) => a.currency === price.currency)
      if (amount) amount.minor += price.minor * count
      else f.amounts!.push({ currency: price.currency, minor: price.minor * count })
    }
    into.set(key, f)
  }
  const byMonth = new Map(list.map((month) => [month, { key: month, count: 0, amounts: [] } as Figure]))
  const offByMonth = new Map(list.map((month) => [month, { key: month, count: 0, amounts: [] } as Figure]))
  const byTld = new Map<string, Figure>()
  const byPayer = new Map<string, Figure>()
  const totals = new Map<string, Figure>()
  let unpriced = 0
  let total = 0
  for (const g of groups) {
    const price = priced.get(`${g.account_id}|${g.tld}|${g.month}`) ?? null
    if (!price) unpriced += g.count
    total += g.count
    add(byMonth, g.month, g.count, price)
    if (!g.auto_renew) add(offByMonth, g.month, g.count, price)
    add(byTld, g.tld, g.count, price)
    add(byPayer, payers.get(g.account_id) ?? NO_PAYER, g.count, price)
    add(totals, 'all', g.count, price)
  }
  for (const figure of byPayer.values()) if (figure.key !== NO_PAYER) figure.label = payerNames.get(figure.key) ?? figure.key
  const sections: FigureSection[] = [
    { key: 'month', figures: [...byMonth.values()] },
    { key: 'auto_renew_off', figures: [...offByMonth.values()] },
    { key: 'tld', figures: [...byTld.values()].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)) },
    { key: 'tag', figures: tags },
    { key: 'billing_entity', figures: [...byPayer.values()].sort((a, b) => b.count - a.count || (a.label ?? a.key).localeCompare(b.label ?? b.key)) },
  ]
  return { ...base(now, { tag: filters.tag, months }), total, sections, totals: totals.get('all')?.amounts ?? [], unpriced }
}

/** The orders of the operations report's period (OPERATIONS_DAYS days to `today`) by state: its figures and the index's headline. */
const recentOrders = (db: Kysely<DB>, reach: string | null, today: string) => ordersByState(db, reach, new Date(`${activityFrom(today, OPERATIONS_DAYS)}T00:00:00Z`))

/**
 * /reports/operations (staff): the registrar desk's figures over the accounts in reach — the orders of
 * the last OPERATIONS_DAYS days by state (the headline: how many), the open differences with the
 * registries by field, the charges settled in each of the last REVENUE_MONTHS months with their
 * amounts per currency (the revenue), and the background jobs that failed in the last
 * OPERATIONS_DAYS days by queue (own group only). Each figure is the total of the orders,
 * differences, transactions or failed jobs list filtered by figureTarget.
 */
export async function operationsReport(db: Kysely<DB>, scope: Scope, now: Date): Promise<SectionsReport> {
  const reach = reachOf(scope)
  const today = dayOf(now)
  const months = pastMonths(today, REVENUE_MONTHS)
  const [orders, differences, revenue, failedJobs] = await Promise.all([
    recentOrders(db, reach, today),
    openDifferencesOf(db, reach)
      .select(['domain_differences.field', sql<string>`count(*)`.as('n')])
      .groupBy('domain_differences.field')
      .execute(),
    settledByMonth(db, reach, new Date(`${months[0]}-01T00:00:00Z`)),
    // The jobs are the registrar's, no account's: counted in staff's own group only (their list refuses a client's context).
    reach === null ? failedJobsByQueue(db, new Date(`${activityFrom(today, OPERATIONS_DAYS)}T00:00:00Z`)) : [],
  ])
  const byMonth = new Map(months.map((key) => [key, { key, count: 0, amounts: [] } as Figure]))
  const totals = new Map<string, number>()
  for (const row of revenue) {
    const figure = byMonth.get(row.month)
    if (!figure) continue
    figure.count += row.count
    figure.amounts!.push({ currency: row.currency, minor: row.minor })
    totals.set(row.currency, (totals.get(row.currency) ?? 0) + row.minor)
  }
  const ordered = <K extends string>(keys: readonly K[], rows: { key: string; count: number }[]) => rows.filter((r) => r.count > 0).sort((a, b) => keys.indexOf(a.key as K) - keys.indexOf(b.key as K))
  const sections: FigureSection[] = [
    {
      key: 'order_state',
      figures: ordered(
        ORDER_STATES,
        orders.map((r) => ({ key: r.state, count: r.count })),
      ),
    },
    {
      key: 'difference',
      figures: ordered(
        DIFFERENCE_FIELDS,
        differences.map((r) => ({ key: r.field, count: Number(r.n) })),
      ),
    },
    { key: 'revenue_month', figures: [...byMonth.values()] },
    { key: 'failed_job', figures: failedJobs.map((r) => ({ key: r.queue, count: r.count })) },
  ]
  return {
    ...base(now, { days: OPERATIONS_DAYS, months: REVENUE_MONTHS }),
    total: orders.reduce((n, r) => n + r.count, 0),
    sections,
    totals: [...totals].map(([currency, minor]) => ({ currency, minor })).sort((a, b) => a.currency.localeCompare(b.currency)),
  }
}

/** /reports/portfolio-activity: what changed in the last `days` days from the audit trail the actor may read, per week, kind and actor. */
export async function activityReport(db: Kysely<DB>, scope: Scope, now: Date, days: number): Promise<SectionsReport> {
  const today = dayOf(now)
  const areas = readableAreas(scope.actor, { filters: [], sort: [], page: 1, limit: 1 } as never)
  const from = new Date(`${activityFrom(today, days)}T00:00:00Z`)
  const until = new Date(`${addDaysTo(today, 1)}T00:00:00Z`)
  const rows = await activityBreakdown(db, reachOf(scope), from, until, areas, ACTORS_NAMED)
  const weeks: string[] = []
  for (let week = weekOf(activityFrom(today, days)); week <= today; week = addDaysTo(week, 7)) weeks.push(week)
  const { total, sections } = sectionsOf('portfolio-activity', rows)
  // Every week of the period, a quiet one as a zero, in order.
  const counted = new Map(sections[0]!.figures.map((f) => [f.key, f.count]))
  sections[0] = { key: 'week', figures: weeks.map((week) => ({ key: week, count: counted.get(week) ?? 0 })) }
  return { ...base(now, { days }), total, sections }
}

const addDaysTo = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** The DNS report's zones with their posture (common/lists/reports.ts): the list each zone figure is the total of. */
export const reportZonesResource = listResource(REPORT_ZONES_LIST, {
  from: `${zonesFrom('z')} ${joinAccounts('a', 'z.account_id')}`,
  tiebreak: 'z.id',
  columns: {
    id: 'z.id',
    name: 'z.name',
    domain_id: 'z.domain_id',
    serial: 'z.serial',
    publish_state: 'z.publish_state',
    last_error: 'z.last_error',
    dnssec_state: 'z.dnssec_state',
    verified: '(z.verified_at IS NOT NULL)',
    updated_at: 'z.updated_at',
    group_id: 'z.account_id',
    'account.name': 'a.name',
    ...ZONE_POSTURE_SQL,
  },
})

/** Each report list over every account (staff in their own group) and narrowed to the context account. */
export const reportZones = { whole: reportZonesResource, scoped: { ...reportZonesResource, accountColumn: 'z.account_id' } }
const reportRecordsResource: ListResource = {
  ...recordsResource,
  name: REPORT_RECORDS_LIST.name,
  from: `${recordsResource.from} ${joinAccounts('a', 'r.account_id')}`,
  fields: {
    ...recordsResource.fields,
    group_id: { ...REPORT_RECORDS_LIST.fields.group_id, column: 'r.account_id' },
    'account.name': { ...REPORT_RECORDS_LIST.fields['account.name'], column: 'a.name' },
  },
}
export const reportRecords = { whole: { ...reportRecordsResource, accountColumn: undefined }, scoped: reportRecordsResource }
export const reportActivity = { whole: { ...auditResource, accountColumn: undefined }, scoped: auditResource }

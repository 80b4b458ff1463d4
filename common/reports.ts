import type { Filter } from './pql.ts'

/**
 * The reports' contract (issue 29): which reports exist, the figures of the domains report, and
 * for each figure the list filter that shows exactly the domains it counts — one definition, read
 * by the API (which counts), the portal (which links) and the tests (which compare the two).
 */

/** The reports built so far, in the index's order. */
export const REPORTS = ['domains', 'dns', 'ssls', 'dns-records', 'renewals-forecast', 'portfolio-activity', 'operations'] as const
export type Report = (typeof REPORTS)[number]

/** Expiry buckets of the domains report, none overlapping: already past, then up to 30, 60, 90 and 365 days from today, then later. */
export const EXPIRY_BUCKETS = ['past', 'd30', 'd60', 'd90', 'd365', 'later'] as const
export type ExpiryBucket = (typeof EXPIRY_BUCKETS)[number]

/** The last day (counted from today, inclusive) of each bucket that has one. */
export const BUCKET_LAST_DAY: Record<Exclude<ExpiryBucket, 'past' | 'later'>, number> = { d30: 30, d60: 60, d90: 90, d365: 365 }

/** What the domains report counts by. */
export const DOMAIN_DIMENSIONS = ['status', 'tld', 'registrar_lock', 'registry_lock', 'auto_renew', 'dnssec', 'expiry', 'tag'] as const
export type DomainDimension = (typeof DOMAIN_DIMENSIONS)[number]

/** A tag as the reports take it: what a domain's tag may be (trimmed, at most 64 characters). */
export const TAG_MAX = 64

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/**
 * The first day of each bucket after `past` and the day after its last, for a report made on
 * `today` (YYYY-MM-DD, UTC): `[from, until)` in whole UTC days.
 */
export function bucketDays(bucket: ExpiryBucket, today: string): { from: string | null; until: string | null } {
  const lastOf = (b: ExpiryBucket) => (b === 'past' ? -1 : b === 'later' ? null : BUCKET_LAST_DAY[b])
  const index = EXPIRY_BUCKETS.indexOf(bucket)
  const previous = index > 0 ? lastOf(EXPIRY_BUCKETS[index - 1]!) : null
  const last = lastOf(bucket)
  return { from: bucket === 'past' ? null : addDays(today, (previous ?? -1) + 1), until: last === null ? null : addDays(today, last + 1) }
}

/**
 * The list filters of the domain list (`/domains`, common/lists/domains.ts) that select exactly
 * the domains one figure counts: the report's own filters (a tag) and the figure's key.
 */
export function domainFigureFilters(dimension: DomainDimension, key: string, today: string, reportFilters: { tag: string | null }): Filter[] {
  const filters: Filter[] = reportFilters.tag ? [{ field: 'tags', operator: 'equals', values: [reportFilters.tag] }] : []
  switch (dimension) {
    case 'status':
    case 'tld':
    case 'registrar_lock':
    case 'registry_lock':
    case 'auto_renew':
    case 'dnssec':
      return [...filters, { field: dimension, operator: 'equals', values: [key] }]
    case 'tag':
      return [...filters, { field: 'tags', operator: 'equals', values: [key] }]
    case 'expiry': {
      const { from, until } = bucketDays(key as ExpiryBucket, today)
      // Date-only values on a timestamp are whole UTC days: `between` runs to the end of its second day.
      if (from === null) return [...filters, { field: 'expires_at', operator: 'less_than', values: [until!] }]
      if (until === null) return [...filters, { field: 'expires_at', operator: 'greater_than_and_including', values: [from] }]
      return [...filters, { field: 'expires_at', operator: 'between', values: [from, addDays(until, -1)] }]
    }
  }
}

/* ---------------------------------------------------------------------------------------------
 * The figure reports after the domains report (/reports/dns, /reports/ssls,
 * /reports/renewals-forecast, /reports/portfolio-activity): one answer's shape for all of them —
 * sections of figures, each figure a count (and, for the forecast, its amounts per currency) —
 * and for each figure the list, with its filters, that shows exactly what it counts.
 * ------------------------------------------------------------------------------------------- */

/** The reports made of figure sections (the domains report keeps its own `by` answer). */
export const FIGURE_REPORTS = ['dns', 'ssls', 'renewals-forecast', 'portfolio-activity', 'operations'] as const
export type FigureReport = (typeof FIGURE_REPORTS)[number]

/**
 * A figure: its key within its section, the count, for money the amounts per currency (minor
 * units), and the name of what the key identifies when it is an id (a billing entity's).
 */
export type Figure = { key: string; count: number; amounts?: { currency: string; minor: number }[]; label?: string }
export type FigureSection = { key: string; figures: Figure[] }

/** The sections of each report, in the page's order. */
export const REPORT_SECTIONS = {
  dns: ['publish_state', 'dnssec_state', 'drift', 'spf', 'dmarc', 'caa', 'caa_issuer', 'mx', 'stale', 'record_type', 'ttl'],
  ssls: ['status', 'ca', 'key_type', 'expiry_month', 'failed_renewal'],
  'renewals-forecast': ['month', 'auto_renew_off', 'tld', 'tag', 'billing_entity'],
  'portfolio-activity': ['week', 'kind', 'actor'],
  operations: ['order_state', 'difference', 'revenue_month', 'failed_job'],
} as const satisfies Record<FigureReport, readonly string[]>

/** The zone posture values the DNS report and its zone list share (SPF's `all`, DMARC's policy, drift). */
export const SPF_POSTURES = ['hard', 'soft', 'open', 'missing'] as const
export const DMARC_POSTURES = ['reject', 'quarantine', 'none', 'missing'] as const
export const DRIFT_STATES = ['in_sync', 'drifting', 'unchecked'] as const
/** TTL buckets of the DNS report: up to 5 minutes, an hour, a day, longer. */
export const TTL_BUCKETS = [
  ['le300', 0, 300],
  ['le3600', 301, 3600],
  ['le86400', 3601, 86_400],
  ['gt86400', 86_401, null],
] as const
/** A zone not changed for this many days is stale. */
export const STALE_DAYS = 365

/**
 * The operations report (staff: what the registrar's desk watches): the orders of the last
 * OPERATIONS_DAYS days by state, the open differences with the registries by field, the charges
 * settled in each of the last REVENUE_MONTHS months (this one included) with their amounts, and the
 * background jobs that failed (spent their retries) in the last OPERATIONS_DAYS days by queue.
 */
export const OPERATIONS_DAYS = 30
/** The staff list of failed background jobs, which the operations report's `failed_job` figures open. */
export const FAILED_JOBS_PATH = '/reports/operations/failed-jobs'
export const REVENUE_MONTHS = 12

/** The last `months` months, YYYY-MM, oldest first, ending with today's. */
export function pastMonths(today: string, months: number): string[] {
  const [y, m] = today.split('-').map(Number)
  return Array.from({ length: months }, (_, i) => new Date(Date.UTC(y!, m! - months + i, 1)).toISOString().slice(0, 7))
}

/** The periods of the activity report (days back from today) and the forecast's horizons (months). */
export const ACTIVITY_PERIODS = [7, 30, 90, 365] as const
export const FORECAST_HORIZONS = [12, 24, 36] as const

/** What a figure report's answer carries besides its sections: the day it counts from and its own filters. */
export type FigureContext = { today: string; filters: { tag: string | null; days?: number | null; months?: number | null } }

/** The list (its portal path) and the filters that show exactly what one figure counts; null when no list shows it. */
export type FigureTarget = { path: string; filters: Filter[] } | null

const monthBounds = (month: string) => {
  const [y, m] = month.split('-').map(Number)
  const first = `${month}-01`
  const last = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10)
  return [first, last] as const
}

/** The first day of the week (Monday, UTC) a day falls in. */
export const weekOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7))

/** The first day of the activity report's period. */
export const activityFrom = (today: string, days: number) => addDays(today, -(days - 1))

export function figureTarget(report: FigureReport, section: string, key: string, ctx: FigureContext): FigureTarget {
  const tagged: Filter[] = ctx.filters.tag ? [{ field: 'tags', operator: 'equals', values: [ctx.filters.tag] }] : []
  switch (report) {
    case 'dns': {
      if (section === 'record_type') return { path: '/reports/dns-records', filters: [{ field: 'type', operator: 'equals', values: [key] }] }
      if (section === 'ttl') {
        const [, from, to] = TTL_BUCKETS.find((b) => b[0] === key) ?? TTL_BUCKETS[0]
        return {
          path: '/reports/dns-records',
          filters: [to === null ? { field: 'ttl', operator: 'greater_than_and_including', values: [String(from)] } : { field: 'ttl', operator: 'between', values: [String(from), String(to)] }],
        }
      }
      if (section === 'stale') {
        const cut = addDays(ctx.today, -STALE_DAYS)
        return { path: '/reports/dns', filters: [{ field: 'updated_at', operator: key === 'stale' ? 'less_than' : 'greater_than_and_including', values: [cut] }] }
      }
      if (section === 'caa_issuer') return { path: '/reports/dns', filters: [{ field: 'caa_issuers', operator: 'contains', values: [key] }] }
      return { path: '/reports/dns', filters: [{ field: section, operator: 'equals', values: [key] }] }
    }
    case 'ssls': {
      if (section === 'expiry_month') {
        const [first, last] = monthBounds(key)
        return { path: '/ssls', filters: [{ field: 'not_after', operator: 'between', values: [first, last] }] }
      }
      if (section === 'failed_renewal')
        return {
          path: '/ssls',
          filters: [
            { field: 'status', operator: 'equals', values: ['failed'] },
            { field: 'origin', operator: 'equals', values: ['renewal'] },
          ],
        }
      return { path: '/ssls', filters: [{ field: section, operator: 'equals', values: [key] }] }
    }
    case 'renewals-forecast': {
      if (section === 'tld') return { path: '/domains', filters: [...tagged, { field: 'tld', operator: 'equals', values: [key] }, ...forecastWindow(ctx)] }
      if (section === 'tag') return { path: '/domains', filters: [...tagged, { field: 'tags', operator: 'equals', values: [key] }, ...forecastWindow(ctx)] }
      // Accounts that name no payer yet have no filter of their own: their figure opens nothing.
      if (section === 'billing_entity')
        return key === 'none' ? null : { path: '/domains', filters: [...tagged, { field: 'billing_entity', operator: 'equals', values: [key] }, ...forecastWindow(ctx)] }
      const [first, last] = monthBounds(key)
      const month: Filter = { field: 'expires_at', operator: 'between', values: [first < ctx.today ? ctx.today : first, last] }
      return { path: '/domains', filters: [...tagged, month, ...(section === 'auto_renew_off' ? [{ field: 'auto_renew', operator: 'equals', values: ['false'] } satisfies Filter] : [])] }
    }
    case 'portfolio-activity': {
      const period: Filter = { field: 'created_at', operator: 'between', values: [activityFrom(ctx.today, ctx.filters.days ?? 30), ctx.today] }
      if (section === 'week') {
        const from = key < period.values[0]! ? period.values[0]! : key
        const to = addDays(key, 6) > ctx.today ? ctx.today : addDays(key, 6)
        return { path: '/reports/portfolio-activity', filters: [{ field: 'created_at', operator: 'between', values: [from, to] }] }
      }
      if (section === 'kind') {
        const [area, ...action] = key.split('.')
        return { path: '/reports/portfolio-activity', filters: [period, { field: 'area', operator: 'equals', values: [area!] }, { field: 'action', operator: 'equals', values: [action.join('.')] }] }
      }
      return { path: '/reports/portfolio-activity', filters: [period, { field: 'actor_label', operator: 'equals', values: [key] }] }
    }
    case 'operations': {
      if (section === 'order_state')
        return {
          path: '/domains/orders',
          filters: [
            { field: 'state', operator: 'equals', values: [key] },
            { field: 'created_at', operator: 'between', values: [activityFrom(ctx.today, OPERATIONS_DAYS), ctx.today] },
          ],
        }
      if (section === 'difference') return { path: '/domains/reconciliation', filters: [{ field: 'field', operator: 'equals', values: [key] }] }
      if (section === 'failed_job')
        return {
          path: FAILED_JOBS_PATH,
          filters: [
            { field: 'queue', operator: 'equals', values: [key] },
            { field: 'failed_at', operator: 'between', values: [activityFrom(ctx.today, OPERATIONS_DAYS), ctx.today] },
          ],
        }
      const [first, last] = monthBounds(key)
      return {
        path: '/invoicing/transactions',
        filters: [
          { field: 'state', operator: 'equals', values: ['settled'] },
          { field: 'settled_at', operator: 'between', values: [first, last] },
        ],
      }
    }
  }
}

/** The forecast's whole window as a filter: today to the last day of its last month. */
function forecastWindow(ctx: FigureContext): Filter[] {
  const months = ctx.filters.months ?? 12
  const [y, m] = ctx.today.split('-').map(Number)
  const last = new Date(Date.UTC(y!, m! - 1 + months, 0)).toISOString().slice(0, 10)
  return [{ field: 'expires_at', operator: 'between', values: [ctx.today, last] }]
}

/** The months of the forecast, YYYY-MM, from today's month on. */
export function forecastMonths(today: string, months: number): string[] {
  const [y, m] = today.split('-').map(Number)
  return Array.from({ length: months }, (_, i) => new Date(Date.UTC(y!, m! - 1 + i, 1)).toISOString().slice(0, 7))
}

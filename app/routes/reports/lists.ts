import { columnsOf, auditList, type ListDefinition } from '#app/lib/lists.ts'
import { REPORT_RECORDS_LIST, REPORT_ZONES_LIST } from '#common/lists/reports.ts'
import { FAILED_JOBS_LIST } from '#common/lists/jobs.ts'
import type { FigureReport } from '#common/reports.ts'
import { dnsRecordsList } from '#app/routes/domains/dns/lists.ts'

const reportPath = (path: string) => (groupContext: string) => `/groups/${encodeURIComponent(groupContext)}/reports/${path}`

/**
 * /reports/dns-records: every record of every zone in reach (every account's for staff in their own
 * group), the record search's fields and filters (TTL filterable, as the DNS report's TTL figures
 * link to it), exported and printed as a report.
 */
export const reportDnsRecordsList: ListDefinition = {
  ...dnsRecordsList,
  id: 'report-dns-records',
  apiPath: reportPath('dns-records'),
  columns: columnsOf(REPORT_RECORDS_LIST, { 'zone.name': true, 'account.name': false, name: true, type: true, ttl: true, content: true, updated_at: false }),
  trayType: null,
}

/** /reports/dns: the zones and their posture, the list every zone figure of the report counts. */
export const reportZonesList: ListDefinition = {
  id: 'report-zones',
  apiPath: reportPath('dns/zones'),
  columns: columnsOf(REPORT_ZONES_LIST, {
    name: true,
    'account.name': false,
    publish_state: true,
    dnssec_state: true,
    drift: true,
    spf: true,
    dmarc: true,
    caa: true,
    caa_issuers: false,
    mx: true,
    records: true,
    verified: false,
    updated_at: true,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /reports/portfolio-activity: the audit entries in reach the activity report counts. */
export const reportActivityList: ListDefinition = { ...auditList('report-activity', null), apiPath: reportPath('portfolio-activity/entries'), trayType: null }

/**
 * /reports/operations/failed-jobs (staff, their own group): the background jobs that spent their
 * retries, which the operations report's failed-job figures open, filtered by queue and date. The
 * retries come last: their cell carries the row's Retry.
 */
export const failedJobsList: ListDefinition = {
  id: 'failed-jobs',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/jobs/failed`,
  columns: columnsOf(FAILED_JOBS_LIST, { queue: true, failed_at: true, error: true, data_keys: true, data_ids: true, created_at: false, archived: false, id: false, retries: true }),
  fixedFilters: [],
  defaultSort: '-failed_at',
  trayType: null,
  rowLabel: (row) => `${String(row.queue ?? '')} ${String(row.id ?? '')}`,
}

/** The list behind a figure report's own table (the DNS report's zones, the activity's entries); the other reports link to the area's list. */
export const REPORT_LISTS: Partial<Record<FigureReport, ListDefinition>> = { dns: reportZonesList, 'portfolio-activity': reportActivityList }

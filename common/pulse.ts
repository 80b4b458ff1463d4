import { DOMAIN_DIMENSIONS, REPORT_SECTIONS, TAG_MAX, type FigureReport } from './reports.ts'

/**
 * Pulse (/pulse, issue 29): a dashboard each user arranges from the reports' figures — a report's
 * headline or one of its sections (chart and figures) — ordered and sized on a three-column grid,
 * kept on the server as the user's pulse_configuration (spec §3). One definition of what a widget
 * may be, read by the API (which validates and stores) and the portal (which draws and edits).
 */

/** The reports a widget may show. */
export const PULSE_REPORTS = ['domains', 'dns', 'ssls', 'renewals-forecast', 'portfolio-activity', 'operations'] as const
export type PulseReport = (typeof PULSE_REPORTS)[number]

/** Columns a widget spans on the grid (of three). */
export const PULSE_SIZES = [1, 2, 3] as const
export type PulseSize = (typeof PULSE_SIZES)[number]

/** At most this many widgets. */
export const PULSE_MAX = 12

/** A widget: a report's headline (`section` null) or one of its sections, its size, and the report's filters. */
export type PulseWidget = { report: PulseReport; section: string | null; size: PulseSize; tag: string | null }

/** The sections a widget of each report may show (the report's own sections, or the domains report's dimensions). */
export const pulseSections = (report: PulseReport): readonly string[] => (report === 'domains' ? DOMAIN_DIMENSIONS : REPORT_SECTIONS[report as FigureReport])

/**
 * The dashboard before a user arranges theirs, by role: a client sees expiring domains, zones that
 * fail to publish, certificates expiring and the renewals to pay; staff see the desk's operations
 * (orders by state, failed ones first to the eye; the differences with the registries; the background
 * jobs that failed, by queue; the revenue settled per month), the renewals forecast (the revenue to
 * come) and the zones in trouble.
 */
export function defaultWidgets(staff: boolean): PulseWidget[] {
  const w = (report: PulseReport, section: string | null, size: PulseSize): PulseWidget => ({ report, section, size, tag: null })
  return staff
    ? [
        w('operations', 'order_state', 1),
        w('operations', 'difference', 1),
        w('operations', 'failed_job', 1),
        w('operations', 'revenue_month', 3),
        w('renewals-forecast', 'month', 3),
        w('domains', null, 1),
        w('dns', 'publish_state', 1),
        w('portfolio-activity', null, 1),
      ]
    : [
        w('domains', 'expiry', 1),
        w('dns', 'publish_state', 1),
        w('ssls', 'expiry_month', 1),
        w('renewals-forecast', 'month', 3),
        w('dns', 'spf', 1),
        w('domains', 'auto_renew', 1),
        w('portfolio-activity', null, 1),
      ]
}

/** A widget read from untrusted input (a form, the API's body), or null when it is not one. */
export function readWidget(value: unknown): PulseWidget | null {
  if (!value || typeof value !== 'object') return null
  const v = value as Record<string, unknown>
  const report = v.report as PulseReport
  if (!(PULSE_REPORTS as readonly string[]).includes(report)) return null
  const section = v.section === null || v.section === undefined || v.section === '' ? null : String(v.section)
  if (section !== null && !pulseSections(report).includes(section)) return null
  const size = Number(v.size) as PulseSize
  if (!(PULSE_SIZES as readonly number[]).includes(size)) return null
  const tag = typeof v.tag === 'string' && v.tag.trim() ? v.tag.trim().slice(0, TAG_MAX) : null
  return { report, section, size, tag: report === 'domains' || report === 'renewals-forecast' ? tag : null }
}

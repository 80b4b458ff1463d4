import { randomBytes } from 'node:crypto'
import ExcelJS from 'exceljs'
import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest, forbidden, notFound } from '#server/platform/core/errors.ts'
import { can, type Scope } from '#server/platform/core/scope.ts'
import { linkBase, type PlatformDeps } from '#server/platform/deps.ts'
import { usersByIds } from '#server/platform/users/reads.ts'
import { ACTIVITY_PERIODS, DOMAIN_DIMENSIONS, FORECAST_HORIZONS, TAG_MAX, weekOf } from '#common/reports.ts'
import type { Permission } from '#common/permissions.ts'
import { activityReport, dnsReport, domainsReport, forecastReport, operationsReport, sslsReport } from './service.ts'

/** The reports a person may subscribe to, and what reading each needs (the record report is a list: its export is the list's). */
export const MAILED_REPORTS = ['domains', 'dns', 'ssls', 'renewals-forecast', 'portfolio-activity', 'operations'] as const
export type MailedReport = (typeof MAILED_REPORTS)[number]
export const FREQUENCIES = ['weekly', 'monthly', 'quarterly'] as const
export type Frequency = (typeof FREQUENCIES)[number]
const READ: Record<MailedReport, Permission | null> = {
  domains: 'domain-viewer',
  dns: 'dns-viewer',
  ssls: 'ssl-viewer',
  'renewals-forecast': 'domain-viewer',
  'portfolio-activity': null,
  operations: 'staff',
}

/** The period a day falls in, as a subscription records it: the week's Monday, the month, the quarter (calendar, UTC). */
export function periodOf(frequency: Frequency, now: Date): string {
  const day = now.toISOString().slice(0, 10)
  if (frequency === 'weekly') return `W${weekOf(day)}`
  if (frequency === 'monthly') return `M${day.slice(0, 7)}`
  return `Q${day.slice(0, 4)}-${Math.ceil(Number(day.slice(5, 7)) / 3)}`
}

export type SubscriptionInput = { report: string; frequency: string; tag?: string | null; days?: number | null; months?: number | null }

const subscriptionJson = (row: { id: string; report: string; frequency: string; filters: unknown; last_period: string | null; created_at: Date }) => ({
  id: row.id,
  report: row.report,
  frequency: row.frequency,
  filters: row.filters as { tag?: string | null; days?: number | null; months?: number | null },
  last_period: row.last_period,
  created_at: row.created_at.toISOString(),
})

/**
 * Subscribes the signed-in person to a report with its filters (issue 29): anyone who may read the
 * report. The current period counts as mailed, so the first mail comes when the next one starts.
 */
export async function subscribe(db: Kysely<DB>, scope: Scope, input: SubscriptionInput, now: Date) {
  const userId = scope.actor.userId
  if (!userId || !scope.accountId) throw forbidden('Reports are mailed to a person')
  const report = input.report as MailedReport
  if (!(MAILED_REPORTS as readonly string[]).includes(report)) throw badRequest('Unknown report', [{ field: 'report', message: 'Unknown report' }])
  const frequency = input.frequency as Frequency
  if (!(FREQUENCIES as readonly string[]).includes(frequency)) throw badRequest('Unknown frequency', [{ field: 'frequency', message: 'Choose weekly, monthly or quarterly' }])
  const permission = READ[report]
  if (permission && !can(scope.actor, permission)) throw forbidden(`This report needs ${permission}`)
  const filters = {
    tag: typeof input.tag === 'string' && input.tag.trim() ? input.tag.trim().slice(0, TAG_MAX) : null,
    days: (ACTIVITY_PERIODS as readonly number[]).includes(Number(input.days)) ? Number(input.days) : null,
    months: (FORECAST_HORIZONS as readonly number[]).includes(Number(input.months)) ? Number(input.months) : null,
  }
  return change(db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('report_subscriptions')
      .values({
        user_id: userId,
        account_id: scope.accountId!,
        report,
        frequency,
        filters: JSON.stringify(filters),
        last_period: periodOf(frequency, now),
        unsubscribe_token: randomBytes(24).toString('base64url'),
      })
      .returning(['id', 'report', 'frequency', 'filters', 'last_period', 'created_at'])
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'users', entityType: 'report-subscription', entityId: row.id, action: 'create', accountId: scope.actor.homeAccountId, after: { report, frequency, filters } })
    return subscriptionJson(row)
  })
}

/** The signed-in person's subscriptions. */
export async function mySubscriptions(db: Kysely<DB>, scope: Scope) {
  if (!scope.actor.userId) return []
  const rows = await db
    .selectFrom('report_subscriptions')
    .select(['id', 'report', 'frequency', 'filters', 'last_period', 'created_at'])
    .where('user_id', '=', scope.actor.userId)
    .orderBy('created_at')
    .execute()
  return rows.map(subscriptionJson)
}

/** Ends one of the signed-in person's subscriptions (404 for anyone else's). */
export async function unsubscribe(db: Kysely<DB>, scope: Scope, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Subscription not found')
  await change(db, scope, async (tx, audit) => {
    const gone = await tx
      .deleteFrom('report_subscriptions')
      .where('id', '=', id)
      .where('user_id', '=', scope.actor.userId ?? '')
      .returning(['report'])
      .executeTakeFirst()
    if (!gone) throw notFound('Subscription not found')
    await audit.record({ area: 'users', entityType: 'report-subscription', entityId: id, action: 'delete', accountId: scope.actor.homeAccountId, before: { report: gone.report } })
  })
}

/** Ends a subscription from the link in its mail (no sign-in: the token is the proof); true when there was one. */
export async function unsubscribeByToken(db: Kysely<DB>, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return false
  return Boolean(await db.deleteFrom('report_subscriptions').where('unsubscribe_token', '=', token).returning('id').executeTakeFirst())
}

type Section = { key: string; figures: { key: string; count: number; amounts?: { currency: string; minor: number }[] }[] }

/** A report's figures for a subscription, as its subscriber may read them now (null when they no longer may). */
async function figuresFor(
  db: Kysely<DB>,
  scope: Scope,
  report: MailedReport,
  filters: Omit<SubscriptionInput, 'report' | 'frequency'>,
  now: Date,
): Promise<{ total: number; sections: Section[] } | null> {
  const permission = READ[report]
  if (permission && !can(scope.actor, permission)) return null
  const tag = filters.tag ?? null
  if (report === 'domains') {
    const answer = await domainsReport(db, scope, now, { tag })
    return { total: answer.total, sections: DOMAIN_DIMENSIONS.map((d) => ({ key: d, figures: answer.by[d] })) }
  }
  if (report === 'dns') return dnsReport(db, scope, now)
  if (report === 'ssls') return sslsReport(db, scope, now)
  if (report === 'renewals-forecast') return forecastReport(db, scope, now, { tag }, filters.months ?? 12)
  if (report === 'operations') return operationsReport(db, scope, now)
  return activityReport(db, scope, now, filters.days ?? 30)
}

/** The figures as an XLSX workbook: one sheet, the header frozen and filtered, counts as numbers. */
async function figuresXlsx(t: ReturnType<typeof mailTexts>, sections: Section[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet(t('reportMail.sheet'), { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = [
    { header: t('reportMail.columns.section'), key: 'section', width: 24 },
    { header: t('reportMail.columns.figure'), key: 'figure', width: 30 },
    { header: t('reportMail.columns.count'), key: 'count', width: 12 },
    { header: t('reportMail.columns.amount'), key: 'amount', width: 24 },
  ]
  sheet.getRow(1).font = { bold: true }
  for (const section of sections) {
    for (const f of section.figures)
      sheet.addRow({ section: section.key, figure: f.key, count: f.count, amount: (f.amounts ?? []).map((a) => `${(a.minor / 100).toFixed(2)} ${a.currency}`).join(' + ') })
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: 4 } }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/**
 * The scheduled job (hourly): every subscription whose period has turned is claimed for the new
 * period (its `last_period` written first, in its own statement, so a restart or a second runner
 * never mails the same period twice), then its report is mailed to the subscriber in their
 * language with the figures as XLSX, a link to the print view and the unsubscribe link.
 */
export async function runReportMail(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'config' | 'listeningUrl'>, now: Date): Promise<number> {
  const subscriptions = await deps.db.selectFrom('report_subscriptions').select(['id', 'user_id', 'report', 'frequency', 'filters', 'last_period', 'account_id', 'unsubscribe_token']).execute()
  const users = new Map(
    (
      await usersByIds(deps.db, [...new Set(subscriptions.map((s) => s.user_id))])
        .select(['users.id', 'users.email', 'users.language', 'users.roles', 'users.abilities', 'users.account_id', 'users.status'])
        .execute()
    ).map((u) => [u.id, u]),
  )
  const due = subscriptions.flatMap((s) => {
    const u = users.get(s.user_id)
    return u ? [{ ...s, email: u.email, language: u.language, roles: u.roles, abilities: u.abilities, home: u.account_id, status: u.status }] : []
  })
  let sent = 0
  for (const s of due) {
    const period = periodOf(s.frequency, now)
    if (s.last_period === period || s.status !== 'active') continue
    const claimed = await deps.db
      .updateTable('report_subscriptions')
      .set({ last_period: period })
      .where('id', '=', s.id)
      .where('last_period', 'is distinct from', period)
      .returning('id')
      .executeTakeFirst()
    if (!claimed) continue
    const scope: Scope = { actor: { userId: null, label: `report mail ${s.email}`, homeAccountId: s.home, roles: s.roles, abilities: s.abilities }, accountId: s.account_id, requestId: null }
    const report = s.report as MailedReport
    const figures = await figuresFor(deps.db, scope, report, s.filters, now)
    if (!figures) continue
    const t = mailTexts(s.language)
    const base = linkBase(deps)
    const query = new URLSearchParams(
      Object.entries({ context: s.account_id, tag: s.filters.tag, days: s.filters.days, months: s.filters.months })
        .filter((e): e is [string, string | number] => e[1] !== null && e[1] !== undefined)
        .map(([k, v]) => [k, String(v)]),
    )
    const title = t(`reportMail.titles.${report}`)
    const lines = figures.sections.slice(0, 6).map(
      (section) =>
        `- ${section.key}: ${section.figures
          .slice(0, 5)
          .map((f) => `${f.key} ${f.count}`)
          .join(', ')}`,
    )
    await deps.mailer.send({
      to: s.email,
      subject: t('reportMail.subject', { title, period: period.slice(1) }),
      text: `${t('reportMail.intro', { title, total: figures.total })}\n\n${lines.join('\n')}\n\n${t('reportMail.print')}: ${base}/reports/${report}/print?${query}\n\n${t('reportMail.unsubscribe')}: ${base}/reports/unsubscribe/${s.unsubscribe_token}\n`,
      attachments: [
        { filename: `${report}-${period.slice(1)}.xlsx`, content: await figuresXlsx(t, figures.sections), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      ],
    })
    sent++
  }
  return sent
}

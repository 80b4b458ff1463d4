import { data } from 'react-router'
import { DateText } from '#app/components/date-text.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CASE_STATES, RISKS } from '#common/watch.ts'
import type { Route } from './+types/report.ts'
import { evidenceText } from './case.tsx'
import { watchScreen } from './shared.server.ts'

const KINDS = ['overview', 'detail', 'action'] as const
type Kind = (typeof KINDS)[number]
/** The most rows a printed report carries (a longer one is said to be cut). */
const LIMIT = 200

/**
 * /watch/{id}/overview-report, detail-report and action-report (issue 31): a watch's reports in
 * the clean layout, for paper (A4 or Letter: the page box is the printer's). Each printed page is
 * headed by the watch, its brand and the date range (a table header group repeats), rows never
 * break, and the page number is in the margin — the reports' print views' way (decision 028).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const kind = requestUrl(request).pathname.split('/').pop()!.replace('-report', '') as Kind
  if (!KINDS.includes(kind)) throw data('Page Not Found', { status: 404 })
  const path = { context: screen.groupContext, id: params.id }
  const watch = await screen.platform.get('/groups/{context}/watches/{id}', { path })
  const ofWatch = `watch_id equals '${watch.id}'`
  const [detections, cases, overview] = await Promise.all([
    screen.platform.get('/groups/{context}/watch-detections', { path: { context: screen.groupContext }, query: { pql: ofWatch, sort: '-points,name', limit: String(LIMIT) } }),
    screen.platform.get('/groups/{context}/watch-cases', { path: { context: screen.groupContext }, query: { pql: ofWatch, sort: '-opened_at', limit: String(LIMIT) } }),
    screen.platform.get('/groups/{context}/watch-overview', { path: { context: screen.groupContext } }),
  ])
  const details =
    kind === 'detail' ? await Promise.all(detections.data.map((d) => screen.platform.get('/groups/{context}/watch-detections/{id}', { path: { context: screen.groupContext, id: d.id! } }))) : []
  const caseDetails =
    kind === 'action' ? await Promise.all(cases.data.map((c) => screen.platform.get('/groups/{context}/watch-cases/{id}', { path: { context: screen.groupContext, id: c.id! } }))) : []
  const t = getInstance(context).t
  const title = t(`watch:reports.${kind}.title`)
  return {
    kind,
    title,
    watch: { name: watch.name, brand: watch.brand_label, from: watch.created_at },
    generatedAt: new Date().toISOString(),
    detections: { rows: detections.data, total: detections.meta.total },
    cases: { rows: cases.data, total: cases.meta.total },
    details,
    caseDetails,
    overview: kind === 'overview' ? overview : null,
    meta: pageMeta(request, context, `${title} — ${watch.name}`),
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const PRINT_CSS = `
@page { size: auto; margin: 14mm 12mm 16mm; @bottom-right { content: counter(page) " / " counter(pages); font: 9pt sans-serif; color: #475569; } }
.watch-report table.rows { width: 100%; border-collapse: collapse; font-size: 0.8rem; }
.watch-report table.rows th { text-align: left; font-weight: 600; border-bottom: 1px solid #cbd5e1; padding: 4px 6px 4px 0; }
.watch-report table.rows td { border-bottom: 1px solid #e2e8f0; padding: 4px 6px 4px 0; vertical-align: top; }
@media print {
  html, body { background: #fff !important; color: #0f172a !important; }
  .watch-report > table > thead { display: table-header-group; }
  .watch-report tr, .watch-report section { break-inside: avoid; }
  .watch-report a { color: inherit; text-decoration: none; }
  .watch-report .no-print { display: none; }
}
`

export default function WatchReport({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { kind, title, watch, generatedAt, detections, cases, details, caseDetails, overview } = loaderData
  const lng = i18n.language
  const cut = (shown: number, total: number) => (total > shown ? <p className="mt-2 text-xs text-slate-500">{t('reports.cut', { shown, total })}</p> : null)
  return (
    <div className="watch-report mx-auto max-w-5xl p-6 text-slate-900 dark:text-slate-100" data-testid="watch-report">
      <style>{PRINT_CSS}</style>
      <table className="w-full">
        <thead>
          <tr>
            <td className="pb-3">
              <div className="flex items-baseline justify-between gap-4 border-b border-slate-300 pb-2">
                <h1 className="text-xl font-semibold">{title}</h1>
                <button type="button" className="no-print rounded border border-slate-300 px-2 py-1 text-xs" onClick={() => window.print()}>
                  {t('reports.print')}
                </button>
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300" data-testid="report-stamp">
                {t('reports.stamp', { watch: watch.name, brand: watch.brand, from: formatDateTime(watch.from, lng), to: formatDateTime(generatedAt, lng) })}
              </p>
            </td>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td className="space-y-6">
              {kind === 'overview' && overview ? (
                <>
                  <section>
                    <h2 className="mb-2 font-semibold">{t('reports.figures')}</h2>
                    <table className="rows">
                      <tbody>
                        <tr>
                          <td>{t('reports.detections')}</td>
                          <td className="tabular-nums">{detections.total}</td>
                        </tr>
                        {RISKS.map((r) => (
                          <tr key={r}>
                            <td>{t('reports.detectionsRisk', { risk: t(`risk.${r}`) })}</td>
                            <td className="tabular-nums">{detections.rows.filter((d) => d.risk === r).length}</td>
                          </tr>
                        ))}
                        <tr>
                          <td>{t('reports.mailReady')}</td>
                          <td className="tabular-nums">{detections.rows.filter((d) => d.mail_ready).length}</td>
                        </tr>
                        {CASE_STATES.map((s) => (
                          <tr key={s}>
                            <td>{t('reports.casesState', { state: t(`state.${s}`) })}</td>
                            <td className="tabular-nums">{cases.rows.filter((c) => c.state === s).length}</td>
                          </tr>
                        ))}
                        <tr>
                          <td>{t('overview.daysToTakedown')}</td>
                          <td className="tabular-nums">{overview.days_to_takedown ?? '—'}</td>
                        </tr>
                      </tbody>
                    </table>
                  </section>
                  <section>
                    <h2 className="mb-2 font-semibold">{t('reports.trend')}</h2>
                    <table className="rows">
                      <thead>
                        <tr>
                          <th>{t('reports.week')}</th>
                          <th>{t('reports.newDetections')}</th>
                          <th>{t('reports.openedCases')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {weeks(
                          detections.rows.map((d) => d.first_seen_at!),
                          cases.rows.map((c) => c.opened_at!),
                        ).map((w) => (
                          <tr key={w.week}>
                            <td>{w.week}</td>
                            <td className="tabular-nums">{w.a}</td>
                            <td className="tabular-nums">{w.b}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </section>
                </>
              ) : null}
              {kind === 'detail' ? (
                <>
                  {details.map((d) => (
                    <section key={d.id} className="border-b border-slate-200 pb-3" data-testid="report-detection">
                      <h2 className="font-mono font-semibold">
                        {d.unicode_name} — {t(`risk.${d.risk}`)} ({d.points})
                      </h2>
                      <p className="text-xs text-slate-600 dark:text-slate-300">{d.reasons.map((r) => `${t(`reason.${r.code}`)}${r.detail ? ` (${r.detail})` : ''} +${r.points}`).join(' · ')}</p>
                      <table className="rows mt-1">
                        <tbody>
                          {d.evidence.map((e) => (
                            <tr key={e.id}>
                              <td className="whitespace-nowrap">{t(`evidence.${e.kind}`)}</td>
                              <td className="whitespace-nowrap">{formatDateTime(e.captured_at, lng)}</td>
                              <td className="font-mono break-all">{evidenceText(e)}</td>
                              <td className="font-mono text-slate-500">{e.sha256.slice(0, 12)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </section>
                  ))}
                  {details.length ? null : <p className="text-sm">{t('detections.empty')}</p>}
                  {cut(details.length, detections.total)}
                </>
              ) : null}
              {kind === 'action' ? (
                <>
                  {caseDetails.map((c) => (
                    <section key={c.case.id} className="border-b border-slate-200 pb-3" data-testid="report-case">
                      <h2 className="font-mono font-semibold">
                        {c.case.names.join(', ')} — {t(`state.${c.case.state}`)}
                        {c.case.action ? ` · ${t(`action.${c.case.action}`)}` : ''}
                      </h2>
                      <table className="rows mt-1">
                        <tbody>
                          {c.steps.map((s) => (
                            <tr key={s.id}>
                              <td className="whitespace-nowrap">{formatDateTime(s.at, lng)}</td>
                              <td>
                                {t(`state.${s.state}`, { defaultValue: s.state })}
                                {s.detail ? ` — ${t(`${s.state === 'triaged' ? 'triage' : s.state === 'resolved' ? 'resolution' : 'action'}.${s.detail}`, { defaultValue: s.detail })}` : ''}
                                {s.note ? ` — ${s.note}` : ''}
                              </td>
                              <td>{s.actor_label}</td>
                            </tr>
                          ))}
                          {c.sends.map((s) => (
                            <tr key={s.step}>
                              <td className="whitespace-nowrap">{formatDateTime(s.sent_at, lng)}</td>
                              <td>{t(`case.send.${s.step}`, { defaultValue: s.step })}</td>
                              <td className="font-mono">{s.recipient}</td>
                            </tr>
                          ))}
                          {c.deadlines.map((d) => (
                            <tr key={d.key}>
                              <td className="whitespace-nowrap">{formatDateTime(d.due, lng)}</td>
                              <td>{t(`deadline.${d.key}`)}</td>
                              <td>{t('reports.due')}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                      <p className="mt-1 text-xs">{t('reports.next', { step: nextStep(t, c.case.state, c.case.action) })}</p>
                    </section>
                  ))}
                  {caseDetails.length ? null : <p className="text-sm">{t('cases.none')}</p>}
                  {cut(caseDetails.length, cases.total)}
                </>
              ) : null}
              <p className="text-xs text-slate-500">
                {t('reports.generated')} <DateText value={generatedAt} lng={lng} />
              </p>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  )
}

/** What a case waits for next, in a word. */
function nextStep(t: (k: string) => string, state: string, action: string | null): string {
  if (state === 'new') return t('reports.nextTriage')
  if (state === 'triaged') return t('reports.nextAction')
  if (state === 'resolved') return t('reports.nextNone')
  return action === 'notice-sent' ? t('reports.nextAnswer') : t('reports.nextOutcome')
}

/** New detections and opened cases per ISO week (Monday), newest first. */
function weeks(a: string[], b: string[]) {
  const weekOf = (iso: string) => {
    const d = new Date(iso)
    const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7)))
    return monday.toISOString().slice(0, 10)
  }
  const rows = new Map<string, { week: string; a: number; b: number }>()
  for (const x of a) (rows.get(weekOf(x)) ?? rows.set(weekOf(x), { week: weekOf(x), a: 0, b: 0 }).get(weekOf(x))!).a++
  for (const x of b) (rows.get(weekOf(x)) ?? rows.set(weekOf(x), { week: weekOf(x), a: 0, b: 0 }).get(weekOf(x))!).b++
  return [...rows.values()].sort((x, y) => y.week.localeCompare(x.week))
}

import { Form, Link, redirect } from 'react-router'
import { BarChart, ColumnChart } from '#app/components/charts.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { PULSE_MAX, PULSE_REPORTS, PULSE_SIZES, pulseSections, readWidget, type PulseReport, type PulseWidget } from '#common/pulse.ts'
import { TAG_MAX, type DomainDimension, type FigureReport } from '#common/reports.ts'
import type { Route } from './+types/pulse.ts'
import { figureHref as domainFigureHref, useFigureLabel, type DomainsReport } from './reports/domains-view.tsx'
import { searchOf } from './reports/parts.tsx'
import { getSectionsReport } from './reports/report.server.ts'
import { amountsText, figureHref, figureLabel, type SectionsReport } from './reports/sections-view.tsx'

/** The answer a widget draws from: the domains report's or a figure report's, null when the person may not read it. */
type Answers = Record<string, { kind: 'domains'; report: DomainsReport } | { kind: 'sections'; report: SectionsReport } | null>

const keyOf = (w: Pick<PulseWidget, 'report' | 'tag'>) => `${w.report}|${w.tag ?? ''}`

/**
 * /pulse (issue 29): the person's dashboard — the widgets they arranged (or their role's defaults),
 * each a report's headline or one of its sections, every figure a link to the list behind it. Each
 * report is read once however many widgets show it; one the person may not read says so.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireScreen(request, context)
  const url = requestUrl(request)
  const group = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const pulse = await platform.get('/me/pulse')
  const answers: Answers = {}
  await Promise.all(
    [...new Map(pulse.widgets.map((w) => [keyOf(w), w])).values()].map(async (w) => {
      try {
        answers[keyOf(w)] =
          w.report === 'domains'
            ? { kind: 'domains', report: await platform.get('/groups/{context}/reports/domains', { path: { context: group }, query: w.tag ? { tag: w.tag } : {} }) }
            : { kind: 'sections', report: await getSectionsReport(platform, group, w.report, { tag: w.tag }) }
      } catch (error) {
        // A report the person may not read (its area's viewer) is a widget that says so.
        const status = (error as { status?: number; init?: { status?: number } }).init?.status ?? (error as { status?: number }).status
        if (status === 403) answers[keyOf(w)] = null
        else throw error
      }
    }),
  )
  const t = getInstance(context).getFixedT(null, 'reports')
  return { pulse, answers, meta: pageMeta(request, context, t('pulse.title')) }
}

/** Add, remove, move and size a widget, or go back to the defaults: plain forms, each a PUT of the whole arrangement with the version read. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  await requireScreen(request, context)
  const platform = await getPlatform(request, context)
  const t = getInstance(context).getFixedT(null, 'reports')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const version = Number(form.get('version'))
  const index = Number(form.get('index'))
  const url = requestUrl(request)
  const back = (message: string, color: 'success' | 'error') => redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color }) } })
  const current = await platform.get('/me/pulse')
  if (current.version !== version) return back(t('pulse.stale'), 'error')
  const widgets = [...current.widgets]
  if (intent === 'reset') {
    await platform.put('/me/pulse', { body: { widgets: null, version } })
    return back(t('pulse.resetDone'), 'success')
  }
  if (intent === 'add') {
    const [report, section] = String(form.get('widget') ?? '').split('|')
    const widget = readWidget({ report, section: section || null, size: form.get('size'), tag: form.get('tag') })
    if (!widget) return back(t('pulse.unknown'), 'error')
    if (widgets.length >= PULSE_MAX) return back(t('pulse.full', { max: PULSE_MAX }), 'error')
    widgets.push(widget)
  } else if (Number.isInteger(index) && index >= 0 && index < widgets.length) {
    const [widget] = widgets.splice(index, 1)
    if (intent === 'up') widgets.splice(Math.max(0, index - 1), 0, widget!)
    else if (intent === 'down') widgets.splice(Math.min(widgets.length, index + 1), 0, widget!)
    else if (intent.startsWith('size-')) widgets.splice(index, 0, { ...widget!, size: Number(intent.slice(5)) as PulseWidget['size'] })
    else if (intent !== 'remove') return back(t('pulse.unknown'), 'error')
  } else return back(t('pulse.unknown'), 'error')
  await platform.put('/me/pulse', { body: { widgets, version } })
  return back(t('pulse.saved'), 'success')
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const SPAN: Record<number, string> = { 1: 'md:col-span-1', 2: 'md:col-span-2', 3: 'md:col-span-3' }
const OVER_TIME = new Set(['month', 'auto_renew_off', 'week', 'expiry_month', 'revenue_month'])

/** What a widget shows: a report's headline figure, or a section's chart and its first figures, each a link. */
function WidgetBody({ widget, answer }: { widget: PulseWidget; answer: Answers[string] }) {
  const { t, i18n } = useTranslation('reports')
  const href = useContextHref()
  const domainLabel = useFigureLabel()
  const format = (n: number) => n.toLocaleString(i18n.language)
  if (!answer) return <p className="text-sm text-slate-500">{t('pulse.notAllowed')}</p>
  const reportPath = `/reports/${widget.report}${searchOf({ tag: widget.tag })}`
  if (widget.section === null) {
    return (
      <Link to={href(reportPath)} className="text-3xl font-semibold tabular-nums text-blue-700 hover:underline dark:text-blue-300" data-testid="pulse-headline">
        {format(answer.report.total)}
      </Link>
    )
  }
  const figures =
    answer.kind === 'domains'
      ? answer.report.by[widget.section as DomainDimension].map((f) => ({
          key: f.key,
          label: domainLabel(widget.section as DomainDimension, f.key),
          value: f.count,
          href: href(domainFigureHref(answer.report, widget.section as DomainDimension, f.key)),
        }))
      : (answer.report.sections.find((s) => s.key === widget.section)?.figures ?? []).map((f) => {
          const to = figureHref(widget.report as FigureReport, answer.report, widget.section!, f.key)
          return {
            key: f.key,
            label: figureLabel(t, i18n.language, widget.report as FigureReport, widget.section!, f.key, f.label),
            value: f.count,
            href: to ? href(to) : undefined,
            amount: amountsText(f, i18n.language),
          }
        })
  if (!figures.length) return <p className="text-sm text-slate-500">{t('sections.empty')}</p>
  const title = sectionTitle(t, widget)
  const overTime = OVER_TIME.has(widget.section)
  const shown = overTime ? figures.filter((f) => f.value > 0).slice(0, 6) : figures.slice(0, 6)
  return (
    <div className="space-y-2">
      {/* A chart at a readable height; a one-column widget of categories is its list alone (its bars' labels would be too small to read). */}
      {overTime ? (
        <ColumnChart bars={figures} title={title} format={format} className={widget.size === 1 ? 'h-28 w-full' : 'h-44 w-full'} />
      ) : widget.size > 1 ? (
        <BarChart bars={figures.slice(0, 6)} title={title} format={format} />
      ) : null}
      <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
        {shown.map((f) => (
          <li key={f.key} className="flex justify-between gap-2 py-1">
            <span className="truncate">{f.label}</span>
            {'amount' in f && f.amount ? <span className="ml-auto truncate text-xs tabular-nums text-slate-500 dark:text-slate-400">{f.amount}</span> : null}
            {f.href ? (
              <Link to={f.href} className="tabular-nums text-blue-700 hover:underline dark:text-blue-300">
                {format(f.value)}
              </Link>
            ) : (
              <span className="tabular-nums">{format(f.value)}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}

type T = (key: string, options?: Record<string, unknown>) => string
const reportTitle = (t: T, report: PulseReport) => t(`index.${report}.title`)
const sectionTitle = (t: T, w: Pick<PulseWidget, 'report' | 'section'>) =>
  w.section === null ? t('pulse.headline') : w.report === 'domains' ? t(`domains.dimension.${w.section}`) : t(`${w.report}.section.${w.section}`)

export default function Pulse({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('reports')
  const href = useContextHref()
  const { pulse, answers } = loaderData
  const last = pulse.widgets.length - 1
  return (
    <div className="space-y-6" data-testid="pulse">
      <PageHeader
        title={t('pulse.title')}
        description={pulse.customised ? t('pulse.description') : t('pulse.defaults')}
        actions={
          pulse.customised ? (
            <Form method="post">
              <input type="hidden" name="version" value={pulse.version} />
              <Button type="submit" name="intent" value="reset" variant="outline" size="sm" data-testid="pulse-reset">
                {t('pulse.reset')}
              </Button>
            </Form>
          ) : null
        }
      />
      <div className="grid items-start gap-4 md:grid-cols-3">
        {pulse.widgets.map((widget, i) => (
          <Card key={`${i}-${widget.report}-${widget.section}`} className={`flex flex-col gap-3 ${SPAN[widget.size]}`} data-testid={`pulse-widget-${widget.report}-${widget.section ?? 'headline'}`}>
            <div className="flex items-baseline justify-between gap-2">
              <CardTitle className="text-sm">
                <Link to={href(`/reports/${widget.report}${searchOf({ tag: widget.tag })}`)} className="hover:underline">
                  {reportTitle(t, widget.report)}
                </Link>
                <span className="font-normal text-slate-500"> · {sectionTitle(t, widget)}</span>
              </CardTitle>
              {widget.tag ? <span className="text-xs text-slate-500">{widget.tag}</span> : null}
            </div>
            <WidgetBody widget={widget} answer={answers[keyOf(widget)] ?? null} />
            {/* Arranged with plain forms: they work without JavaScript. */}
            <Form method="post" className="mt-auto flex flex-wrap items-center gap-1 border-t border-slate-100 pt-2 text-xs dark:border-slate-800">
              <input type="hidden" name="version" value={pulse.version} />
              <input type="hidden" name="index" value={i} />
              <Button type="submit" name="intent" value="up" variant="ghost" size="sm" disabled={i === 0} aria-label={t('pulse.up')} title={t('pulse.up')}>
                ↑
              </Button>
              <Button type="submit" name="intent" value="down" variant="ghost" size="sm" disabled={i === last} aria-label={t('pulse.down')} title={t('pulse.down')}>
                ↓
              </Button>
              {PULSE_SIZES.map((size) => (
                <Button
                  key={size}
                  type="submit"
                  name="intent"
                  value={`size-${size}`}
                  variant={size === widget.size ? 'secondary' : 'ghost'}
                  size="sm"
                  aria-pressed={size === widget.size}
                  title={t('pulse.size', { count: size })}
                >
                  {t('pulse.sizeShort', { count: size })}
                </Button>
              ))}
              <Button type="submit" name="intent" value="remove" variant="ghost" size="sm" className="ml-auto" data-testid="pulse-remove">
                {t('pulse.remove')}
              </Button>
            </Form>
          </Card>
        ))}
      </div>
      {pulse.widgets.length < PULSE_MAX ? (
        <Card>
          <CardTitle className="text-base">{t('pulse.add')}</CardTitle>
          <Form method="post" className="mt-2 flex flex-wrap items-end gap-2" data-testid="pulse-add">
            <input type="hidden" name="version" value={pulse.version} />
            <div className="space-y-1">
              <Label htmlFor="pulse-widget">{t('pulse.widget')}</Label>
              <Select id="pulse-widget" name="widget" className="h-9 w-72">
                {PULSE_REPORTS.map((report) => (
                  <optgroup key={report} label={reportTitle(t, report)}>
                    {[null, ...pulseSections(report)].map((section) => (
                      <option key={section ?? ''} value={`${report}|${section ?? ''}`}>
                        {sectionTitle(t, { report, section })}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="pulse-size">{t('pulse.sizeLabel')}</Label>
              <Select id="pulse-size" name="size" defaultValue="1" className="h-9 w-36">
                {PULSE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {t('pulse.size', { count: size })}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="pulse-tag">{t('filters.tag')}</Label>
              <Input id="pulse-tag" name="tag" maxLength={TAG_MAX} className="w-44" aria-describedby="pulse-tag-hint" />
            </div>
            <Button type="submit" name="intent" value="add" size="sm" data-testid="pulse-add-submit">
              {t('pulse.addButton')}
            </Button>
            <p id="pulse-tag-hint" className="w-full text-xs text-slate-500">
              {t('pulse.tagHint')}
            </p>
          </Form>
        </Card>
      ) : null}
    </div>
  )
}

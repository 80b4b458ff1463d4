import { data, Form, Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { DetailList } from '#app/components/screen-parts.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { OWN_NAME, type Risk } from '#common/watch.ts'
import type { Route } from './+types/overview.ts'
import { useWatchFrame } from './frame.tsx'
import { watchDetectionsList } from './lists.ts'
import { watchScreen } from './shared.server.ts'
import { RiskBadge } from './shared.tsx'

const detectionsOf = (id: string) => ({ ...watchDetectionsList, fixedFilters: [{ field: 'watch_id', operator: 'equals' as const, values: [id] }] })

/** /watch/{id}: the watch's settings, its last run (and Run now), and its detections, each rated, with a case opened from it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, detectionsOf(params.id), screen.groupContext)
  return data({ page }, { headers })
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const back = `/watch/${params.id}${requestUrl(request).search}`
  const path = { context: screen.groupContext, id: params.id }
  try {
    if (intent === 'run') {
      const run = await screen.platform.post('/groups/{context}/watches/{id}/run', { path })
      return backWith(request, back, { content: t('watch:done.run', { count: run.found, found: run.found, fresh: run.new, asked: run.asked }), color: 'success' })
    }
    if (intent === 'case') {
      const opened = await screen.platform.post('/groups/{context}/watch-detections/{id}/case', {
        path: { context: screen.groupContext, id: String(form.get('detection')) },
        body: { cluster: form.get('cluster') === 'on' || form.get('cluster') === 'true' },
      })
      return backWith(request, `/watch/${params.id}/cases/${opened.id}`, { content: t('watch:done.caseOpened', { name: opened.names[0] }), color: 'success' })
    }
  } catch (error) {
    return backWith(request, back, { content: refusalTextOf(t, error), color: 'error' })
  }
  throw data('Unknown intent', { status: 400 })
}

export default function WatchOverview({ loaderData, params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { watch, canManage } = useWatchFrame()
  const { page } = loaderData
  const run = watch.last_run
  return (
    <div className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardTitle className="mb-3">{t('detail.settings')}</CardTitle>
          <DetailList
            rows={[
              [t('fields.brand_label'), <span className="font-mono">{watch.brand_label}</span>],
              [t('fields.sources'), watch.sources.map((s) => t(`source.${s}`)).join(', ')],
              [t('fields.min_similarity'), String(watch.min_similarity)],
              [t('fields.thresholds'), t('detail.thresholds', { high: watch.threshold_high, critical: watch.threshold_critical })],
              [t('fields.interval_hours'), t('detail.every', { count: watch.interval_hours })],
            ]}
          />
        </Card>
        <Card>
          <div className="mb-3 flex items-center justify-between gap-2">
            <CardTitle>{t('detail.lastRun')}</CardTitle>
            {canManage ? (
              <Form method="post">
                <Button type="submit" name="intent" value="run" size="sm" data-testid="watch-run">
                  {t('detail.runNow')}
                </Button>
              </Form>
            ) : null}
          </div>
          <DetailList
            rows={[
              [t('fields.last_run_at'), watch.last_run_at ? <DateText value={watch.last_run_at} lng={i18n.language} /> : t('never')],
              [t('detail.asked'), run ? t('detail.askedOf', { asked: run.asked, candidates: run.candidates }) : '—'],
              [t('detail.found'), run ? t('detail.foundNew', { found: run.found, fresh: run.new, changed: run.changed }) : '—'],
              [t('fields.next_run_at'), <DateText value={watch.next_run_at} lng={i18n.language} />],
            ]}
          />
        </Card>
      </div>
      <DataTable
        def={detectionsOf(params.id)}
        page={page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        valueLabel={(key, value) => (key === 'risk' ? t(`risk.${value}`) : value)}
        empty={<p className="text-sm text-slate-500">{t('detections.empty')}</p>}
        renderCell={(row, key) => {
          if (key === 'unicode_name')
            return (
              <span className="inline-flex flex-wrap items-center gap-2">
                <span className="font-mono">{String(row.unicode_name)}</span>
                {(row.fuzzers as string[] | undefined)?.includes(OWN_NAME) ? <Badge color="blue">{t('detections.ownName')}</Badge> : null}
              </span>
            )
          if (key === 'risk') return <RiskBadge risk={row.risk as Risk} />
          if (key === 'points') return <span className="tabular-nums">{String(row.points)}</span>
          if (key === 'mail_ready' || key === 'web_ready') return row[key] ? t('yes') : t('no')
          if (key === 'cluster') return Number(row.cluster_size ?? 1) > 1 ? t('detections.cluster', { name: String(row.cluster), count: Number(row.cluster_size) - 1 }) : '—'
          if (key === 'changed_at' || key === 'first_seen_at') return <DateText value={String(row[key])} lng={i18n.language} />
          if (key === 'case_id') {
            if (row.case_id)
              return (
                <Link to={`/watch/${params.id}/cases/${String(row.case_id)}`} className="text-blue-700 hover:underline dark:text-blue-300">
                  {t('detections.openCase')}
                </Link>
              )
            if (!canManage) return '—'
            return (
              <Form method="post" className="flex items-center gap-2">
                <input type="hidden" name="detection" value={String(row.id)} />
                {Number(row.cluster_size ?? 1) > 1 ? (
                  <label className="flex items-center gap-1 text-xs">
                    <input type="checkbox" name="cluster" defaultChecked /> {t('detections.wholeCluster')}
                  </label>
                ) : null}
                <Button type="submit" name="intent" value="case" size="sm" variant="outline" aria-label={t('detections.caseLabel', { name: String(row.unicode_name) })}>
                  {t('detections.case')}
                </Button>
              </Form>
            )
          }
          return undefined
        }}
      />
    </div>
  )
}

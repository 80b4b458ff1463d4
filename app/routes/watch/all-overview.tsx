import { Link } from 'react-router'
import { DateText } from '#app/components/date-text.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CASE_STATES, RISKS } from '#common/watch.ts'
import type { Route } from './+types/all-overview.ts'
import { watchScreen } from './shared.server.ts'
import { RiskBadge, StateBadge } from './shared.tsx'

/** /watch/overview: across the account's watches — cases by state, open ones by risk, time to takedown, recidivism, deadlines this week. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const overview = await screen.platform.get('/groups/{context}/watch-overview', { path: { context: screen.groupContext } })
  const t = getInstance(context).t
  return { overview, meta: pageMeta(request, context, t('watch:overview.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export function Figure({ label, value, testId }: { label: React.ReactNode; value: React.ReactNode; testId?: string }) {
  return (
    <div className="rounded-md border border-slate-200 p-3 dark:border-slate-800" data-testid={testId}>
      <div className="text-xs text-slate-500">{label}</div>
      <div className="mt-1 text-2xl font-semibold tabular-nums">{value}</div>
    </div>
  )
}

export default function WatchOverviewAll({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const o = loaderData.overview
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('title'), to: '/watch' }]} title={t('overview.title')} description={t('overview.description')} />
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label={t('overview.watches')} value={o.watches} />
        <Figure label={t('overview.open')} value={o.states.new + o.states.triaged + o.states.action} testId="overview-open" />
        <Figure label={t('overview.takenDown')} value={o.taken_down} />
        <Figure label={t('overview.daysToTakedown')} value={o.days_to_takedown ?? '—'} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardTitle className="mb-3">{t('overview.byState')}</CardTitle>
          <ul className="space-y-2 text-sm">
            {CASE_STATES.map((s) => (
              <li key={s} className="flex items-center justify-between">
                <StateBadge state={s} />
                <span className="tabular-nums">{o.states[s]}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <CardTitle className="mb-3">{t('overview.byRisk')}</CardTitle>
          <ul className="space-y-2 text-sm">
            {RISKS.map((r) => (
              <li key={r} className="flex items-center justify-between">
                <RiskBadge risk={r} />
                <span className="tabular-nums">{o.risks[r]}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <CardTitle className="mb-3">{t('overview.deadlines')}</CardTitle>
          {o.deadlines.length ? (
            <ul className="space-y-1 text-sm" data-testid="overview-deadlines">
              {o.deadlines.map((d) => (
                <li key={`${d.case_id}-${d.key}`} className="flex justify-between gap-3">
                  <Link to={`/watch/${d.watch_id}/cases/${d.case_id}`} className="font-mono text-blue-700 hover:underline dark:text-blue-300">
                    {d.name}
                  </Link>
                  <span>
                    {t(`deadline.${d.key}`)} · <DateText value={d.due} lng={i18n.language} />
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t('overview.noDeadlines')}</p>
          )}
        </Card>
        <Card>
          <CardTitle className="mb-3">{t('overview.recidivism')}</CardTitle>
          {o.recidivists.length ? (
            <ul className="space-y-1 text-sm">
              {o.recidivists.map((r) => (
                <li key={r.registrar} className="flex justify-between">
                  <span>{r.registrar}</span>
                  <span className="tabular-nums">{r.count}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t('overview.noRecidivism')}</p>
          )}
        </Card>
      </div>
    </div>
  )
}

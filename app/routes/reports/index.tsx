import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/index.ts'
import { searchOf, TagFilter } from './parts.tsx'
import { accountChoices, filterQuery, reportScreen } from './report.server.ts'

/** /reports: each report the user may read, with its headline figure for the current filters (issue 29). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const screen = await reportScreen(request, context, null)
  const [index, subscriptions] = await Promise.all([
    screen.platform.get('/groups/{context}/reports', { path: { context: screen.group }, query: filterQuery(screen.filters) }),
    screen.platform.get('/me/report-subscriptions'),
  ])
  const t = getInstance(context).getFixedT(null, 'reports')
  return { index, subscriptions: subscriptions.data, accounts: await accountChoices(request, context, screen.user, screen.group), meta: pageMeta(request, context, t('title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ReportsIndex({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const href = useContextHref()
  const { index } = loaderData
  const tagQuery = searchOf({ tag: index.filters.tag })
  const reports = [
    index.domains ? { key: 'domains', to: `/reports/domains${tagQuery}`, count: index.domains.total } : null,
    // The record report is a list of records: a tag filters domains, not records.
    index.dns ? { key: 'dns', to: '/reports/dns', count: index.dns.total } : null,
    index.ssls ? { key: 'ssls', to: '/reports/ssls', count: index.ssls.total } : null,
    index.dns_records ? { key: 'dns-records', to: '/reports/dns-records', count: index.dns_records.total } : null,
    index.renewals_forecast ? { key: 'renewals-forecast', to: `/reports/renewals-forecast${tagQuery}`, count: index.renewals_forecast.total } : null,
    index.portfolio_activity ? { key: 'portfolio-activity', to: '/reports/portfolio-activity', count: index.portfolio_activity.total } : null,
    index.operations ? { key: 'operations', to: '/reports/operations', count: index.operations.total } : null,
  ].filter((r) => r !== null)
  return (
    <div className="space-y-6" data-testid="reports-index">
      <PageHeader title={t('title')} description={t('description')} />
      <TagFilter tag={index.filters.tag} suggestions={[]} accounts={loaderData.accounts} />
      {reports.length === 0 ? <p className="text-slate-600">{t('index.none')}</p> : null}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {reports.map((report) => (
          <Card key={report.key} data-testid={`report-card-${report.key}`} className="flex flex-col gap-2">
            <CardTitle>
              <Link to={href(report.to)} className="hover:underline">
                {t(`index.${report.key}.title`)}
              </Link>
            </CardTitle>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t(`index.${report.key}.description`)}</p>
            <Link to={href(report.to)} className="mt-auto text-2xl font-semibold tabular-nums text-blue-700 hover:underline dark:text-blue-300" data-testid={`report-headline-${report.key}`}>
              {t(`index.${report.key}.headline`, { count: report.count, formatted: report.count.toLocaleString(i18n.language) })}
            </Link>
          </Card>
        ))}
      </div>
      {loaderData.subscriptions.length ? (
        <Card data-testid="report-subscriptions">
          <CardTitle className="text-base">{t('subscriptions.title')}</CardTitle>
          <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {loaderData.subscriptions.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  {t(`index.${s.report}.title`)} · {t(`subscriptions.frequency.${s.frequency}`)}
                  {s.filters.tag ? ` · ${t('filters.tag')} = ${s.filters.tag}` : ''}
                </span>
                <Form method="post" action="/reports/subscriptions">
                  <input type="hidden" name="id" value={s.id} />
                  <input type="hidden" name="redirectTo" value="/reports" />
                  <Button type="submit" name="intent" value="delete" variant="ghost" size="sm">
                    {t('subscriptions.stop')}
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  )
}

import { Link } from 'react-router'
import { PageHeader } from '#app/components/page-header.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/domains.ts'
import { DomainFigures, totalHref } from './domains-view.tsx'
import { ReportActions, ReportStamp, searchOf, SubscribeForm, TagFilter } from './parts.tsx'
import { accountChoices, loadDomainsReport } from './report.server.ts'

/** /reports/domains: the portfolio counted by status, TLD, locks, auto-renew, DNSSEC, expiry and tag (issue 29). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { report, user, group } = await loadDomainsReport(request, context)
  const t = getInstance(context).getFixedT(null, 'reports')
  return { report, accounts: await accountChoices(request, context, user, group), meta: pageMeta(request, context, t('domains.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function DomainsReportScreen({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const href = useContextHref()
  const { report } = loaderData
  const query = searchOf({ tag: report.filters.tag })
  return (
    <div className="space-y-6" data-testid="report-domains">
      <PageHeader title={t('domains.title')} breadcrumb={[{ label: t('title'), to: '/reports' }]} actions={<ReportActions report="domains" query={query} />} />
      <TagFilter tag={report.filters.tag} suggestions={report.by.tag.map((f) => f.key)} accounts={loaderData.accounts} />
      <ReportStamp tag={report.filters.tag} generatedAt={report.generated_at} account={loaderData.accounts?.acting} />
      <SubscribeForm report="domains" filters={{ tag: report.filters.tag }} />
      <Card className="flex items-baseline gap-4">
        <Link to={href(totalHref(report))} className="text-3xl font-semibold tabular-nums text-blue-700 hover:underline dark:text-blue-300" data-testid="report-total">
          {report.total.toLocaleString(i18n.language)}
        </Link>
        <span className="text-slate-600 dark:text-slate-400">{t('domains.totalLabel')}</span>
      </Card>
      <DomainFigures report={report} charts />
    </div>
  )
}

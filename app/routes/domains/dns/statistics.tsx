import { NoZone } from './no-zone.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, useSearchParams } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { CONTEXT_PARAM, isContextId } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import type { Route } from './+types/statistics.ts'
import { dnsScreen, zoneOfDomain } from './shared.server.ts'
import { StatisticsChart } from './statistics-chart-view.tsx'
import { RANGES, rangeOf, toBars, windowOf, type RangeKey } from './statistics-chart.ts'

/** /domains/{id}/dns-statistics: queries answered for the domain's zone, as a chart and a table. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const range = rangeOf(screen.url.searchParams.get('range'))
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) return data({ zone: null, range, stats: null, bars: [], configured: false })
  const { from, to } = windowOf(range, new Date())
  const stats = await screen.platform.get('/groups/{context}/zones/{zone}/statistics', {
    path: { context: screen.groupContext, zone: zone.id },
    query: { from: from.toISOString(), to: to.toISOString() },
  })
  const bars = toBars(stats.buckets, from, to, RANGES[range].barMinutes)
  return data({ zone: { id: zone.id, name: zone.name }, range, stats: { total: stats.total, from: stats.from, to: stats.to }, bars, configured: zone.powerdns_configured })
}

export default function DnsStatistics({ loaderData, params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const [searchParams] = useSearchParams()
  const context = searchParams.get(CONTEXT_PARAM)
  const { zone, range, stats, bars, configured } = loaderData
  if (!zone || !stats) {
    return <NoZone domainId={params.id} />
  }
  const number = new Intl.NumberFormat(i18n.language)
  const when = (iso: string) => formatDateTime(iso, i18n.language)
  const rangeLabel = t(`statistics.ranges.${range}`)
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t('statistics.title')}</h2>
      {/* A GET form: the range is in the URL (shareable, works without JavaScript). */}
      <Form method="get" className="flex flex-wrap items-center gap-3" data-testid="statistics-range">
        {/* A GET form replaces the query: the account context travels as a field of its own. */}
        {isContextId(context) ? <input type="hidden" name={CONTEXT_PARAM} value={context} /> : null}
        <fieldset className="flex gap-3">
          <legend className="sr-only">{t('statistics.range')}</legend>
          {(Object.keys(RANGES) as RangeKey[]).map((key) => (
            <label key={key} className="flex items-center gap-1 text-sm">
              <input type="radio" name="range" value={key} defaultChecked={key === range} />
              {t(`statistics.ranges.${key}`)}
            </label>
          ))}
        </fieldset>
        <Button type="submit" variant="outline" size="sm">
          {t('statistics.show')}
        </Button>
      </Form>
      {stats.total === 0 ? (
        <section className="space-y-2 py-8 text-center" data-testid="dns-statistics-empty">
          <p className="text-sm text-slate-600 dark:text-slate-400">{configured ? t('statistics.none', { range: rangeLabel }) : t('statistics.notConfigured')}</p>
        </section>
      ) : (
        <StatisticsChart bars={bars} total={stats.total} rangeLabel={rangeLabel} number={number} when={when} />
      )}
      {!configured && stats.total > 0 ? <Alert>{t('statistics.notConfiguredNow')}</Alert> : null}
    </div>
  )
}

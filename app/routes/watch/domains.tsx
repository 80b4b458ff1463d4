import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { OWN_NAME, type Risk } from '#common/watch.ts'
import type { Route } from './+types/domains.ts'
import { useWatchFrame } from './frame.tsx'
import { watchScreen } from './shared.server.ts'
import { RiskBadge } from './shared.tsx'

/** The watch's detections of its own names (hijack, lapse), with their reasons, by name. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const path = { context: screen.groupContext }
  const own = await screen.platform.get('/groups/{context}/watch-detections', {
    path,
    query: { pql: `watch_id equals '${params.id}' and fuzzers contains '${OWN_NAME}'`, limit: '100' },
  })
  const details = await Promise.all(own.data.map((d) => screen.platform.get('/groups/{context}/watch-detections/{id}', { path: { ...path, id: d.id! } })))
  return { detections: details.map((d) => ({ name: d.name, risk: d.risk, reasons: d.reasons.map((r) => ({ code: r.code, detail: r.detail ?? null })) })) }
}

type Own = ReturnType<typeof useWatchFrame>['watch']['own_domains'][number]

/** /watch/{id}/domains: the brand's own names the watch protects, whether the account holds each, and what a run found wrong with one. */
export default function WatchDomains({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { watch } = useWatchFrame()
  const found = new Map(loaderData.detections.map((d) => [d.name, d]))
  return (
    <Card>
      <CardTitle className="mb-1">{t('domains.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-500">{t('domains.help')}</p>
      <CardTable<Own>
        items={watch.own_domains}
        minWidth="min-w-[36rem]"
        testId="watch-own-domains"
        empty={{ text: t('domains.empty'), testId: 'watch-own-domains-empty' }}
        headings={[{ label: t('fields.name') }, { label: t('domains.held') }, { label: t('domains.expires') }, { label: t('domains.found') }]}
        render={(d) => {
          const detection = found.get(d.name)
          return (
            <CardTableRow key={d.name} testId={`own-${d.name}`}>
              <td className="py-2 pr-3 font-mono">{d.name}</td>
              <td className="py-2 pr-3">{d.in_portfolio ? <Badge color="green">{t('domains.inPortfolio')}</Badge> : <Badge color="amber">{t('domains.elsewhere')}</Badge>}</td>
              <td className="py-2 pr-3">{d.expires_at ? <DateText value={d.expires_at} lng={i18n.language} /> : '—'}</td>
              <td className="py-2 pr-3" data-testid={`own-found-${d.name}`}>
                {detection ? (
                  <span className="flex flex-wrap items-center gap-2">
                    <RiskBadge risk={detection.risk as Risk} />
                    <span className="text-sm">
                      {detection.reasons
                        .filter((r) => r.code.startsWith('own-'))
                        .map((r) => `${t(`reason.${r.code}`)}${r.detail ? ` (${r.detail})` : ''}`)
                        .join(' · ')}
                    </span>
                  </span>
                ) : d.in_portfolio ? (
                  <span className="text-sm text-slate-500">{t('domains.nothing')}</span>
                ) : (
                  '—'
                )}
              </td>
            </CardTableRow>
          )
        }}
      />
    </Card>
  )
}

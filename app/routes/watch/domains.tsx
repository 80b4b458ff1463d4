import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/domains.ts'
import { useWatchFrame } from './frame.tsx'
import { watchScreen } from './shared.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await watchScreen(request, context, params)
  return null
}

type Own = ReturnType<typeof useWatchFrame>['watch']['own_domains'][number]

/** /watch/{id}/domains: the brand's own names the watch protects, and whether the account holds each. */
export default function WatchDomains(_: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { watch } = useWatchFrame()
  return (
    <Card>
      <CardTitle className="mb-1">{t('domains.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-500">{t('domains.help')}</p>
      <CardTable<Own>
        items={watch.own_domains}
        minWidth="min-w-[28rem]"
        testId="watch-own-domains"
        empty={{ text: t('domains.empty'), testId: 'watch-own-domains-empty' }}
        headings={[{ label: t('fields.name') }, { label: t('domains.held') }, { label: t('domains.expires') }]}
        render={(d) => (
          <CardTableRow key={d.name} testId={`own-${d.name}`}>
            <td className="py-2 pr-3 font-mono">{d.name}</td>
            <td className="py-2 pr-3">{d.in_portfolio ? <Badge color="green">{t('domains.inPortfolio')}</Badge> : <Badge color="amber">{t('domains.elsewhere')}</Badge>}</td>
            <td className="py-2 pr-3">{d.expires_at ? <DateText value={d.expires_at} lng={i18n.language} /> : '—'}</td>
          </CardTableRow>
        )}
      />
    </Card>
  )
}

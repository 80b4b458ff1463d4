import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { DetailList } from '#app/components/screen-parts.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/monitored.ts'
import { useWatchFrame } from './frame.tsx'
import { watchScreen } from './shared.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await watchScreen(request, context, params)
  return null
}

/** /watch/{id}/monitored: the patterns the watch follows — its brand's label, fuzzers and words, its sources and similarity. */
export default function WatchMonitored(_: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const { watch } = useWatchFrame()
  return (
    <Card>
      <CardTitle className="mb-1">{t('monitored.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-500">{t('monitored.help')}</p>
      <DetailList
        rows={[
          [t('fields.brand_label'), <span className="font-mono">{watch.brand.label}</span>],
          [t('monitored.fuzzers'), watch.brand.fuzzers.length ? watch.brand.fuzzers.join(', ') : t('monitored.allFuzzers')],
          [t('monitored.dictionary'), watch.brand.dictionary.length ? watch.brand.dictionary.join(', ') : t('monitored.defaultDictionary')],
          [t('fields.sources'), watch.sources.map((s) => t(`source.${s}`)).join(', ')],
          [t('fields.min_similarity'), String(watch.min_similarity)],
        ]}
      />
    </Card>
  )
}

import { useTranslation } from 'react-i18next'
import type { Route } from './+types/statistics.ts'
import { dnsScreen } from './shared.server.ts'

/** DNS statistics: the Platform API has no statistics endpoint yet, so an honest empty state. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await dnsScreen(request, context, params)
  return null
}

export default function DnsStatistics() {
  const { t } = useTranslation('dns')
  return (
    <section className="space-y-2 py-8 text-center" data-testid="dns-statistics-empty">
      <h2 className="text-lg font-semibold">{t('statistics.title')}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('statistics.empty')}</p>
    </section>
  )
}

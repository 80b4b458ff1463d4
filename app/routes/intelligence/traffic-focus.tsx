import { Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/traffic-focus.ts'
import { itemScreen } from './item.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await itemScreen(request, context, params)
  return { focus: await screen.platform.get('/groups/{context}/intelligence/items/{id}/traffic-focus', { path: screen.path }) }
}

/** /intelligence/{id}/traffic-focus: the queries our PowerDNS answered for each of the brand's zones over 30 days — which names still get traffic, which none. */
export default function TrafficFocus({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('intelligence')
  const { focus } = loaderData
  const number = new Intl.NumberFormat(i18n.language)
  return (
    <Card>
      <CardTitle className="mb-1">{t('traffic.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t('traffic.help', { hosted: focus.hosted, notHosted: focus.not_hosted })}</p>
      <CardTable
        items={focus.rows}
        minWidth="min-w-[28rem]"
        testId="intelligence-traffic"
        empty={{ text: t('traffic.empty'), testId: 'intelligence-traffic-empty' }}
        headings={[{ label: t('score.domain') }, { label: t('traffic.queries'), className: 'text-right' }, { label: t('traffic.verdict') }]}
        render={(r) => (
          <CardTableRow key={r.domain_id}>
            <td className="py-2 pr-3 font-mono">
              <Link to={`/domains/${r.domain_id}/dns-statistics`} className="text-blue-700 hover:underline dark:text-blue-400">
                {r.name}
              </Link>
            </td>
            <td className="py-2 pr-3 text-right tabular-nums">{number.format(r.queries)}</td>
            <td className="py-2">{r.queries > 0 ? <Badge color="green">{t('traffic.keep')}</Badge> : <Badge color="amber">{t('traffic.drop')}</Badge>}</td>
          </CardTableRow>
        )}
      />
      <p className="mt-3 text-xs text-slate-500">{t('traffic.left')}</p>
    </Card>
  )
}

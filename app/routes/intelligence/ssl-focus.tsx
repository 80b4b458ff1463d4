import { Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/ssl-focus.ts'
import { itemScreen } from './item.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await itemScreen(request, context, params)
  return { focus: await screen.platform.get('/groups/{context}/intelligence/items/{id}/ssl-focus', { path: screen.path }) }
}

/** /intelligence/{id}/ssl-focus: the certificates we hold for the brand's names, and its domains none covers. */
export default function SslFocus({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('intelligence')
  const { focus } = loaderData
  return (
    <div className="space-y-4">
      <Card>
        <CardTitle className="mb-1">{t('ssl.title')}</CardTitle>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t('ssl.help')}</p>
        <CardTable
          items={focus.certificates}
          minWidth="min-w-[44rem]"
          testId="intelligence-certificates"
          empty={{ text: t('ssl.empty'), testId: 'intelligence-certificates-empty' }}
          headings={[{ label: t('ssl.names') }, { label: t('ssl.ca') }, { label: t('ssl.key') }, { label: t('ssl.expires') }, { label: t('ssl.state') }]}
          render={(c) => (
            <CardTableRow key={c.id}>
              <td className="py-2 pr-3 font-mono text-xs">
                <Link to={`/ssls/${c.id}`} className="text-blue-700 hover:underline dark:text-blue-400">
                  {c.names.join(' ')}
                </Link>
              </td>
              <td className="py-2 pr-3">{c.ca}</td>
              <td className="py-2 pr-3">{c.key_type}</td>
              <td className="py-2 pr-3">{c.not_after ? <DateText value={c.not_after} lng={i18n.language} /> : '—'}</td>
              <td className="py-2">
                <span className="flex flex-wrap gap-1">
                  <Badge color={c.valid ? (c.expiring ? 'amber' : 'green') : 'grey'}>{c.valid ? (c.expiring ? t('ssl.expiring') : t('ssl.valid')) : c.status}</Badge>
                  {c.wildcard ? <Badge color="yellow">{t('ssl.wildcard')}</Badge> : null}
                  {c.origin === 'import' ? <Badge color="grey">{t('ssl.imported')}</Badge> : null}
                </span>
              </td>
            </CardTableRow>
          )}
        />
      </Card>
      <Card>
        <CardTitle className="mb-2">{t('ssl.uncovered')}</CardTitle>
        {focus.uncovered.length ? <p className="font-mono text-sm">{focus.uncovered.join(' ')}</p> : <p className="text-sm text-slate-500">{t('ssl.allCovered')}</p>}
        <p className="mt-3 text-xs text-slate-500">{t('ssl.left')}</p>
      </Card>
    </div>
  )
}

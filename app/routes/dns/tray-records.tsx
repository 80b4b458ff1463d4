import { useTranslation } from 'react-i18next'
import { data, Form, Link, useLocation } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/tray-records.ts'
import { dnsScreen } from './shared.server.ts'

/** /tray/records: the DNS records of the user's server-side tray (put there from the record search). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const { page, headers } = await loadListPage(request, context, LISTS['dns-tray-records']!, screen.groupContext)
  return data({ page, meta: pageMeta(request, context, t('tray.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function TrayRecords({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const href = useContextHref()
  const { pathname, search } = useLocation()
  const def = LISTS['dns-tray-records']!
  const empty = loaderData.page.meta.total === 0 && loaderData.page.query.filters.length === 0
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('tray.title')}</h1>
      {empty ? (
        <p data-testid="tray-records-empty">
          {t('tray.empty')} <Link className="underline" to={href('/domains/search/records')}>{t('search.title')}</Link>
        </p>
      ) : (
        <>
          <DataTable
            def={def}
            page={loaderData.page}
            labels={(key) => t(key === 'zone' ? 'fields.zone.name' : key === 'added_at' ? 'tray.addedAt' : `fields.${key}`, { defaultValue: key })}
            renderCell={(row, key) => {
              if (key === 'content') return <span className="break-all font-mono text-xs" data-testid="tray-record">{String(row.content ?? '')}</span>
              if (key === 'added_at') return <time dateTime={String(row.added_at)}>{formatDateTime(String(row.added_at), i18n.language)}</time>
              return String(row[key] ?? '')
            }}
          />
          {/* The Platform API's bulk actions cover domains only: no replace-address job for records yet. */}
          <Alert>{t('tray.bulkUnavailable')}</Alert>
          <Form method="post" action="/tray/items">
            <input type="hidden" name="redirectTo" value={pathname + search} />
            <input type="hidden" name="entity_type" value="record" />
            <Button type="submit" name="intent" value="clear" variant="outline">{t('tray.clear')}</Button>
          </Form>
        </>
      )}
    </div>
  )
}

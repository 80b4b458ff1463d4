import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { dnsRecordsList } from './lists.ts'
import { dnsRecordCell } from './record-cells.tsx'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/search-records.ts'
import { dnsScreen } from './shared.server.ts'

/** /domains/search/records: records across every zone of the account; rows go into the tray. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const { page, headers } = await loadListPage(request, context, dnsRecordsList, screen.groupContext)
  return data({ page, meta: pageMeta(request, context, t('search.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SearchRecords({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const href = useContextHref()
  const def = dnsRecordsList
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('search.title')}</h1>
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => dnsRecordCell(row, key, href, i18n.language)}
      />
    </div>
  )
}

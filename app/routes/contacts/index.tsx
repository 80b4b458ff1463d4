import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { countryName } from '#common/countries.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { contactsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/index.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, contactsList, activeContext(url, user.group_id))
  const t = getInstance(context).t
  const canEdit = canChange(request, user, 'contact-manager')
  return data({ page, canEdit, meta: pageMeta(request, context, t('directory:contacts.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Contacts({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const { canEdit } = loaderData
  const { search } = useLocation()
  const labels = useColumnLabels('contacts')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('contacts.title')}
        actions={
          canEdit ? (
            // The new contact's form is a sheet over this list (/contacts/new), which keeps the list's query to come back to.
            <HeaderAction to={`/contacts/new${search}`} primary preventScrollReset data-testid="contact-new">
              {t('contacts.new')}
            </HeaderAction>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: '/contacts', label: t('contacts.title'), current: true },
          { to: '/contacts/log', label: t('log') },
        ]}
      />
      <DataTable
        def={contactsList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/contacts/${String(row.id)}`)}>{String(row.name ?? '')}</RowLink>
          if (key === 'country_code') return countryName(String(row.country_code ?? ''), i18n.language)
          if (key === 'in_use') return yesNo(t, row.in_use)
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}

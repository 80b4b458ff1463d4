import { useTranslation } from '#app/lib/use-translation.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { accountsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { ACCOUNT_FIELDS, accountBody, AccountForm, accountSchema } from './account-form.tsx'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, accountsList, activeContext(url, user.group_id))
  const t = getInstance(context).t
  return data({ page, canCreate: canChange(request, user, 'staff'), meta: pageMeta(request, context, t('directory:accounts.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: accountSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const created = await (await getPlatform(request, context)).post('/accounts', { body: accountBody(submission.value, false) })
    return redirect(carryContext(`/accounts/${created.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:accounts.created'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ACCOUNT_FIELDS)) }, { status: 400 })
  }
}

export default function Accounts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['directory', 'common'])
  const labels = useColumnLabels('accounts')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('accounts.title')}</h1>
      <SubNav
        links={[
          { to: '/accounts', label: t('accounts.title'), current: true },
          { to: '/accounts/log', label: t('log') },
        ]}
      />
      {loaderData.canCreate ? (
        <Card>
          <details open={actionData ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold">{t('accounts.new')}</summary>
            <div className="mt-4">
              <AccountForm idPrefix="account-new" defaultValue={{ name: '', currency: 'EUR', language: 'en' }} lastResult={actionData?.result} withStatus={false} submitLabel={t('accounts.create')} />
            </div>
          </details>
        </Card>
      ) : null}
      <DataTable
        def={accountsList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/accounts/${String(row.id)}`)}>{String(row.name ?? '')}</RowLink>
          if (key === 'status') return <Badge color={row.status === 'active' ? 'green' : 'red'}>{t(`accounts.status.${String(row.status)}`)}</Badge>
          if (key === 'language') return t(`common:languages.${String(row.language)}`, { defaultValue: String(row.language) })
          if (key === 'is_registrar') return yesNo(t, row.is_registrar)
          if (key === 'created_at') return <DateText value={row.created_at as string} lng={i18n.language} />
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

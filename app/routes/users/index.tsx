import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field } from '#app/components/forms.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { FormErrors, problemErrors, SubNav, useColumnLabels, yesNo } from '../accounts/directory.tsx'
import { canChange, formRefusal, requireChange } from '../accounts/directory.server.ts'
import { abilitiesFromForm, RolesEditor, rolesFromForm } from './roles.tsx'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, LISTS.users!, activeContext(url, user.group_id))
  const t = getInstance(context).t
  return data(
    { page, canInvite: canChange(request, user, 'user-admin'), isStaff: hasPermission(user, 'staff', { ignoreHidden: true }), meta: pageMeta(request, context, t('directory:users.title')) },
    { headers },
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const values = {
    email: String(formData.get('email') ?? '').trim(),
    name: String(formData.get('name') ?? '').trim(),
    roles: rolesFromForm(formData, hasPermission(user, 'staff', { ignoreHidden: true })),
    abilities: abilitiesFromForm(formData),
  }
  const fieldErrors: Record<string, string[]> = {}
  if (!values.email) fieldErrors.email = [t('validation:required')]
  else if (!EMAIL.test(values.email)) fieldErrors.email = [t('validation:email')]
  if (Object.keys(fieldErrors).length) return data({ values, fieldErrors, formErrors: [] as string[] }, { status: 400 })
  try {
    const invited = await (await getPlatform(request, context)).post<{ id: string }>(`/groups/${activeContext(url, user.group_id)}/users`, values)
    return redirect(carryContext(`/users/${invited.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:users.invited', { email: values.email }), color: 'success' }) },
    })
  } catch (error) {
    const errors = problemErrors(formRefusal(error), t, ['email', 'name', 'roles', 'abilities'])
    return data({ values, ...errors }, { status: 400 })
  }
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('users')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('users.title')}</h1>
      <SubNav links={[{ to: '/users', label: t('users.title'), current: true }, { to: '/users/log', label: t('log') }, { to: '/users/authentication-log', label: t('users.authLog') }]} />
      {loaderData.canInvite ? (
        <Card>
          <details open={actionData ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold" data-testid="user-invite-open">
              {t('users.invite')}
            </summary>
            <Form method="post" className="mt-4 space-y-3">
              <FormErrors errors={actionData?.formErrors} />
              <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
                <Field labelProps={{ children: t('users.fields.email') }} inputProps={{ id: 'invite-email', name: 'email', type: 'email', required: true, defaultValue: actionData?.values.email ?? '' }} errors={actionData?.fieldErrors.email} />
                <Field labelProps={{ children: t('users.fields.name') }} inputProps={{ id: 'invite-name', name: 'name', defaultValue: actionData?.values.name ?? '' }} errors={actionData?.fieldErrors.name} />
              </div>
              <RolesEditor roles={actionData?.values.roles ?? []} abilities={actionData?.values.abilities ?? []} staffOffered={loaderData.isStaff} errors={actionData?.fieldErrors.roles} abilityErrors={actionData?.fieldErrors.abilities} />
              <Button type="submit" data-testid="user-invite-submit">
                {t('users.sendInvite')}
              </Button>
            </Form>
          </details>
        </Card>
      ) : null}
      <DataTable
        def={LISTS.users!}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/users/${String(row.id)}`)}>{String(row.name || row.email || '')}</RowLink>
          if (key === 'roles') return <span className="font-mono text-xs">{((row.roles as string[] | undefined) ?? []).join(', ')}</span>
          if (key === 'status') return <Badge color={row.status === 'active' ? 'green' : 'red'}>{t(`users.status.${String(row.status)}`)}</Badge>
          if (key === 'two_factor' || key === 'invited') return yesNo(t, row[key])
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          if (key === 'last_sign_in_at') return row[key] ? <DateText value={row[key] as string} lng={i18n.language} time /> : t('users.never')
          if (key === 'created_at') return <DateText value={row[key] as string} lng={i18n.language} />
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

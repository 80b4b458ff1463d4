import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { usersList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import { inviteSchema, RolesEditor, submittedGrants } from './roles.tsx'
import { ServiceUserForm } from './api-tokens.tsx'
import { serviceUserAction } from './api-tokens.server.ts'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, usersList, activeContext(url, user.group_id))
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
  const staffOffered = hasPermission(user, 'staff', { ignoreHidden: true })
  if (formData.get('intent') === 'service-user') {
    const made = await serviceUserAction(request, context, t, formData, activeContext(url, user.group_id), staffOffered)
    return 'result' in made ? data({ intent: 'service-user' as const, result: made.result }, { status: 400 }) : made.redirect
  }
  const submission = parseWithZod(formData, { schema: inviteSchema(t, staffOffered) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const values = submission.value
  try {
    const invited = await (await getPlatform(request, context)).post('/groups/{context}/users', { path: { context: activeContext(url, user.group_id) }, body: values })
    return redirect(carryContext(`/users/${invited.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:users.invited', { email: values.email }), color: 'success' }) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['email', 'name', 'roles', 'abilities'])) }, { status: 400 })
  }
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('users')
  const { t: tt } = useTranslation('tokens')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('users.title')}</h1>
      <SubNav
        links={[
          { to: '/users', label: t('users.title'), current: true },
          { to: '/users/log', label: t('log') },
          { to: '/users/authentication-log', label: t('users.authLog') },
        ]}
      />
      {loaderData.canInvite ? (
        <Card>
          <details open={actionData ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold" data-testid="user-invite-open">
              {t('users.invite')}
            </summary>
            <InviteForm lastResult={actionData && !('intent' in actionData) ? actionData.result : undefined} staffOffered={loaderData.isStaff} />
          </details>
        </Card>
      ) : null}
      {loaderData.canInvite ? (
        <Card>
          <details open={actionData && 'intent' in actionData ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold" data-testid="service-user-open">
              {tt('serviceUsers.title')}
            </summary>
            <ServiceUserForm lastResult={actionData && 'intent' in actionData ? actionData.result : undefined} staffOffered={loaderData.isStaff} />
          </details>
        </Card>
      ) : null}
      <DataTable
        def={usersList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/users/${String(row.id)}`)}>{String(row.name || row.email || '')}</RowLink>
          if (key === 'roles')
            return (
              <span className="flex flex-wrap gap-1">
                {((row.roles as string[] | undefined) ?? []).map((role) => (
                  <StatusBadge key={role} kind="role" code={role} />
                ))}
              </span>
            )
          if (key === 'status') return <StatusBadge kind="user" code={String(row.status)} />
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

function InviteForm({ lastResult, staffOffered }: { lastResult: SubmissionResult<string[]> | undefined; staffOffered: boolean }) {
  const { t } = useTranslation('directory')
  const schema = inviteSchema(t, staffOffered)
  const [form, fields] = useZodForm(schema, { id: 'user-invite', lastResult })
  const grants = submittedGrants(lastResult?.initialValue, { roles: [], abilities: [] })
  return (
    <Form method="post" className="mt-4 space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <Field labelProps={{ children: t('users.fields.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), id: 'invite-email' }} errors={fields.email.errors} />
        <Field labelProps={{ children: t('users.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: 'invite-name' }} errors={fields.name.errors} />
      </div>
      <RolesEditor key={form.key} roles={grants.roles} abilities={grants.abilities} staffOffered={staffOffered} errors={fields.roles.errors} abilityErrors={fields.abilities.errors} />
      <Button type="submit" data-testid="user-invite-submit">
        {t('users.sendInvite')}
      </Button>
    </Form>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Outlet, redirect } from 'react-router'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge, useRoleLabel } from '#app/components/status-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { ConfirmAction, DetailList, SubNav, yesNo } from '#app/components/screen-parts.tsx'
import { RolesEditor, submittedGrants, userSchema } from './roles.tsx'
import { ApiTokensCard, type TokenActionData } from './api-tokens.tsx'
import { loadTokens, tokenAction } from './api-tokens.server.ts'
import type { Route } from './+types/detail.ts'
import type { Answer } from '#app/lib/platform-api.ts'

type UserDetail = Answer<'/groups/{context}/users/{id}'>

const ACTIONS = ['disable', 'enable', 'reset-two-factor', 'end-sessions'] as const
type ActionIntent = (typeof ACTIONS)[number]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const detail = await (await getPlatform(request, context)).get('/groups/{context}/users/{id}', { path: { context: activeContext(url, user.group_id), id: params.id } })
  const canEdit = canChange(request, user, 'user-admin')
  // A service user's tokens are its admins' to manage (a person's are their own, on /my-profile).
  const apiTokens = detail.kind === 'service' && canEdit ? await loadTokens(request, context, user, { context: activeContext(url, user.group_id), id: params.id }) : null
  return {
    detail,
    apiTokens,
    canEdit,
    isSelf: detail.id === user.id,
    isStaff: hasPermission(user, 'staff', { ignoreHidden: true }),
    meta: pageMeta(request, context, detail.name || detail.email),
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  const platform = await getPlatform(request, context)
  const done = (message: string) => redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color: 'success' }) } })
  const tokenAnswer = await tokenAction(request, context, t, formData, { context: activeContext(url, user.group_id), id: params.id })
  if (tokenAnswer) return tokenAnswer

  if ((ACTIONS as readonly string[]).includes(intent)) {
    try {
      await platform.post(`/groups/{context}/users/{id}/${intent as ActionIntent}`, { path: { context: activeContext(url, user.group_id), id: params.id } })
    } catch (error) {
      const { formErrors } = formErrorsOf(t, error, [])
      return data({ intent, formErrors }, { status: 409 })
    }
    return done(t(`directory:users.done.${intent as ActionIntent}`))
  }
  if (intent !== 'update') throw data('Unknown form', { status: 400 })
  const submission = parseWithZod(formData, { schema: userSchema(t, hasPermission(user, 'staff', { ignoreHidden: true })) })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  const { intent: _intent, ...values } = submission.value
  try {
    await platform.patch('/groups/{context}/users/{id}', { path: { context: activeContext(url, user.group_id), id: params.id }, body: { ...values, version: Number(formData.get('version')) } })
  } catch (error) {
    return data({ intent, result: submission.reply(formErrorsOf(t, error, ['name', 'roles', 'abilities'])) }, { status: 400 })
  }
  return done(t('directory:saved'))
}

export default function UserDetailScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const { detail, canEdit, isSelf } = loaderData
  const { t: tt } = useTranslation('tokens')
  const service = detail.kind === 'service'
  const base = `/users/${detail.id}`
  const editResult = actionData && 'result' in actionData ? actionData.result : undefined
  const grants = Object.entries(detail.role_grants ?? {}).filter(([, list]) => list.length)
  const roleLabel = useRoleLabel()
  // A person who has not accepted the invitation yet is a pending invitation, not an active user (as in the list).
  const status = detail.status === 'active' && detail.invited && !service ? 'invited' : detail.status
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('users.title'), to: '/users' }]}
        title={detail.name || detail.email}
        status={
          <span className="flex flex-wrap gap-1">
            <StatusBadge kind="user" code={status} />
            {detail.kind === 'service' ? <Badge color="blue">{tt('serviceUsers.badge')}</Badge> : null}
          </span>
        }
        description={detail.name ? detail.email : null}
        actions={
          canEdit ? (
            <>
              <HeaderAction to="#user-edit-section" primary>
                {t('users.editRoles')}
              </HeaderAction>
              <HeaderAction to="#user-actions-section">{t('users.actions')}</HeaderAction>
            </>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: base, label: t('details'), current: true },
          { to: `${base}/log`, label: t('log') },
          { to: `${base}/authentication-log`, label: t('users.authLog') },
        ]}
      />
      <Card>
        <DetailList
          rows={[
            [t('users.fields.email'), detail.email],
            [t('users.fields.name'), detail.name],
            [t('users.fields.account.name'), detail.account.name],
            [t('users.fields.status'), <StatusBadge kind="user" code={status} />],
            // A service user never signs in: no second factor, invitation or sign-in to show.
            ...(service
              ? []
              : ([
                  [t('users.fields.two_factor'), yesNo(t, detail.two_factor)],
                  [t('users.fields.invited'), yesNo(t, detail.invited)],
                  [t('users.fields.last_sign_in_at'), detail.last_sign_in_at ? formatDateTime(detail.last_sign_in_at, i18n.language) : t('users.never')],
                ] as [string, React.ReactNode][])),
            [
              t('users.fields.roles'),
              <span className="flex flex-wrap gap-1">
                {detail.roles.map((role) => (
                  <StatusBadge key={role} kind="role" code={role} />
                ))}
              </span>,
            ],
            [t('users.fields.abilities'), <span className="font-mono text-xs">{detail.abilities.join(', ')}</span>],
          ]}
        />
      </Card>
      <Card data-testid="user-expansion">
        <CardTitle>{t('users.expansion')}</CardTitle>
        {grants.length ? (
          <ul className="list-disc pl-5 text-sm">
            {grants.map(([role, list]) => (
              <li key={role}>
                <span title={role}>{roleLabel(role)}</span> → <span>{list.map(roleLabel).join(', ')}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <p className="mt-2 text-sm">
          {t('users.holds')}{' '}
          <span className="font-mono text-xs" data-testid="user-permissions">
            {detail.permissions.join(', ')}
          </span>
        </p>
      </Card>
      {canEdit ? (
        <>
          <Card id="user-edit-section" className="scroll-mt-4">
            <CardTitle>{t('users.editRoles')}</CardTitle>
            {isSelf ? <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">{t('users.selfNote')}</p> : null}
            <UserForm key={detail.version} detail={detail} lastResult={editResult} staffOffered={loaderData.isStaff} />
          </Card>
          {loaderData.apiTokens ? (
            <ApiTokensCard
              {...loaderData.apiTokens}
              newTo={`${base}/api-tokens/new`}
              actionData={actionData && 'intent' in actionData && String(actionData.intent).startsWith('token-') ? (actionData as TokenActionData) : undefined}
            />
          ) : null}
          <Card id="user-actions-section" className="scroll-mt-4">
            <CardTitle>{t('users.actions')}</CardTitle>
            {actionData && 'formErrors' in actionData ? <FormErrors errors={actionData.formErrors} /> : null}
            <div className="grid gap-2 sm:grid-cols-2">
              {detail.status === 'active' ? (
                <ConfirmAction
                  key="disable"
                  intent="disable"
                  variant="destructive"
                  label={t('users.disable')}
                  question={t('users.confirm.disable', { email: detail.email })}
                  confirmLabel={t('users.disable')}
                />
              ) : (
                <ConfirmAction key="enable" intent="enable" label={t('users.enable')} question={t('users.confirm.enable', { email: detail.email })} confirmLabel={t('users.enable')} />
              )}
              {service ? null : (
                <>
                  <ConfirmAction
                    intent="reset-two-factor"
                    label={t('users.resetTwoFactor')}
                    question={t('users.confirm.resetTwoFactor', { email: detail.email })}
                    confirmLabel={t('users.resetTwoFactor')}
                  />
                  <ConfirmAction intent="end-sessions" label={t('users.endSessions')} question={t('users.confirm.endSessions', { email: detail.email })} confirmLabel={t('users.endSessions')} />
                </>
              )}
            </div>
          </Card>
        </>
      ) : null}
      <Outlet />
    </div>
  )
}

function UserForm({ detail, lastResult, staffOffered }: { detail: UserDetail; lastResult: SubmissionResult<string[]> | undefined; staffOffered: boolean }) {
  const { t } = useTranslation('directory')
  const schema = userSchema(t, staffOffered)
  const [form, fields] = useZodForm(schema, { id: 'user-edit', lastResult, defaultValue: { name: detail.name } })
  const grants = submittedGrants(lastResult?.initialValue, detail)
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="version" value={detail.version} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field labelProps={{ children: t('users.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: 'user-name' }} errors={fields.name.errors} />
      <RolesEditor key={form.key} roles={grants.roles} abilities={grants.abilities} staffOffered={staffOffered} errors={fields.roles.errors} abilityErrors={fields.abilities.errors} />
      <Button type="submit" name="intent" value="update" data-testid="user-save">
        {t('save')}
      </Button>
    </Form>
  )
}

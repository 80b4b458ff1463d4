import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useLocation } from 'react-router'
import { getInputProps } from '#app/components/field-props.ts'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { hasPermission } from '#common/permissions.ts'
import { inviteSchema, RolesEditor, submittedGrants } from './roles.tsx'
import type { Route } from './+types/invite.ts'

/** /users/invite: the invitation's form, a sheet over the users list (a user admin's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  return { staffOffered: hasPermission(user, 'staff', { ignoreHidden: true }), meta: pageMeta(request, context, getInstance(context).t('directory:users.invite')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: inviteSchema(t, hasPermission(user, 'staff', { ignoreHidden: true })) })
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

export default function InviteUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['directory', 'common'])
  const { search } = useLocation()
  const closeTo = `/users${search}`
  return (
    <Sheet
      title={t('users.invite')}
      closeTo={closeTo}
      testId="user-invite-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="user-invite" testId="user-invite-submit">
          {t('users.sendInvite')}
        </SheetSubmit>
      }
    >
      <InviteForm lastResult={actionData?.result} staffOffered={loaderData.staffOffered} />
    </Sheet>
  )
}

function InviteForm({ lastResult, staffOffered }: { lastResult: SubmissionResult<string[]> | undefined; staffOffered: boolean }) {
  const { t } = useTranslation('directory')
  const [form, fields] = useZodForm(inviteSchema(t, staffOffered), { id: 'user-invite', lastResult })
  const grants = submittedGrants(lastResult?.initialValue, { roles: [], abilities: [] })
  return (
    <Form method="post" className="space-y-3" data-testid="user-invite-form" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <Field labelProps={{ children: t('users.fields.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), id: 'invite-email' }} errors={fields.email.errors} />
        <Field labelProps={{ children: t('users.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: 'invite-name' }} errors={fields.name.errors} />
      </div>
      <RolesEditor key={form.key} roles={grants.roles} abilities={grants.abilities} staffOffered={staffOffered} errors={fields.roles.errors} abilityErrors={fields.abilities.errors} />
    </Form>
  )
}

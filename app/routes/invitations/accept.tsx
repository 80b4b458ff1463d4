import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { buttonClass, NewPasswordFields } from '#app/lib/auth/fields.tsx'
import { authMessages, currentLocale } from '#app/lib/auth/locale.server.ts'
import { passwordMessage, type AuthMessages } from '#app/lib/auth/messages.ts'
import { hitRateLimit, RESET_RULE } from '#app/lib/auth/rate-limit.server.ts'
import { NewPasswordSchema } from '#app/lib/auth/schemas.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { PlatformClient } from '#app/lib/platform.server.ts'
import { readBody } from '#app/lib/platform-client.ts'
import { services } from '#app/lib/session.server.ts'
import type { Route } from './+types/accept.ts'

/**
 * /invitations/{token} (public, login layout): the invited person checks the link and sets a
 * password under the sign-in password policy. The link works once.
 */
const TOKEN = /^[\w-]{16,256}$/

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const messages = authMessages(currentLocale(request))
  const t = getInstance(context).t
  const meta = pageMeta(request, context, t('directory:invitation.title'))
  let invite: { email: string; name: string } | null = null
  if (TOKEN.test(params.token)) {
    const response = await new PlatformClient(request, context, null).raw(`/user_invites/${encodeURIComponent(params.token)}`)
    if (response.status === 429) throw data({ message: messages.login.tooMany }, { status: 429 })
    if (response.status >= 500) throw data({ message: messages.login.unavailable }, { status: 500 })
    if (response.ok) invite = (await readBody(response)) as { email: string; name: string }
    else await response.body?.cancel()
  }
  return data({ messages, invite, token: params.token, meta }, { status: invite ? 200 : 404 })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  const { env } = services(context)
  assertSameOrigin(request, { publicUrl: env.publicUrl })
  await hitRateLimit(services(context), RESET_RULE)
  const messages = authMessages(currentLocale(request))
  const t = getInstance(context).t
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: NewPasswordSchema(messages) })
  const hide = { hideFields: ['password', 'confirm'] }
  if (submission.status !== 'success') return data({ done: false, result: submission.reply(hide) }, { status: 400 })
  const response = await new PlatformClient(request, context, null).raw(`/user_invites/${encodeURIComponent(params.token)}`, {
    method: 'PUT',
    body: { password: submission.value.password },
    priority: true,
  })
  if (response.ok) {
    await response.body?.cancel()
    return { done: true, result: null }
  }
  if (response.status === 429) throw data({ message: messages.login.tooMany }, { status: 429 })
  const body = (await readBody(response)) as { errors?: { code?: string }[] } | null
  if (response.status >= 500) throw data(body, { status: 500 })
  if (response.status === 404) return data({ done: false, result: submission.reply({ formErrors: [t('directory:invitation.invalid')], ...hide }) }, { status: 400 })
  const codes = (body?.errors ?? []).map((e) => e.code ?? '').filter(Boolean)
  return data(
    { done: false, result: submission.reply({ fieldErrors: { password: codes.length ? codes.map((c) => passwordMessage(messages, c)) : [messages.password.invalid] }, ...hide }) },
    { status: 400 },
  )
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('directory')
  const { messages: m, invite, token } = loaderData
  return (
    <main className="mx-auto w-full max-w-sm p-8">
      <h1 className="mb-2 text-2xl font-semibold">{t('invitation.title')}</h1>
      {actionData?.done ? (
        <>
          <p role="status" className="mb-4" data-testid="invitation-done">
            {t('invitation.done')}
          </p>
          <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
            {m.reset.signIn}
          </Link>
        </>
      ) : invite ? (
        <PasswordForm m={m} token={token} email={invite.email} lastResult={actionData?.result ?? null} />
      ) : (
        <>
          <p role="alert" className="mb-4 text-sm text-red-700 dark:text-red-400">
            {t('invitation.invalid')}
          </p>
          <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
            {m.reset.backToLogin}
          </Link>
        </>
      )}
    </main>
  )
}

function PasswordForm({ m, token, email, lastResult }: { m: AuthMessages; token: string; email: string; lastResult: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation('directory')
  const schema = NewPasswordSchema(m)
  const [form, fields] = useZodForm(schema, {
    id: 'invitation-password',
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <>
      <p className="mb-2 text-sm">{t('invitation.intro', { email })}</p>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{m.reset.policy}</p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="token" value={token} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <NewPasswordFields fields={fields} messages={m} />
        <button type="submit" className={buttonClass}>
          {m.reset.save}
        </button>
      </Form>
    </>
  )
}

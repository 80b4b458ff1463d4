import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { FormErrors, LabelledField, useZodForm } from '#app/components/forms.tsx'
import { buttonClass, inputClass, NewPasswordFields } from '#app/lib/auth/fields.tsx'
import { authMessages, currentLocale } from '#app/lib/auth/locale.server.ts'
import { passwordMessage, type AuthMessages } from '#app/lib/auth/messages.ts'
import { hitRateLimit, RESET_RULE } from '#app/lib/auth/rate-limit.server.ts'
import { NewPasswordSchema, ResetRequestSchema } from '#app/lib/auth/schemas.ts'
import { PlatformClient } from '#app/lib/platform.server.ts'
import { readBody } from '#app/lib/platform-client.ts'
import { services } from '#app/lib/session.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/reset.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const TOKEN = /^[\w-]{16,256}$/

export async function loader({ request, context }: Route.LoaderArgs) {
  const messages = authMessages(currentLocale(request))
  const meta = pageMeta(request, context, null, messages.reset.title)
  const token = new URL(request.url).searchParams.get('token')
  if (!token) return { messages, meta, mode: 'request' as const, token: null, invalidLink: false }
  // Checking a token is a sign-in route too: limited per client address like the posts.
  await hitRateLimit(services(context), RESET_RULE)
  let valid = false
  if (TOKEN.test(token)) {
    const response = await new PlatformClient(request, context, null).raw(`/password_resets/${encodeURIComponent(token)}`)
    await response.body?.cancel()
    if (response.status === 429) throw data({ message: messages.login.tooMany }, { status: 429 })
    if (response.status >= 500) throw data({ message: messages.login.unavailable }, { status: 500 })
    valid = response.ok
  }
  return valid ? { messages, meta, mode: 'new-password' as const, token, invalidLink: false } : { messages, meta, mode: 'request' as const, token: null, invalidLink: true }
}

type PasswordError = { code?: string; field?: string; detail?: string }

export async function action({ request, context }: Route.ActionArgs) {
  const { env, log } = services(context)
  assertSameOrigin(request, { publicUrl: env.publicUrl })
  await hitRateLimit(services(context), RESET_RULE)
  const messages = authMessages(currentLocale(request))
  const formData = await request.formData()
  const platform = new PlatformClient(request, context, null)

  if (formData.get('intent') === 'new-password') {
    const submission = parseWithZod(formData, { schema: NewPasswordSchema(messages) })
    if (submission.status !== 'success') return data({ done: null, result: submission.reply({ hideFields: ['password', 'confirm'] }) }, { status: 400 })
    const { token, password } = submission.value
    const response = await platform.raw(`/password_resets/${encodeURIComponent(token)}`, { method: 'PUT', body: { password }, priority: true })
    if (response.ok) {
      await response.body?.cancel()
      return { done: 'changed' as const, result: null }
    }
    if (response.status === 429) throw data({ message: messages.login.tooMany }, { status: 429 })
    const body = (await readBody(response)) as { errors?: PasswordError[] } | null
    if (response.status === 404) return data({ done: null, result: submission.reply({ formErrors: [messages.reset.invalidLink], hideFields: ['password', 'confirm'] }) }, { status: 400 })
    if (response.status >= 500) throw data(body, { status: 500 })
    const codes = (body?.errors ?? []).map((e) => e.code ?? '').filter(Boolean)
    return data(
      {
        done: null,
        result: submission.reply({
          fieldErrors: { password: codes.length ? codes.map((c) => passwordMessage(messages, c)) : [messages.password.invalid] },
          hideFields: ['password', 'confirm'],
        }),
      },
      { status: 400 },
    )
  }

  const submission = parseWithZod(formData, { schema: ResetRequestSchema(messages) })
  if (submission.status !== 'success') return data({ done: null, result: submission.reply() }, { status: 400 })
  const response = await platform.raw('/password_resets', { method: 'POST', body: { email: submission.value.email }, priority: true })
  await response.body?.cancel()
  if (response.status === 429) throw data({ message: messages.login.tooMany }, { status: 429 })
  // Always the same confirmation: whether the address has an account is nobody's business.
  if (!response.ok) log('warn', 'password reset request failed', { status: response.status })
  return { done: 'sent' as const, result: null }
}

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
  const { messages: m, mode, token, invalidLink } = loaderData
  return (
    <main className="mx-auto w-full max-w-sm p-8">
      {actionData?.done === 'changed' ? (
        <Done text={m.reset.done} link={m.reset.signIn} />
      ) : actionData?.done === 'sent' ? (
        <Done text={m.reset.sent} link={m.reset.backToLogin} />
      ) : mode === 'new-password' && token ? (
        <NewPasswordForm messages={m} token={token} lastResult={actionData?.result ?? null} />
      ) : (
        <RequestForm messages={m} invalidLink={invalidLink} lastResult={actionData?.result ?? null} />
      )}
    </main>
  )
}

function Done({ text, link }: { text: string; link: string }) {
  return (
    <>
      <p role="status" className="mb-4">
        {text}
      </p>
      <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
        {link}
      </Link>
    </>
  )
}

type Result = SubmissionResult<string[]> | null | undefined

function RequestForm({ messages: m, invalidLink, lastResult }: { messages: AuthMessages; invalidLink: boolean; lastResult: Result }) {
  const schema = ResetRequestSchema(m)
  const [form, fields] = useZodForm(schema, {
    id: 'reset-request',
    lastResult,
    shouldValidate: 'onBlur',
  })
  return (
    <>
      <h1 className="mb-2 text-2xl font-semibold">{m.reset.title}</h1>
      {invalidLink ? (
        <p role="alert" className="mb-4 text-sm text-red-700 dark:text-red-400">
          {m.reset.invalidLink}
        </p>
      ) : null}
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{m.reset.intro}</p>
      <Form method="post" action="/reset" className="space-y-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <LabelledField label={m.reset.email} errors={fields.email.errors} errorId={fields.email.errorId}>
          <input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" className={inputClass} />
        </LabelledField>
        <button type="submit" name="intent" value="request" className={buttonClass}>
          {m.reset.submit}
        </button>
      </Form>
      <p className="mt-3 text-sm">
        <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
          {m.reset.backToLogin}
        </Link>
      </p>
    </>
  )
}

function NewPasswordForm({ messages: m, token, lastResult }: { messages: AuthMessages; token: string; lastResult: Result }) {
  const schema = NewPasswordSchema(m)
  const [form, fields] = useZodForm(schema, {
    id: 'reset-password',
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <>
      <h1 className="mb-2 text-2xl font-semibold">{m.reset.newTitle}</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{m.reset.policy}</p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="token" value={token} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <NewPasswordFields fields={fields} messages={m} />
        <button type="submit" name="intent" value="new-password" className={buttonClass}>
          {m.reset.save}
        </button>
      </Form>
    </>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { FormErrors, LabelledField, useZodForm } from '#app/components/forms.tsx'
import { buttonClass, inputClass, secondaryButtonClass } from '#app/lib/auth/fields.tsx'
import { authMessages, currentLocale, loginMessages, type LoginMessages } from '#app/lib/auth/locale.server.ts'
import { hitRateLimit, SIGN_IN_RULE } from '#app/lib/auth/rate-limit.server.ts'
import { LoginSchema, TwoFactorSchema } from '#app/lib/auth/schemas.ts'
import { authenticator, finishSignIn, SignInFailure, startTwoFactor, verifyTwoFactor } from '#app/lib/auth/sign-in.server.ts'
import { clearSsoCookie, completeSso, startSso } from '#app/lib/auth/sso.server.ts'
import type { AuthMessages } from '#app/lib/auth/messages.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { destroySession, getSession, services } from '#app/lib/session.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/login.ts'

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

function failureMessage(m: AuthMessages, error: SignInFailure, step: 'password' | 'two-factor' | 'sso') {
  if (error.kind === 'throttled') return m.login.tooMany
  if (error.kind === 'unavailable') return m.login.unavailable
  return step === 'two-factor' ? m.twoFactor.failed : step === 'sso' ? m.sso.failed : m.login.failed
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url)
  const messages = authMessages(currentLocale(request))
  const { env } = services(context)
  let ssoError: string | null = null
  if (url.searchParams.has('code') || url.searchParams.has('error')) {
    // The provider's redirect back is the one sign-in step that arrives as a GET: limited like the posts.
    await hitRateLimit(services(context), SIGN_IN_RULE)
    try {
      return await completeSso(request, context)
    } catch (error) {
      if (!(error instanceof SignInFailure)) throw error
      if (error.kind === 'throttled') throw data({ message: messages.login.tooMany }, { status: 429 })
      ssoError = failureMessage(messages, error, 'sso')
    }
  }
  const session = await getSession(request, context)
  // Spec §4: a signed-in user opening /login goes to /.
  if (session?.stage === 'active') throw redirect('/')
  const redirectTo = safeRedirect(url.searchParams.get('redirectTo'), '')
  const body = {
    messages: loginMessages(currentLocale(request)),
    meta: pageMeta(request, context, null, messages.login.description),
    step: session?.stage === 'two_factor' ? ('two-factor' as const) : ('password' as const),
    redirectTo,
    ssoEnabled: env.oidc !== null,
    ssoError,
  }
  return ssoError ? data(body, { headers: { 'Set-Cookie': clearSsoCookie() } }) : body
}

export async function action({ request, context }: Route.ActionArgs) {
  const { env, log } = services(context)
  assertSameOrigin(request, { publicUrl: env.publicUrl })
  await hitRateLimit(services(context), SIGN_IN_RULE)
  const locale = currentLocale(request)
  const messages = authMessages(locale)
  const formData = await request.clone().formData()
  const intent = String(formData.get('intent') ?? 'password')
  const redirectTo = safeRedirect(formData.get('redirectTo'), '/')

  if (intent === 'sso') {
    try {
      return await startSso(request, context, { redirectTo, locale, loginHint: (formData.get('username') as string | null) || null })
    } catch (error) {
      log('warn', 'single sign-on could not start', { error: String(error) })
      return data({ intent, result: null, error: env.oidc ? messages.sso.failed : messages.sso.notConfigured }, { status: 503 })
    }
  }

  if (intent === 'restart') {
    const cookie = await destroySession(request, context)
    return redirect('/login', { headers: { 'Set-Cookie': cookie } })
  }

  if (intent === 'two-factor') {
    const submission = parseWithZod(formData, { schema: TwoFactorSchema(messages) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
    const pending = await getSession(request, context)
    if (pending?.stage !== 'two_factor') return redirect('/login')
    try {
      const tokens = await verifyTwoFactor(request, context, pending, submission.value.code)
      return await finishSignIn(request, context, tokens, safeRedirect(pending.meta.redirectTo as string | undefined, '/'))
    } catch (error) {
      if (!(error instanceof SignInFailure)) throw error
      if (error.kind === 'throttled') throw data({ message: messages.login.tooMany }, { status: 429, headers: error.retryAfter ? { 'Retry-After': error.retryAfter } : {} })
      return data({ intent, result: submission.reply({ formErrors: [failureMessage(messages, error, 'two-factor')], fieldErrors: {} }), error: null }, { status: 400 })
    }
  }

  const submission = parseWithZod(formData, { schema: LoginSchema(messages) })
  if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: ['password'] }), error: null }, { status: 400 })
  try {
    const outcome = await authenticator(request, context).authenticate('form', request)
    if (outcome.kind === 'two-factor') {
      const cookie = await startTwoFactor(request, context, outcome.token, redirectTo)
      return redirect('/login', { headers: { 'Set-Cookie': cookie } })
    }
    return await finishSignIn(request, context, outcome, redirectTo)
  } catch (error) {
    if (!(error instanceof SignInFailure)) throw error
    // Spec §8 429: the throttled screen.
    if (error.kind === 'throttled') throw data({ message: messages.login.tooMany }, { status: 429, headers: error.retryAfter ? { 'Retry-After': error.retryAfter } : {} })
    return data(
      { intent, result: submission.reply({ formErrors: [failureMessage(messages, error, 'password')], hideFields: ['password'] }), error: null },
      { status: error.kind === 'invalid' ? 400 : 503 },
    )
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { messages: m, step, redirectTo, ssoEnabled, ssoError } = loaderData
  return (
    <main className="mx-auto w-full max-w-sm p-8">
      {step === 'two-factor' ? (
        <TwoFactorForm messages={m} lastResult={actionData?.intent === 'two-factor' ? actionData.result : null} />
      ) : (
        <PasswordForm
          messages={m}
          redirectTo={redirectTo}
          ssoEnabled={ssoEnabled}
          lastResult={actionData?.intent === 'password' ? actionData.result : null}
          ssoError={ssoError ?? (actionData?.intent === 'sso' ? actionData.error : null)}
        />
      )}
    </main>
  )
}

type Result = SubmissionResult<string[]> | null | undefined

function PasswordForm({
  messages: m,
  redirectTo,
  ssoEnabled,
  lastResult,
  ssoError,
}: {
  messages: LoginMessages
  redirectTo: string
  ssoEnabled: boolean
  lastResult: Result
  ssoError: string | null
}) {
  const schema = LoginSchema(m)
  const navigation = useNavigation()
  const [form, fields] = useZodForm(schema, {
    // Not on blur: leaving the empty email field for "Sign in with SSO" would show an error that
    // pushes the SSO button down between mouse down and up, and the click would be lost.
    id: 'login',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <>
      <h1 className="mb-6 text-2xl font-semibold">{m.login.title}</h1>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <LabelledField label={m.login.username} errors={fields.username.errors} errorId={fields.username.errorId}>
          <input {...getInputProps(fields.username, { type: 'email' })} autoComplete="username" autoFocus className={inputClass} />
        </LabelledField>
        <LabelledField label={m.login.password} errors={fields.password.errors} errorId={fields.password.errorId}>
          <input {...getInputProps(fields.password, { type: 'password' })} autoComplete="current-password" className={inputClass} />
        </LabelledField>
        <button type="submit" name="intent" value="password" className={buttonClass} disabled={navigation.state === 'submitting'}>
          {m.login.submit}
        </button>
      </Form>
      <p className="mt-3 text-sm">
        <Link to="/reset" className="text-blue-700 underline dark:text-blue-400">
          {m.login.forgot}
        </Link>
      </p>
      {ssoEnabled ? (
        <Form method="post" className="mt-6 space-y-2">
          <p className="text-center text-sm text-slate-500">{m.login.or}</p>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" name="intent" value="sso" className={secondaryButtonClass}>
            {m.login.sso}
          </button>
        </Form>
      ) : null}
      {ssoError ? (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
          {ssoError}
        </p>
      ) : null}
    </>
  )
}

function TwoFactorForm({ messages: m, lastResult }: { messages: LoginMessages; lastResult: Result }) {
  const schema = TwoFactorSchema(m)
  const [form, fields] = useZodForm(schema, {
    id: 'two-factor',
    lastResult,
    shouldValidate: 'onSubmit',
  })
  return (
    <>
      <h1 className="mb-2 text-2xl font-semibold">{m.twoFactor.title}</h1>
      <p className="mb-6 text-sm text-slate-600 dark:text-slate-300">{m.twoFactor.intro}</p>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <LabelledField label={m.twoFactor.code} errors={fields.code.errors} errorId={fields.code.errorId}>
          <input {...getInputProps(fields.code, { type: 'text' })} autoComplete="one-time-code" inputMode="numeric" autoFocus className={inputClass} />
        </LabelledField>
        <button type="submit" name="intent" value="two-factor" className={buttonClass}>
          {m.twoFactor.submit}
        </button>
      </Form>
      <Form method="post" className="mt-3">
        <button type="submit" name="intent" value="restart" formNoValidate className="text-sm text-blue-700 underline dark:text-blue-400">
          {m.twoFactor.restart}
        </button>
      </Form>
    </>
  )
}

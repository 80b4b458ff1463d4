import { getFormProps } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Outlet, redirect, useActionData, useLocation, useNavigation } from 'react-router'
import { z } from 'zod'
import { ErrorList, Field, useZodForm } from '#app/components/forms.tsx'
import { copyToClipboard } from '#app/components/toaster.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { clearCookie, readCookie, serializeCookie, YEAR_SECONDS } from '#app/lib/cookies.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { formRules } from '#app/lib/form-messages.ts'
import { isUiLanguage, UI_LANGUAGES } from '#app/lib/i18n.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'
import { HIGHLIGHT_COLORS } from '#app/lib/permission-view.ts'
import { expandPermissions, hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalErrors, refusalOf, refusalText, refusalTextOf } from '#app/lib/refusal.server.ts'
import { saveProfilePreference } from '#app/lib/profile-sync.server.ts'
import { replaceSessionTokens } from '#app/lib/profile.server.ts'
import { requireUser } from '#app/lib/session.server.ts'
import { isTheme } from '#app/lib/theme.ts'
import type { Route } from './+types/my-profile.ts'
import { ApiTokensCard, type TokenActionData } from './users/api-tokens.tsx'
import { loadTokens, tokenAction } from './users/api-tokens.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { RequestBody } from '#app/lib/platform-api.ts'

/** The password form's schema, with the default messages in the user's language. */
export function passwordSchema(t: TFunction) {
  const rules = formRules(t)
  return z
    .object({
      intent: z.literal('password'),
      current_password: rules.requiredText(1024),
      new_password: rules.minText(12, 1024),
      confirm_password: rules.requiredText(1024),
    })
    .refine((v) => v.new_password === v.confirm_password, { path: ['confirm_password'], message: t('common:profile.passwordMismatch') })
}

const codeSchema = (t: TFunction) => z.object({ intent: z.literal('two-factor-confirm'), code: formRules(t).format(/^\d{6}$/) })

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const t = getInstance(context).t
  const theme = readCookie(request, 'theme')
  const view = readPermissionView(request)
  const isStaff = hasPermission(user, 'staff', { ignoreHidden: true })
  return {
    locale: getLocale(context),
    theme: isTheme(theme) ? theme : 'system',
    isStaff,
    permissions: isStaff ? [...expandPermissions(user.roles, user.abilities)].sort() : [],
    view,
    apiTokens: await loadTokens(request, context, user, null),
    meta: pageMeta(request, context, t('profile.title')),
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  await requireUser(request, context)
  const t = getInstance(context).t
  const formData = await request.formData()
  const intent = formData.get('intent')
  const platform = await getPlatform(request, context)
  const tokenAnswer = await tokenAction(request, context, t, formData, null)
  if (tokenAnswer) return tokenAnswer

  if (intent === 'preferences') {
    const headers = new Headers()
    const lng = formData.get('lng')
    const theme = formData.get('theme')
    const patch: RequestBody<'/profile', 'patch'> = {}
    if (isUiLanguage(lng)) {
      headers.append('Set-Cookie', serializeCookie('lng', lng, { maxAge: YEAR_SECONDS }))
      patch.language = lng
    }
    if (isTheme(theme)) {
      headers.append('Set-Cookie', serializeCookie('theme', theme, { maxAge: YEAR_SECONDS }))
      patch.dark_theme = theme === 'dark'
    } else headers.append('Set-Cookie', clearCookie('theme'))
    await saveProfilePreference(request, context, patch)
    const lt = getInstance(context).getFixedT(isUiLanguage(lng) ? lng : getLocale(context), 'common')
    headers.append('Set-Cookie', flashHeader(request, { content: lt('profile.saved'), color: 'success' }))
    return redirect(requestUrl(request).pathname + requestUrl(request).search, { headers })
  }

  if (intent === 'password') {
    const submission = parseWithZod(formData, { schema: passwordSchema(t) })
    if (submission.status !== 'success')
      return data({ intent: 'password' as const, result: submission.reply({ hideFields: ['current_password', 'new_password', 'confirm_password'] }) }, { status: 400 })
    try {
      const tokens = await platform.put('/profile/password', {
        body: {
          current_password: submission.value.current_password,
          new_password: submission.value.new_password,
        },
      })
      await replaceSessionTokens(request, context, tokens)
    } catch (error) {
      const errors = refusalErrors(t, refusalOf(error).problem, ['current_password', 'new_password'], { password: 'new_password' })
      return data({ intent: 'password' as const, result: submission.reply({ ...errors, hideFields: ['current_password', 'new_password', 'confirm_password'] }) }, { status: 400 })
    }
    return redirect(requestUrl(request).pathname, { headers: { 'Set-Cookie': flashHeader(request, { content: t('profile.passwordChanged'), color: 'success' }) } })
  }

  if (intent === 'two-factor-start') {
    try {
      const start = await platform.post('/profile/two_factor')
      return { intent: 'two-factor-start' as const, start }
    } catch (error) {
      const refused = refusalOf(error)
      return data({ intent: 'two-factor-error' as const, message: refusalText(t, refused.problem) }, { status: refused.status })
    }
  }

  if (intent === 'two-factor-confirm') {
    const submission = parseWithZod(formData, { schema: codeSchema(t) })
    const start = { secret: String(formData.get('secret') ?? ''), otpauth_uri: String(formData.get('otpauth_uri') ?? ''), qr_svg: '' }
    if (submission.status !== 'success') return data({ intent: 'two-factor-confirm' as const, result: submission.reply(), start }, { status: 400 })
    try {
      const { recovery_codes } = await platform.post('/profile/two_factor/confirm', { body: { code: submission.value.code } })
      return { intent: 'two-factor-done' as const, recoveryCodes: recovery_codes }
    } catch (error) {
      return data({ intent: 'two-factor-confirm' as const, result: submission.reply({ fieldErrors: { code: [refusalTextOf(t, error)] } }), start }, { status: 400 })
    }
  }
  throw data('Unknown form', { status: 400 })
}

function PreferencesCard({ locale, theme }: { locale: string; theme: string }) {
  const { t } = useTranslation('common')
  return (
    <Card>
      <CardTitle>{t('profile.preferences')}</CardTitle>
      <Form method="post" reloadDocument className="flex flex-wrap items-end gap-4">
        <input type="hidden" name="intent" value="preferences" />
        <label className="flex flex-col gap-1 text-sm">
          {t('profile.language')}
          <Select name="lng" defaultValue={locale} className="w-44" data-testid="profile-language">
            {UI_LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {t(`languages.${lng}`)}
              </option>
            ))}
          </Select>
        </label>
        <fieldset className="flex gap-3 text-sm">
          <legend className="mb-1">{t('profile.theme')}</legend>
          {(['light', 'dark', 'system'] as const).map((value) => (
            <label key={value} className="flex items-center gap-1">
              <input type="radio" name="theme" value={value} defaultChecked={theme === value} />
              {t(`profile.${value}`)}
            </label>
          ))}
        </fieldset>
        <Button type="submit" data-testid="profile-save">
          {t('profile.save')}
        </Button>
      </Form>
    </Card>
  )
}

function PasswordCard() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const lastResult = actionData && 'result' in actionData && actionData.intent === 'password' ? actionData.result : undefined
  const schema = passwordSchema(t)
  const [form, fields] = useZodForm(schema, { id: 'password-form', lastResult })
  return (
    <Card>
      <CardTitle>{t('common:profile.password')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="grid max-w-md gap-2">
        <input type="hidden" name="intent" value="password" />
        <Field
          labelProps={{ children: t('common:profile.currentPassword') }}
          inputProps={{ ...getInputProps(fields.current_password, { type: 'password' }), autoComplete: 'current-password' }}
          errors={fields.current_password.errors}
        />
        <Field
          labelProps={{ children: t('common:profile.newPassword') }}
          inputProps={{ ...getInputProps(fields.new_password, { type: 'password' }), autoComplete: 'new-password' }}
          errors={fields.new_password.errors}
        />
        <Field
          labelProps={{ children: t('common:profile.confirmPassword') }}
          inputProps={{ ...getInputProps(fields.confirm_password, { type: 'password' }), autoComplete: 'new-password' }}
          errors={fields.confirm_password.errors}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <Button type="submit" className="justify-self-start">
          {t('common:profile.changePassword')}
        </Button>
      </Form>
    </Card>
  )
}

function TwoFactorCard() {
  const { t } = useTranslation()
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const start = actionData && 'start' in actionData ? actionData.start : null
  const codes = actionData?.intent === 'two-factor-done' ? actionData.recoveryCodes : null
  const lastResult = actionData?.intent === 'two-factor-confirm' ? actionData.result : undefined
  const schema = codeSchema(t)
  const [form, fields] = useZodForm(schema, { id: 'two-factor-form', lastResult })
  return (
    <Card>
      <CardTitle>{t('common:profile.twoFactor')}</CardTitle>
      {codes ? (
        <div className="space-y-2" data-testid="recovery-codes">
          <Alert variant="success">{t('common:profile.twoFactorOn')}</Alert>
          <h3 className="font-medium">{t('common:profile.recoveryCodes')}</h3>
          <p className="text-sm">{t('common:profile.recoveryIntro')}</p>
          <pre className="rounded bg-slate-100 p-3 font-mono text-sm dark:bg-slate-800">{codes.join('\n')}</pre>
          <Button type="button" variant="outline" onClick={() => copyToClipboard(codes.join('\n'), { copied: t('common:actions.copied'), failed: t('common:profile.copyFailed') })}>
            {t('common:profile.copyCodes')}
          </Button>
        </div>
      ) : start ? (
        <div className="space-y-3">
          <p className="text-sm">{t('common:profile.twoFactorScan')}</p>
          {start.qr_svg ? <div className="size-48 bg-white p-2 [&>svg]:size-full" dangerouslySetInnerHTML={{ __html: start.qr_svg }} /> : null}
          <p className="text-sm">
            {t('common:profile.secret')}:{' '}
            <code className="break-all" data-testid="two-factor-secret">
              {start.secret}
            </code>
          </p>
          <Form method="post" {...getFormProps(form)} className="flex max-w-md items-start gap-2">
            <input type="hidden" name="intent" value="two-factor-confirm" />
            <input type="hidden" name="secret" value={start.secret} />
            <input type="hidden" name="otpauth_uri" value={start.otpauth_uri} />
            <Field
              className="flex-1"
              labelProps={{ children: t('common:profile.code') }}
              inputProps={{ ...getInputProps(fields.code, { type: 'text' }), inputMode: 'numeric', autoComplete: 'one-time-code' }}
              errors={fields.code.errors}
            />
            <Button type="submit" className="mt-6">
              {t('common:profile.confirm')}
            </Button>
          </Form>
        </div>
      ) : (
        <Form method="post" className="space-y-2">
          <p className="text-sm">{t('common:profile.twoFactorIntro')}</p>
          {actionData?.intent === 'two-factor-error' ? <Alert variant="error">{actionData.message}</Alert> : null}
          <input type="hidden" name="intent" value="two-factor-start" />
          <Button type="submit" disabled={navigation.state === 'submitting'}>
            {t('common:profile.twoFactorStart')}
          </Button>
        </Form>
      )}
    </Card>
  )
}

function PermissionViewCard({ permissions, view }: { permissions: string[]; view: { hiddenPermissions: Record<string, boolean>; highlightColors: Record<string, string> } }) {
  const { t } = useTranslation('common')
  const { pathname } = useLocation()
  return (
    <Card data-testid="permission-view">
      <CardTitle>{t('permissionView.title')}</CardTitle>
      <p className="mb-3 text-sm">{t('permissionView.intro')}</p>
      <Form method="post" action="/preferences/permission-view" className="space-y-2">
        <input type="hidden" name="redirectTo" value={pathname} />
        <table className="text-sm">
          <thead>
            <tr>
              <th className="pr-4 text-left">{t('permissionView.permission')}</th>
              <th className="pr-4">{t('permissionView.hide')}</th>
              <th>{t('permissionView.highlight')}</th>
            </tr>
          </thead>
          <tbody>
            {permissions.map((p) => (
              <tr key={p}>
                <td className="pr-4 font-mono">{p}</td>
                <td className="pr-4 text-center">
                  <input type="checkbox" name="hide" value={p} defaultChecked={Boolean(view.hiddenPermissions[p])} aria-label={`${t('permissionView.hide')} ${p}`} />
                </td>
                <td>
                  <select
                    name={`color:${p}`}
                    defaultValue={view.highlightColors[p] ?? ''}
                    className="rounded border border-slate-300 bg-transparent text-sm dark:border-slate-700"
                    aria-label={`${t('permissionView.highlight')} ${p}`}
                  >
                    <option value="">{t('permissionView.none')}</option>
                    {HIGHLIGHT_COLORS.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex gap-2">
          <Button type="submit">{t('actions.save')}</Button>
          <Button type="submit" name="intent" value="reset" variant="outline">
            {t('permissionView.reset')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

/** The token card's answer among the page's actions. */
const tokenActionData = (answer: unknown) => (answer && typeof answer === 'object' && 'intent' in answer && String(answer.intent).startsWith('token-') ? (answer as TokenActionData) : undefined)

export default function MyProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('common')
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold">{t('profile.title')}</h1>
      <PreferencesCard locale={loaderData.locale} theme={loaderData.theme} />
      <PasswordCard />
      <TwoFactorCard />
      <ApiTokensCard {...loaderData.apiTokens} newTo="/my-profile/api-tokens/new" actionData={tokenActionData(actionData)} />
      {loaderData.isStaff ? <PermissionViewCard permissions={loaderData.permissions} view={loaderData.view} /> : null}
      <Outlet />
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useLocation } from 'react-router'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ACCOUNT_FIELDS, accountBody, AccountForm, accountSchema } from './account-form.tsx'
import type { Route } from './+types/new.ts'

/** /accounts/new: a new account's form, a sheet over the accounts list (staff's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  return { meta: pageMeta(request, context, getInstance(context).t('directory:accounts.new')) }
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

export default function NewAccount({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['directory', 'common'])
  const { search } = useLocation()
  const closeTo = `/accounts${search}`
  return (
    <Sheet
      title={t('accounts.new')}
      closeTo={closeTo}
      testId="account-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="account-new" testId="account-create-submit">
          {t('accounts.create')}
        </SheetSubmit>
      }
    >
      <AccountForm
        idPrefix="account-new"
        defaultValue={{ name: '', currency: 'EUR', language: 'en' }}
        lastResult={actionData?.result}
        withStatus={false}
        submitLabel={t('accounts.create')}
        submitInFooter
      />
    </Sheet>
  )
}

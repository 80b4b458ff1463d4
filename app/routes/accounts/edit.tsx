import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useRouteLoaderData } from 'react-router'
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
import { hasPermission } from '#common/permissions.ts'
import { ACCOUNT_FIELDS, accountBody, AccountForm, accountSchema, type AccountValues } from './account-form.tsx'
import type { loader as accountLoader } from './detail.tsx'
import type { Route } from './+types/edit.ts'

/** /accounts/{id}/edit: the account's form, a sheet over its read-only details (an account manager's; the status staff's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'account-manager')
  return { meta: pageMeta(request, context, getInstance(context).t('directory:accounts.edit')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'account-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: accountSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const body = accountBody(submission.value, hasPermission(user, 'staff', { ignoreHidden: true }))
  try {
    await (await getPlatform(request, context)).patch('/accounts/{id}', { path: { id: params.id }, body: { ...body, version: Number(formData.get('version')) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ACCOUNT_FIELDS)) }, { status: 400 })
  }
  // Saved: the sheet closes onto the details, which now read the new values.
  return redirect(carryContext(`/accounts/${params.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export default function EditAccount({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['directory', 'common'])
  const { account, isStaff } = useRouteLoaderData<typeof accountLoader>('routes/accounts/detail')!
  const closeTo = `/accounts/${account.id}`
  return (
    <Sheet
      title={t('accounts.edit')}
      description={account.name}
      closeTo={closeTo}
      testId="account-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="account-edit" testId="account-save">
          {t('save')}
        </SheetSubmit>
      }
    >
      <AccountForm key={account.version} idPrefix="account-edit" defaultValue={account as AccountValues} lastResult={actionData?.result} withStatus={isStaff} submitLabel={t('save')} submitInFooter>
        <input type="hidden" name="version" value={account.version} />
      </AccountForm>
    </Sheet>
  )
}

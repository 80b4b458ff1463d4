import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Link, redirect } from 'react-router'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { ACCOUNT_FIELDS, accountBody, AccountForm, accountSchema, type AccountValues } from './account-form.tsx'
import { DetailList, SubNav, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/detail.ts'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const account = await (await getPlatform(request, context)).get('/accounts/{id}', { path: { id: params.id } })
  const isStaff = hasPermission(user, 'staff', { ignoreHidden: true })
  return { account, isStaff, canEdit: canChange(request, user, 'account-manager'), meta: pageMeta(request, context, account.name) }
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
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export default function AccountDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['directory', 'common', 'webhooks'])
  const { account, canEdit, isStaff } = loaderData
  const base = `/accounts/${account.id}`
  const inAccount = (path: string) => `${path}?context=${account.id}`
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={isStaff ? [{ label: t('accounts.title'), to: '/accounts' }] : undefined}
        title={account.name}
        status={<StatusBadge kind="account" code={account.status} />}
        description={`${account.currency} · ${t(`common:languages.${account.language}`, { defaultValue: account.language })}`}
        actions={
          canEdit ? (
            <HeaderAction to="#account-edit-section" primary>
              {t('accounts.edit')}
            </HeaderAction>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: base, label: t('details'), current: true },
          { to: `${base}/log`, label: t('log') },
          { to: `${base}/webhooks`, label: t('webhooks:title') },
        ]}
      />
      <Card>
        <DetailList
          rows={[
            [t('accounts.fields.name'), account.name],
            [t('accounts.fields.status'), <StatusBadge kind="account" code={account.status} />],
            [t('accounts.fields.currency'), account.currency],
            [t('accounts.fields.language'), t(`common:languages.${account.language}`, { defaultValue: account.language })],
            [t('accounts.fields.is_registrar'), yesNo(t, account.is_registrar)],
            [
              t('accounts.users'),
              isStaff ? (
                <Link className="text-blue-700 underline dark:text-blue-400" to={inAccount('/users')}>
                  {account.user_count}
                </Link>
              ) : (
                account.user_count
              ),
            ],
            [
              t('accounts.domains'),
              isStaff ? (
                <Link className="text-blue-700 underline dark:text-blue-400" to={inAccount('/domains')}>
                  {account.domain_count}
                </Link>
              ) : (
                account.domain_count
              ),
            ],
            [
              t('accounts.contacts'),
              isStaff ? (
                <Link className="text-blue-700 underline dark:text-blue-400" to={inAccount('/contacts')}>
                  {account.contact_count}
                </Link>
              ) : (
                account.contact_count
              ),
            ],
            [t('accounts.fields.created_at'), <DateText key="created" value={account.created_at} lng={i18n.language} />],
          ]}
        />
      </Card>
      {canEdit ? (
        <Card id="account-edit-section" className="scroll-mt-4">
          <CardTitle>{t('accounts.edit')}</CardTitle>
          <AccountForm
            key={account.version}
            idPrefix="account-edit"
            defaultValue={account as AccountValues}
            lastResult={actionData?.result}
            withStatus={isStaff}
            submitLabel={t('save')}
            submitTestId="account-save"
          >
            <input type="hidden" name="version" value={account.version} />
          </AccountForm>
        </Card>
      ) : null}
    </div>
  )
}

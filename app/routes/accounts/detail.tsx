import { useTranslation } from '#app/lib/use-translation.ts'
import { Link, Outlet } from 'react-router'
import { Card } from '#app/components/ui/card.tsx'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { DetailList, SubNav, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/detail.ts'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const platform = await getPlatform(request, context)
  const isStaff = hasPermission(user, 'staff', { ignoreHidden: true })
  // The price list it is on (issue 28, item 13): staff's to see and to set, as the prices behind every charge.
  const [account, pricing] = await Promise.all([
    platform.get('/accounts/{id}', { path: { id: params.id } }),
    isStaff ? platform.get('/accounts/{id}/pricing-entity', { path: { id: params.id } }) : Promise.resolve(null),
  ])
  return { account, pricing, isStaff, canEdit: canChange(request, user, 'account-manager'), meta: pageMeta(request, context, account.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function AccountDetail({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['directory', 'common', 'webhooks'])
  const { account, pricing, canEdit, isStaff } = loaderData
  const priceList = pricing?.pricing_entity ?? null
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
            // The details read as text; Edit opens the form in a sheet over them (/accounts/{id}/edit).
            <HeaderAction to={`${base}/edit`} primary preventScrollReset data-testid="account-edit">
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
            ...(priceList
              ? [
                  [
                    t('accounts.fields.pricing_entity'),
                    <Link key="price-list" className="text-blue-700 underline dark:text-blue-400" to={`/invoicing/pricing-entities/${priceList.id}`} data-testid="account-price-list">
                      {pricing?.assigned ? priceList.name : t('accounts.defaultPriceList', { name: priceList.name })}
                    </Link>,
                  ] satisfies [string, React.ReactNode],
                ]
              : []),
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
      <Outlet />
    </div>
  )
}

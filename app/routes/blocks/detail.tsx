import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { FormErrors } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { CardTable, CardTableRow, ConfirmAction, DetailList } from '#app/components/screen-parts.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import { toUnicodeName } from '#common/domain-name.ts'
import { formatMoney } from '#common/money.ts'
import { BlockStatus, useRefreshWhile } from './shared.tsx'
import type { Route } from './+types/detail.ts'
import { PlatformError } from '#app/lib/platform-client.ts'
import { ChargeConfirmation, shownPriceOf, type ShownPrice } from '#app/components/charge-confirmation.tsx'

/** A renewal's period and the engine's price for it, shown to confirm before it is charged. */
type RenewQuote = { period_years: number; price: ShownPrice }

/** The block of /blocks/{id} for a screen (another account's or a missing one: the 404 screen). */
async function loadBlock(request: Request, context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const block = await platform.get('/groups/{context}/blocks/{id}', { path: { context: groupContext, id: params.id } })
  return { user, url, groupContext, platform, block }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, block, platform, groupContext } = await loadBlock(request, context, params)
  const manager = canChange(request, user, 'domain-manager')
  // The renewal's price per period (the pricing engine's quote for the account), for whoever can renew.
  const offers = manager ? (await platform.get('/groups/{context}/block-products', { path: { context: groupContext } })).data : []
  return { block, offer: offers.find((o) => o.code === block.product_code) ?? null, canChange: manager, meta: pageMeta(request, context, block.label_unicode) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, url, groupContext, platform, block } = await loadBlock(request, context, params)
  requireChange(request, user, 'domain-manager')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  // A renewal charges: the first submit shows the period and the engine's price for it (the block
  // products' quotes, the ones the charge takes) and charges nothing; the confirmation posts the
  // price shown, which the API holds the charge to (issue 28).
  const period_years = Number(form.get('period_years'))
  const quoteOf = async (years: number): Promise<RenewQuote> => {
    const offers = (await platform.get('/groups/{context}/block-products', { path: { context: groupContext } })).data
    const row = offers.find((o) => o.code === block.product_code)?.prices.find((p) => p.period_years === years)
    return { period_years: years, price: row ? { amount_minor: row.renew_minor, currency: row.currency } : null }
  }
  if (intent === 'renew') return { errors: undefined, confirm: await quoteOf(period_years) }
  try {
    if (intent === 'renew-confirmed')
      await platform.post('/groups/{context}/blocks/{id}/renew', { path: { context: groupContext, id: block.id }, body: { period_years, expected: shownPriceOf(form) ?? null } })
    else if (intent === 'cancel') await platform.post('/groups/{context}/blocks/{id}/cancel', { path: { context: groupContext, id: block.id } })
    else return data({ errors: [t('blocks:errors.unknown')] }, { status: 400 })
  } catch (error) {
    // The price changed in between: nothing was charged; the new price is asked again.
    const changed = error instanceof PlatformError && (error.data as { code?: string } | null)?.code === 'billing.quote_changed'
    return data({ errors: formErrorsOf(t, error, [], {}, 'blocks').formErrors, ...(changed ? { confirm: await quoteOf(period_years) } : {}) }, { status: 400 })
  }
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t(`blocks:done.${intent === 'cancel' ? 'cancel' : 'renew'}`), color: 'success' }) } })
}

export default function BlockDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('blocks')
  const href = useContextHref()
  const { block: b, offer } = loaderData
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '')
  useRefreshWhile(b.status === 'pending')
  const navigation = useNavigation()
  const confirm = actionData && 'confirm' in actionData ? (actionData.confirm as RenewQuote | undefined) : undefined
  const live = b.status === 'active' || b.status === 'expiring'
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/blocks' }]}
        title={
          <span className="break-all" data-testid="block-title">
            {b.label_unicode}
          </span>
        }
        status={<BlockStatus status={b.status} />}
      />
      {actionData?.errors ? <FormErrors errors={actionData.errors} /> : null}
      {b.status === 'pending' ? (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100" data-testid="block-pending">
          {t('pending')}
        </p>
      ) : null}
      {b.status === 'failed' && b.failure_reason ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="block-failure">
          {t('failed', { reason: b.failure_reason })}
        </p>
      ) : null}
      <Card>
        <DetailList
          rows={[
            [t('fields.label_unicode'), <span className="font-mono">{b.label_unicode}</span>],
            ...(b.label !== b.label_unicode ? [[t('fields.label'), <span className="font-mono text-xs">{b.label}</span>] as [string, React.ReactNode]] : []),
            [t('fields.product_code'), b.product_name ? `${productName(t, { name: b.product_name, code: b.product_code })} (${b.product_code})` : b.product_code],
            [t('fields.trademark_ref'), b.trademark_ref],
            [t('fields.period_years'), t('years', { count: b.period_years })],
            // What the provider answered, once it placed the block.
            ...(b.provider_id
              ? ([
                  [t('fields.expires_at'), when(b.expires_at)],
                  [t('fields.provider_id'), `${b.provider_id} · ${b.provider ?? ''}`],
                  [t('fields.placed_at'), when(b.placed_at)],
                ] as [string, string][])
              : []),
            ...(b.cancelled_at ? [[t('fields.cancelled_at'), when(b.cancelled_at)] as [string, string]] : []),
            [t('fields.account_name'), b.account_name],
            [t('fields.created_at'), `${when(b.created_at)} · ${b.created_by}`],
          ]}
        />
      </Card>
      <Card>
        <CardTitle>{t('covered.title', { count: b.covered_tlds.length })}</CardTitle>
        {b.covered_tlds.length ? (
          <ul className="flex flex-wrap gap-1.5" data-testid="block-tlds">
            {b.covered_tlds.map((tld) => (
              <li key={tld}>
                <Badge color="teal" title={tld}>
                  .{toUnicodeName(tld)}
                </Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{t(b.status === 'pending' ? 'covered.pending' : 'covered.none')}</p>
        )}
      </Card>
      <Card>
        <CardTitle>{t('charges.title')}</CardTitle>
        <CardTable
          items={b.transactions}
          minWidth="min-w-[32rem]"
          testId="block-charges"
          empty={{ text: t('charges.none'), testId: 'block-charges-empty' }}
          headings={[{ label: t('charges.when') }, { label: t('charges.action') }, { label: t('charges.amount'), className: 'text-right' }, { label: t('charges.state') }]}
          render={(x) => (
            <CardTableRow key={x.transaction_id} testId="block-charge">
              <td className="py-2 pr-3">
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/invoicing/transactions/${x.transaction_id}`)}>
                  {when(x.created_at)}
                </Link>
              </td>
              <td className="py-2 pr-3">{t(`charges.actions.${x.action}`, { defaultValue: x.action })}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(x.amount_minor, x.currency, i18n.language)}</td>
              <td className="py-2">{t(`charges.states.${x.state}`)}</td>
            </CardTableRow>
          )}
        />
      </Card>
      {loaderData.canChange && (live || b.status === 'pending') ? (
        <Card>
          <CardTitle>{t('actions')}</CardTitle>
          <div className="flex flex-wrap items-start gap-4">
            {live && confirm ? (
              <ChargeConfirmation
                question={t('renew.confirm', {
                  label: b.label_unicode,
                  count: confirm.period_years,
                  price: confirm.price ? formatMoney(confirm.price.amount_minor, confirm.price.currency, i18n.language) : t('renew.noCharge'),
                })}
                note={t('renew.chargeNote')}
                confirmLabel={t('renew.confirmCharge')}
                cancelLabel={t('renew.cancelCharge')}
                intent="renew-confirmed"
                fields={{ period_years: confirm.period_years }}
                price={confirm.price}
                busy={navigation.state !== 'idle'}
                testId="block-renew"
              />
            ) : null}
            {live ? (
              <Form method="post" className="flex flex-wrap items-end gap-3" data-testid="block-renew-form">
                <input type="hidden" name="intent" value="renew" />
                <label className="flex flex-col gap-1 text-sm">
                  {t('renew.period')}
                  <Select name="period_years" defaultValue={String(offer?.periods[0] ?? b.period_years)} data-testid="block-renew-period">
                    {(offer?.periods ?? [b.period_years]).map((years) => {
                      const price = offer?.prices.find((p) => p.period_years === years)
                      return (
                        <option key={years} value={years}>
                          {t('years', { count: years })}
                          {price ? ` — ${formatMoney(price.renew_minor, price.currency, i18n.language)}` : ''}
                        </option>
                      )
                    })}
                  </Select>
                </label>
                <Button type="submit" size="sm" data-testid="block-renew">
                  {t('renew.submit')}
                </Button>
              </Form>
            ) : null}
            <ConfirmAction
              intent="cancel"
              label={t('cancel.label')}
              question={t(b.status === 'pending' ? 'cancel.questionPending' : 'cancel.question')}
              confirmLabel={t('cancel.confirm')}
              variant="destructive"
            />
          </div>
        </Card>
      ) : null}
    </div>
  )
}

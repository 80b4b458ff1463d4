import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDate, formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import { DetailList } from '#app/components/screen-parts.tsx'
import { requireChange } from '#app/lib/guards.server.ts'
import { billingScreen } from './billing.server.ts'
import { moneyOf, TransactionTabs } from './billing.tsx'
import { RuleChain } from './shared.tsx'
import { refundSchema } from './billing-forms.ts'
import type { Route } from './+types/transaction.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** /invoicing/transactions/{id}: one charge, where its price came from (staff: the chain of rules, cost and rates), and a refund (staff). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const transaction = await screen.platform.get('/groups/{context}/transactions/{id}', { path: { context: screen.groupContext, id: params.id } })
  const t = getInstance(context).t
  const title = t('billing:transactions.title_one', {
    action: t(`billing:transactions.actions.${transaction.action}`, { defaultValue: transaction.action }),
    name: transaction.object_name || productName(t, { name: transaction.product_name, code: transaction.product_code }),
  })
  return { transaction, title, staff: screen.staff, meta: pageMeta(request, context, title) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: refundSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await screen.platform.post('/groups/{context}/transactions/{id}/refund', { path: { context: screen.groupContext, id: params.id }, body: submission.value })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['reason'], {}, 'billing')) }, { status: 400 })
  }
  return redirect(screen.url.pathname + screen.url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('billing:transactions.refunded'), color: 'success' }) } })
}

type QuoteView = NonNullable<Answer<'/groups/{context}/transactions/{id}'>['quote']>

export default function TransactionDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('billing')
  const href = useContextHref()
  const { transaction: tx, staff } = loaderData
  const quote = tx.quote as QuoteView | null
  const money = (minor: number) => moneyOf(minor, tx.currency, i18n.language)
  return (
    <div className="space-y-4">
      <PageHeader
        title={loaderData.title}
        status={<StatusBadge kind="transaction" code={tx.state} data-testid="transaction-state" />}
        breadcrumb={[
          { to: '/invoicing', label: t('common:nav.invoicing') },
          { to: '/invoicing/transactions', label: t('transactions.title') },
        ]}
      />
      <TransactionTabs id={tx.id} current="details" />
      <Card>
        <DetailList
          rows={[
            [
              t('transactions.amount'),
              <span className="text-base font-semibold tabular-nums" data-testid="transaction-amount">
                {money(tx.amount_minor)}
              </span>,
            ],
            [
              t('transactions.unit'),
              <span className="tabular-nums">
                {money(tx.unit_minor)} × {tx.period}
              </span>,
            ],
            [
              t('transactions.fields.product.name'),
              <span>
                {productName(t, { name: tx.product_name, code: tx.product_code })} {tx.product_name ? <span className="font-mono text-xs text-slate-500">{tx.product_code}</span> : null}
              </span>,
            ],
            [
              t('transactions.domain'),
              tx.domain_id ? (
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/domains/${tx.domain_id}`)}>
                  {tx.object_name}
                </Link>
              ) : (
                tx.object_name
              ),
            ],
            [
              t('transactions.order'),
              tx.order_id ? (
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/domains/orders/${tx.order_id}`)}>
                  {tx.order_id.slice(0, 8)}
                </Link>
              ) : (
                ''
              ),
            ],
            [t('transactions.account'), tx.account_name],
            [
              t('transactions.entity'),
              tx.billing_entity_id ? (
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/invoicing/billing-entities/${tx.billing_entity_id}`)}>
                  {tx.billing_entity_name}
                </Link>
              ) : (
                ''
              ),
            ],
            [t('transactions.fields.created_at'), <time dateTime={tx.created_at}>{formatDateTime(tx.created_at, i18n.language)}</time>],
            [t('transactions.settledAt'), tx.settled_at ? <time dateTime={tx.settled_at}>{formatDateTime(tx.settled_at, i18n.language)}</time> : ''],
            [t('transactions.by'), tx.actor_label],
            [t('transactions.reason'), tx.reason],
            [t('transactions.key'), <span className="font-mono text-xs">{tx.idempotency_key}</span>],
          ]}
        />
      </Card>
      <Card>
        <CardTitle>{t('transactions.why')}</CardTitle>
        {quote ? (
          <div className="space-y-3 text-sm" data-testid="transaction-quote">
            {quote.priced_at ? <p className="text-slate-600 dark:text-slate-400">{t('transactions.pricedAt', { date: formatDateTime(quote.priced_at, i18n.language) })}</p> : null}
            {quote.chain ? (
              <div>
                <h3 className="mb-1 font-medium">{t('transactions.chain')}</h3>
                <RuleChain chain={quote.chain} currency={tx.currency} productId={quote.product_id ?? ''} />
              </div>
            ) : null}
            {quote.cost_minor !== undefined && quote.cost_currency ? (
              <p>
                {t('transactions.cost')}: <span className="tabular-nums">{moneyOf(quote.cost_minor, quote.cost_currency, i18n.language)}</span>
              </p>
            ) : null}
            {quote.rates?.length ? (
              <p>
                {t('transactions.rates')}: {quote.rates.map((r) => `1 ${r.from} = ${r.rate} ${r.to} (${formatDate(r.date, i18n.language)})`).join('; ')}
              </p>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-500">{t('transactions.noQuote')}</p>
        )}
      </Card>
      {staff && tx.state === 'settled' ? <RefundForm lastResult={actionData?.result} /> : null}
    </div>
  )
}

function RefundForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(refundSchema(t), { id: 'refund', lastResult })
  return (
    <Card>
      <CardTitle>{t('transactions.refundTitle')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('transactions.refundHelp')}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={t('transactions.refundTitle')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          className="max-w-2xl"
          labelProps={{ children: t('transactions.reason') }}
          inputProps={{ ...getInputProps(fields.reason, { type: 'text' }), maxLength: 500 }}
          errors={fields.reason.errors}
        />
        <Button type="submit" variant="outline">
          {t('transactions.refund')}
        </Button>
      </Form>
    </Card>
  )
}

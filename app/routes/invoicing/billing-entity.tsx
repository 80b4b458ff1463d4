import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { countryName } from '#common/countries.ts'
import { PAYMENT_KINDS } from '#common/billing.ts'
import { DetailList } from '#app/components/screen-parts.tsx'
import { requireChange } from '#app/lib/guards.server.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { billingScreen, loadEntity } from './billing.server.ts'
import { Invoices } from './invoices.tsx'
import { EntityFields, EntityTabs, moneyOf, type BillingEntity } from './billing.tsx'
import { entityBody, entitySchema, ENTITY_FIELDS, PAYMENT_FIELDS, paymentSchema, TERMS_FIELDS, termsSchema } from './billing-forms.ts'
import { moneyText } from './shared.tsx'
import type { Route } from './+types/billing-entity.ts'

/** /invoicing/billing-entities/{id}: the entity, its balance or credit per currency and its payments; staff record payments, set limits, edit it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const entity = await loadEntity(screen, params.id)
  const invoices = (await screen.platform.get('/groups/{context}/billing-entities/{id}/invoices', { path: { context: screen.groupContext, id: entity.id } })).data
  return { entity, invoices, staff: screen.staff, countries: screen.staff ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, entity.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const INTENTS = ['payment', 'terms', 'edit'] as const
type Intent = (typeof INTENTS)[number]

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent: Intent = INTENTS.find((i) => i === form.get('intent')) ?? 'edit'
  const refused = (submission: { reply: (options?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) => SubmissionResult<string[]> }, error: unknown, fields: readonly string[]) =>
    data({ intent, result: submission.reply(formErrorsOf(t, error, fields, {}, 'billing')) }, { status: 400 })
  if (intent === 'payment') {
    const submission = parseWithZod(form, { schema: paymentSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await screen.platform.post('/groups/{context}/billing-entities/{id}/payments', { path: { context: screen.groupContext, id: params.id }, body: submission.value })
    } catch (error) {
      return refused(submission, error, PAYMENT_FIELDS)
    }
  } else if (intent === 'terms') {
    const submission = parseWithZod(form, { schema: termsSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { currency, credit_limit, low_balance } = submission.value
    try {
      await screen.platform.put('/groups/{context}/billing-entities/{id}/balances/{currency}', {
        path: { context: screen.groupContext, id: params.id, currency },
        body: { credit_limit: credit_limit ?? '0', low_balance: low_balance ?? null },
      })
    } catch (error) {
      return refused(submission, error, TERMS_FIELDS)
    }
  } else {
    const submission = parseWithZod(form, { schema: entitySchema(t, false) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await screen.platform.patch('/groups/{context}/billing-entities/{id}', {
        path: { context: screen.groupContext, id: params.id },
        body: { ...entityBody(submission.value), version: submission.value.version! },
      })
    } catch (error) {
      return refused(submission, error, ENTITY_FIELDS)
    }
  }
  const saved = intent === 'payment' ? t('billing:payments.recorded') : t('billing:entities.saved')
  return redirect(screen.url.pathname + screen.url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: saved, color: 'success' }) } })
}

type Answer = { intent: Intent; result: SubmissionResult<string[]> } | undefined
const resultOf = (answer: Answer, intent: Intent) => (answer?.intent === intent ? answer.result : undefined)

function PaymentForm({ entity, lastResult }: { entity: BillingEntity; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(
    paymentSchema(
      t,
      entity.balances.map((b) => b.currency),
    ),
    { id: 'payment', lastResult, defaultValue: { kind: 'payment', currency: entity.currency } },
  )
  return (
    <Card>
      <CardTitle>{t('payments.record')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={t('payments.record')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField label={t('payments.kind')} selectProps={{ ...getSelectProps(fields.kind), id: fields.kind.id }} errors={fields.kind.errors}>
            {PAYMENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`payments.kinds.${k}`)}
              </option>
            ))}
          </SelectField>
          <Field
            labelProps={{ children: t('payments.currency') }}
            inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3, className: 'font-mono uppercase' }}
            errors={fields.currency.errors}
          />
          <Field
            labelProps={{ children: t('payments.amount') }}
            inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', maxLength: 40 }}
            errors={fields.amount.errors}
          />
          <Field labelProps={{ children: t('payments.reference') }} inputProps={{ ...getInputProps(fields.reference, { type: 'text' }), maxLength: 200 }} errors={fields.reference.errors} />
        </div>
        <Field
          className="max-w-2xl"
          labelProps={{ children: t('payments.reason') }}
          inputProps={{ ...getInputProps(fields.reason, { type: 'text' }), maxLength: 500, placeholder: t('payments.reasonHelp') }}
          errors={fields.reason.errors}
        />
        <Button type="submit" name="intent" value="payment">
          {t('payments.save')}
        </Button>
      </Form>
    </Card>
  )
}

function TermsForm({ entity, lastResult }: { entity: BillingEntity; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('billing')
  const current = entity.balances.find((b) => b.currency === entity.currency)
  const [form, fields] = useZodForm(termsSchema(t), {
    id: 'terms',
    lastResult,
    defaultValue: {
      currency: entity.currency,
      credit_limit: current ? moneyText(current.credit_limit_minor, current.currency) : '0',
      low_balance: current?.low_balance_minor != null ? moneyText(current.low_balance_minor, current.currency) : '',
    },
  })
  return (
    <Card>
      <CardTitle>{t('balances.termsTitle')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('balances.termsHelp')}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={t('balances.termsTitle')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
          <Field
            labelProps={{ children: t('balances.currency') }}
            inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3, className: 'font-mono uppercase' }}
            errors={fields.currency.errors}
          />
          <Field
            labelProps={{ children: t('balances.creditLimit') }}
            inputProps={{ ...getInputProps(fields.credit_limit, { type: 'text' }), inputMode: 'decimal', maxLength: 40 }}
            errors={fields.credit_limit.errors}
          />
          <Field
            labelProps={{ children: t('balances.lowBalance') }}
            inputProps={{ ...getInputProps(fields.low_balance, { type: 'text' }), inputMode: 'decimal', maxLength: 40 }}
            errors={fields.low_balance.errors}
          />
        </div>
        <Button type="submit" name="intent" value="terms" variant="outline">
          {t('balances.saveTerms')}
        </Button>
      </Form>
    </Card>
  )
}

function EditForm({ entity, lastResult, countries }: { entity: BillingEntity; lastResult: SubmissionResult<string[]> | undefined; countries: { code: string; name: string }[] }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(entitySchema(t, false), {
    id: 'edit-entity',
    lastResult,
    defaultValue: {
      name: entity.name,
      country: entity.country,
      vat_id: entity.vat_id ?? '',
      currency: entity.currency,
      billing_email: entity.billing_email,
      invoice_language: entity.invoice_language,
      payment_terms_days: String(entity.payment_terms_days),
      ...entity.address,
      version: String(entity.version),
    },
  })
  return (
    <Card>
      <CardTitle>{t('entities.edit')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={t('entities.edit')}>
        <input {...getInputProps(fields.version, { type: 'hidden' })} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <EntityFields fields={fields} countries={countries} withCredit={false} />
        <Button type="submit" name="intent" value="edit">
          {t('common:actions.save')}
        </Button>
      </Form>
    </Card>
  )
}

function Balances({ entity }: { entity: BillingEntity }) {
  const { t, i18n } = useTranslation('billing')
  return (
    <div className="overflow-x-auto">
      <Table data-testid="balances">
        <TableHeader>
          <TableRow>
            <TableHead>{t('balances.currency')}</TableHead>
            <TableHead className="text-right">{t('balances.balance')}</TableHead>
            <TableHead className="text-right">{t('balances.creditLimit')}</TableHead>
            <TableHead className="text-right">{t('balances.available')}</TableHead>
            <TableHead className="text-right">{t('balances.lowBalance')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entity.balances.map((b) => (
            <TableRow key={b.currency} data-testid="balance" data-currency={b.currency}>
              <TableCell className="font-mono">{b.currency}</TableCell>
              <TableCell className={`text-right tabular-nums ${b.balance_minor < 0 ? 'text-red-700 dark:text-red-400' : ''}`} data-testid="balance-amount">
                {moneyOf(b.balance_minor, b.currency, i18n.language)}
              </TableCell>
              <TableCell className="text-right tabular-nums">{b.credit_limit_minor === 0 ? t('balances.prepaid') : moneyOf(b.credit_limit_minor, b.currency, i18n.language)}</TableCell>
              <TableCell className="text-right tabular-nums font-medium" data-testid="balance-available">
                {moneyOf(b.available_minor, b.currency, i18n.language)}
              </TableCell>
              <TableCell className="text-right tabular-nums">{b.low_balance_minor === null ? '—' : moneyOf(b.low_balance_minor, b.currency, i18n.language)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}

function Payments({ entity }: { entity: BillingEntity }) {
  const { t, i18n } = useTranslation('billing')
  if (!entity.payments.length) return <p className="text-sm text-slate-500">{t('payments.none')}</p>
  return (
    <div className="overflow-x-auto">
      <Table data-testid="payments">
        <TableHeader>
          <TableRow>
            <TableHead>{t('payments.at')}</TableHead>
            <TableHead>{t('payments.kind')}</TableHead>
            <TableHead className="text-right">{t('payments.amount')}</TableHead>
            <TableHead>{t('payments.reference')}</TableHead>
            <TableHead className="text-right">{t('payments.balanceAfter')}</TableHead>
            <TableHead>{t('payments.by')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entity.payments.map((p) => (
            <TableRow key={p.id} data-testid="payment">
              <TableCell className="whitespace-nowrap">
                <time dateTime={p.created_at}>{formatDateTime(p.created_at, i18n.language)}</time>
              </TableCell>
              <TableCell>{t(`payments.kinds.${p.kind}`)}</TableCell>
              <TableCell className="text-right tabular-nums">{moneyOf(p.amount_minor, p.currency, i18n.language)}</TableCell>
              <TableCell className="max-w-xs break-words">{[p.reference, p.reason].filter(Boolean).join(' — ')}</TableCell>
              <TableCell className="text-right tabular-nums">{moneyOf(p.balance_after_minor, p.currency, i18n.language)}</TableCell>
              <TableCell>{p.created_by}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}

export default function BillingEntityDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('billing')
  const { entity, staff } = loaderData
  const answer: Answer = actionData
  const address = [
    entity.address.street1,
    entity.address.street2,
    [entity.address.postcode, entity.address.city].filter(Boolean).join(' '),
    entity.address.state,
    countryName(entity.country, i18n.language),
  ].filter(Boolean)
  return (
    <div className="space-y-4">
      <PageHeader
        title={entity.name}
        breadcrumb={[
          { to: '/invoicing', label: t('common:nav.invoicing') },
          { to: '/invoicing/billing-entities', label: t('entities.title') },
        ]}
      />
      <EntityTabs id={entity.id} current="details" />
      <Card>
        <DetailList
          rows={[
            [t('entities.fields.address'), address.map((line) => <div key={line}>{line}</div>)],
            [t('entities.fields.vat_id'), entity.vat_id ? <span className="font-mono">{entity.vat_id}</span> : ''],
            [t('entities.fields.currency'), <span className="font-mono">{entity.currency}</span>],
            [t('entities.fields.payment_terms_days'), t('entities.days', { count: entity.payment_terms_days })],
            [t('entities.fields.invoice_language'), t(`entities.languages.${entity.invoice_language}`)],
            [t('entities.fields.billing_email'), entity.billing_email],
          ]}
        />
      </Card>
      <Card>
        <CardTitle>{t('balances.title')}</CardTitle>
        <Balances entity={entity} />
      </Card>
      <Card>
        <CardTitle>{t('invoices.title')}</CardTitle>
        <Invoices invoices={loaderData.invoices} />
      </Card>
      <Card>
        <CardTitle>{t('payments.title')}</CardTitle>
        <Payments entity={entity} />
      </Card>
      {staff ? (
        <>
          {/* Each form starts afresh once what it saved is shown (a new payment, new limits, a new version). */}
          <PaymentForm key={entity.payments[0]?.id ?? 'none'} entity={entity} lastResult={resultOf(answer, 'payment')} />
          <TermsForm key={entity.balances.map((b) => b.version).join()} entity={entity} lastResult={resultOf(answer, 'terms')} />
          <EditForm key={entity.version} entity={entity} lastResult={resultOf(answer, 'edit')} countries={loaderData.countries} />
        </>
      ) : null}
    </div>
  )
}

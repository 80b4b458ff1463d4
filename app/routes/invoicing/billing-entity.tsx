import { data, Form, redirect } from 'react-router'
import { Field, FormErrors, SelectField } from '#app/components/forms.tsx'
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
import { requireChange } from '../accounts/directory.server.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { billingScreen, loadEntity } from './billing.server.ts'
import { Invoices, type InvoiceRow } from './invoices.tsx'
import { entityBody, EntityFields, ENTITY_FIELDS, EntityTabs, moneyOf, readEntityForm, type BillingEntity, type EntityValues } from './billing.tsx'
import { moneyText } from './shared.tsx'
import type { Route } from './+types/billing-entity.ts'

/** /invoicing/billing-entities/{id}: the entity, its balance or credit per currency and its payments; staff record payments, set limits, edit it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const entity = await loadEntity(screen, params.id)
  const invoices = (await screen.platform.get<{ data: InvoiceRow[] }>(`${screen.base}/billing-entities/${entity.id}/invoices`)).data
  return { entity, invoices, staff: screen.staff, countries: screen.staff ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, entity.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const PAYMENT_FIELDS = ['kind', 'currency', 'amount', 'reference', 'reason'] as const
const TERMS_FIELDS = ['currency', 'credit_limit', 'low_balance'] as const
type Failed = { intent: string; values: Record<string, string>; fieldErrors: Record<string, string[]>; formErrors: string[] }

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const path = `${screen.base}/billing-entities/${params.id}`
  const read = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, String(form.get(f) ?? '').trim()]))
  let values: Record<string, string> = {}
  let fields: readonly string[] = []
  try {
    if (intent === 'payment') {
      values = read(PAYMENT_FIELDS)
      fields = PAYMENT_FIELDS
      await screen.platform.post(`${path}/payments`, { kind: values.kind, currency: values.currency, amount: values.amount, reference: values.reference, reason: values.reason })
    } else if (intent === 'terms') {
      values = read(TERMS_FIELDS)
      fields = TERMS_FIELDS
      await screen.platform.put(`${path}/balances/${encodeURIComponent(values.currency || 'x')}`, { credit_limit: values.credit_limit || '0', low_balance: values.low_balance || null })
    } else {
      const entityValues = readEntityForm(form)
      values = entityValues
      fields = ENTITY_FIELDS
      await screen.platform.patch(path, { ...entityBody(entityValues as EntityValues), version: Number(form.get('version')) })
    }
  } catch (error) {
    return data({ intent, values, ...formErrorsOf(t, error, fields) } satisfies Failed, { status: 400 })
  }
  const saved = intent === 'payment' ? t('billing:payments.recorded') : t('billing:entities.saved')
  return redirect(screen.url.pathname + screen.url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: saved, color: 'success' }) } })
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
  const failed = actionData as Failed | undefined
  const errorsOf = (intent: string) => (failed?.intent === intent ? failed.fieldErrors : {})
  const valuesOf = (intent: string) => (failed?.intent === intent ? failed.values : {})
  const address = [
    entity.address.street1,
    entity.address.street2,
    [entity.address.postcode, entity.address.city].filter(Boolean).join(' '),
    entity.address.state,
    countryName(entity.country, i18n.language),
  ].filter(Boolean)
  const payment = valuesOf('payment')
  const terms = valuesOf('terms')
  const current = entity.balances.find((b) => b.currency === (terms.currency || entity.currency))
  return (
    <div className="space-y-4">
      <PageHeader
        title={entity.name}
        breadcrumb={[
          { to: '/invoicing', label: t('common:nav.invoicing') },
          { to: '/invoicing/billing-entities', label: t('entities.title') },
        ]}
      />
      <EntityTabs id={entity.id} current="details" staff={staff} />
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
          <Card>
            <CardTitle>{t('payments.record')}</CardTitle>
            <Form method="post" className="space-y-3" aria-label={t('payments.record')}>
              <FormErrors errors={failed?.intent === 'payment' ? failed.formErrors : undefined} />
              <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2 lg:grid-cols-4">
                <SelectField label={t('payments.kind')} selectProps={{ id: 'payment-kind', name: 'kind', defaultValue: payment.kind ?? 'payment' }} errors={errorsOf('payment').kind}>
                  {PAYMENT_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {t(`payments.kinds.${k}`)}
                    </option>
                  ))}
                </SelectField>
                <Field
                  labelProps={{ children: t('payments.currency') }}
                  inputProps={{ id: 'payment-currency', name: 'currency', defaultValue: payment.currency ?? entity.currency, maxLength: 3, className: 'font-mono uppercase' }}
                  errors={errorsOf('payment').currency}
                />
                <Field
                  labelProps={{ children: t('payments.amount') }}
                  inputProps={{ id: 'payment-amount', name: 'amount', defaultValue: payment.amount ?? '', inputMode: 'decimal', maxLength: 40, required: true }}
                  errors={errorsOf('payment').amount}
                />
                <Field
                  labelProps={{ children: t('payments.reference') }}
                  inputProps={{ id: 'payment-reference', name: 'reference', defaultValue: payment.reference ?? '', maxLength: 200 }}
                  errors={errorsOf('payment').reference}
                />
              </div>
              <Field
                className="max-w-2xl"
                labelProps={{ children: t('payments.reason') }}
                inputProps={{ id: 'payment-reason', name: 'reason', defaultValue: payment.reason ?? '', maxLength: 500, placeholder: t('payments.reasonHelp') }}
                errors={errorsOf('payment').reason}
              />
              <Button type="submit" name="intent" value="payment">
                {t('payments.save')}
              </Button>
            </Form>
          </Card>
          <Card>
            <CardTitle>{t('balances.termsTitle')}</CardTitle>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('balances.termsHelp')}</p>
            <Form method="post" className="space-y-3" aria-label={t('balances.termsTitle')}>
              <FormErrors errors={failed?.intent === 'terms' ? failed.formErrors : undefined} />
              <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
                <Field
                  labelProps={{ children: t('balances.currency') }}
                  inputProps={{ id: 'terms-currency', name: 'currency', defaultValue: terms.currency ?? entity.currency, maxLength: 3, className: 'font-mono uppercase' }}
                  errors={errorsOf('terms').currency}
                />
                <Field
                  labelProps={{ children: t('balances.creditLimit') }}
                  inputProps={{
                    id: 'terms-credit_limit',
                    name: 'credit_limit',
                    defaultValue: terms.credit_limit ?? (current ? moneyText(current.credit_limit_minor, current.currency) : '0'),
                    inputMode: 'decimal',
                    maxLength: 40,
                  }}
                  errors={errorsOf('terms').credit_limit}
                />
                <Field
                  labelProps={{ children: t('balances.lowBalance') }}
                  inputProps={{
                    id: 'terms-low_balance',
                    name: 'low_balance',
                    defaultValue: terms.low_balance ?? (current?.low_balance_minor != null ? moneyText(current.low_balance_minor, current.currency) : ''),
                    inputMode: 'decimal',
                    maxLength: 40,
                  }}
                  errors={errorsOf('terms').low_balance}
                />
              </div>
              <Button type="submit" name="intent" value="terms" variant="outline">
                {t('balances.saveTerms')}
              </Button>
            </Form>
          </Card>
          <Card>
            <CardTitle>{t('entities.edit')}</CardTitle>
            <Form method="post" className="space-y-3" key={entity.version} aria-label={t('entities.edit')}>
              <input type="hidden" name="version" value={entity.version} />
              <FormErrors errors={failed?.intent === 'edit' ? failed.formErrors : undefined} />
              <EntityFields
                values={failed?.intent === 'edit' ? failed.values : { ...entity, ...entity.address, vat_id: entity.vat_id ?? '', payment_terms_days: String(entity.payment_terms_days) }}
                errors={errorsOf('edit')}
                countries={loaderData.countries}
                withCredit={false}
              />
              <Button type="submit" name="intent" value="edit">
                {t('common:actions.save')}
              </Button>
            </Form>
          </Card>
        </>
      ) : null}
    </div>
  )
}

import { DataTable, listValue, RowLink } from '#app/components/data-table.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { Field, SelectField, type useZodForm } from '#app/components/forms.tsx'
import { ENTITY_FIELDS, type entitySchema } from './billing-forms.ts'
import { INVOICE_LANGUAGES } from '#common/billing.ts'
import { formatMoney } from '#common/money.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import { SubNav } from '#app/components/screen-parts.tsx'
import type { Answer } from '#app/lib/platform-api.ts'

/** Pieces shared by the billing screens (issue 18): the answers they read and their tabs. */

export type Balance = BillingEntity['balances'][number]
export type Payment = BillingEntity['payments'][number]
export type BillingEntity = Answer<'/groups/{context}/billing-entities/{id}'>
export type Transaction = Answer<'/groups/{context}/transactions/{id}'>

/** Money in minor units in the user's language. */
export const moneyOf = (minor: number, currency: string, lng: string) => formatMoney(minor, currency, lng)

/** The tabs of a billing entity: details, accounts and its log (for whoever opens the entity). */
export function EntityTabs({ id, current }: { id: string; current: 'details' | 'accounts' | 'log' }) {
  const { t } = useTranslation('billing')
  const base = `/invoicing/billing-entities/${id}`
  return (
    <SubNav
      links={[
        { to: base, label: t('entities.details'), current: current === 'details' },
        { to: `${base}/accounts`, label: t('entities.accounts'), current: current === 'accounts' },
        { to: `${base}/log`, label: t('entities.log'), current: current === 'log' },
      ]}
    />
  )
}

/** The tabs of a transaction: details and log. */
export function TransactionTabs({ id, current }: { id: string; current: 'details' | 'log' }) {
  const { t } = useTranslation('billing')
  const base = `/invoicing/transactions/${id}`
  return (
    <SubNav
      links={[
        { to: base, label: t('transactions.details'), current: current === 'details' },
        { to: `${base}/log`, label: t('transactions.log'), current: current === 'log' },
      ]}
    />
  )
}

/** A transaction list's cells: the date links to the transaction, the state is a badge. */
export function TransactionCell({ row, column }: { row: Record<string, unknown>; column: string }) {
  const { t, i18n } = useTranslation('billing')
  const href = useContextHref()
  // A joined field (account.name) arrives nested: { account: { name } }.
  const value = column.includes('.') ? (row[column.split('.')[0]!] as Record<string, unknown> | null | undefined)?.[column.split('.')[1]!] : row[column]
  if (column === 'created_at' || column === 'settled_at') {
    if (!value) return null
    const time = <time dateTime={String(value)}>{formatDateTime(String(value), i18n.language)}</time>
    return column === 'created_at' ? <RowLink to={href(`/invoicing/transactions/${String(row.id)}`)}>{time}</RowLink> : time
  }
  if (column === 'state') return <StatusBadge kind="transaction" code={String(value)} />
  if (column === 'action') return <>{t(`transactions.actions.${String(value)}`, { defaultValue: String(value) })}</>
  if (column === 'product_code') return <span className="font-mono text-xs">{String(value ?? '')}</span>
  if (column === 'product.name') return <>{productName(t, { name: typeof value === 'string' ? value : null, code: typeof row.product_code === 'string' ? row.product_code : null })}</>
  return <>{listValue(row, { key: column, type: 'text' }, i18n.language, t)}</>
}

export function TransactionTable({ def, page }: { def: Pick<ListDefinition, 'id' | 'columns' | 'trayType'>; page: Parameters<typeof DataTable>[0]['page'] }) {
  const { t } = useTranslation('billing')
  return (
    <DataTable
      def={def}
      page={page}
      labels={(key) => t(`transactions.fields.${key}`, { defaultValue: key })}
      empty={t('transactions.empty')}
      valueLabel={(key, value) => (key === 'state' ? t(`common:status.transaction.${value}`, { defaultValue: value }) : value)}
      renderCell={(row, key) => <TransactionCell row={row} column={key} />}
    />
  )
}

type EntityFieldsOf = ReturnType<typeof useZodForm<ReturnType<typeof entitySchema>>>[1]

/** The fields of an entity (conform's, `entitySchema`), for the new-entity form and the edit form alike. */
export function EntityFields({ fields, countries, withCredit }: { fields: EntityFieldsOf; countries: { code: string; name: string }[]; withCredit: boolean }) {
  const { t } = useTranslation('billing')
  const label = (key: string) => t(`entities.fields.${key}`)
  const text = (key: Exclude<(typeof ENTITY_FIELDS)[number], 'country' | 'invoice_language'>, extra: React.ComponentProps<'input'> = {}) => (
    <Field labelProps={{ children: label(key) }} inputProps={{ ...getInputProps(fields[key], { type: 'text' }), maxLength: 200, ...extra }} errors={fields[key].errors} />
  )
  return (
    <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
      {text('name')}
      <SelectField label={label('country')} selectProps={{ ...getSelectProps(fields.country), id: fields.country.id }} errors={fields.country.errors}>
        <option value="">—</option>
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
      {text('vat_id', { className: 'font-mono uppercase', maxLength: 40 })}
      {text('currency', { className: 'font-mono uppercase', maxLength: 3 })}
      {text('billing_email', { type: 'email' })}
      <SelectField label={label('invoice_language')} selectProps={{ ...getSelectProps(fields.invoice_language), id: fields.invoice_language.id }} errors={fields.invoice_language.errors}>
        {INVOICE_LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`entities.languages.${l}`)}
          </option>
        ))}
      </SelectField>
      {text('payment_terms_days', { inputMode: 'numeric', maxLength: 3 })}
      {withCredit ? text('credit_limit', { inputMode: 'decimal', placeholder: '0.00', maxLength: 40 }) : null}
      {text('street1')}
      {text('street2')}
      {text('city')}
      {text('state')}
      {text('postcode', { maxLength: 40 })}
    </div>
  )
}

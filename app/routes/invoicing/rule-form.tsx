import { getCollectionProps, getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { Form } from 'react-router'
import { ErrorList, Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { formatDate } from '#app/lib/dates.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { PRICING_RULE_KINDS, PRODUCT_KINDS, ROUNDING_MODES } from '#common/pricing.ts'
import { ruleSchema } from './pricing-forms.ts'
import { Margin, money, moneyText } from './shared.tsx'
import type { Answer, Row } from '#app/lib/platform-api.ts'

export type RuleValues = {
  rule_name: string
  pricing_entity_id: string
  product_id: string
  kinds: string[]
  actions: string
  tlds: string
  tags: string
  kind: string
  percent: string
  amount: string
  currency: string
  mode: string
  first_year_only: boolean
  tiers: string
  starts_at: string
  ends_at: string
  below_cost_reason: string
  window_id: string
  version: string
}

export type RuleWindow = Row<'/pricing-rules/{set}/{product}/{ruleName}'>

export type RulePreview = Answer<'/pricing-rules/{set}/preview', 'post'>

/** A rule form's answer: conform's result (what was typed, each refusal beside its field), the preview, and which window's form it is (none: a new one). */
export type RuleResult = { window_id: string; result: SubmissionResult<string[]>; preview: RulePreview | null }

/** A stored window as the form's values. */
export function windowValues(w: RuleWindow): RuleValues {
  const currency = w.currency ?? ''
  return {
    rule_name: w.rule_name,
    pricing_entity_id: w.pricing_entity_id ?? '',
    product_id: w.product_id ?? '',
    kinds: w.selector?.kinds ?? [],
    actions: (w.selector?.actions ?? []).join(', '),
    tlds: (w.selector?.tlds ?? []).join(', '),
    tags: (w.selector?.tags ?? []).join(', '),
    kind: w.kind,
    percent: w.params.percent === undefined ? '' : String(w.params.percent),
    amount: moneyText(w.params.amount_minor, currency || 'EUR'),
    currency,
    mode: w.params.mode ?? '',
    first_year_only: Boolean(w.params.first_year_only),
    tiers: (w.params.tiers ?? []).map((x) => `${x.min_quantity}:${x.percent_off}`).join(', '),
    starts_at: w.starts_at?.slice(0, 10) ?? '',
    ends_at: w.ends_at?.slice(0, 10) ?? '',
    below_cost_reason: w.below_cost_reason ?? '',
    window_id: w.id,
    version: String(w.version),
  }
}

/** What a window does, in words: "Margin 40 %", "Fixed price €12.99", "From 10: 5 % off". */
export function useDescribeRule() {
  const { t, i18n } = useTranslation('pricing')
  return (w: Pick<RuleWindow, 'kind' | 'params' | 'currency'>) => {
    const p = w.params
    const amount = p.amount_minor === undefined ? '' : money(p.amount_minor, w.currency ?? 'EUR', i18n.language)
    if (w.kind === 'margin' || w.kind === 'minimum-margin') return t(`describe.${w.kind}`, { percent: p.percent })
    if (w.kind === 'rounding') return t(`describe.rounding.${p.mode ?? 'ends-99'}`)
    if (w.kind === 'volume') return (p.tiers ?? []).map((x) => t('describe.tier', { quantity: x.min_quantity, percent: x.percent_off })).join(', ')
    if (w.kind === 'promotion') return t(p.first_year_only ? 'describe.promotionFirstYear' : 'describe.promotion', { amount })
    return t(`describe.${w.kind}`, { amount })
  }
}

type KindField = 'percent' | 'amount' | 'mode' | 'tiers' | 'first_year_only'
/** The fields each kind of rule reads (ruleBody sends no other): a margin its percentage, a price its amount and currency, and so on. */
export const FIELDS_OF_KIND: Record<string, readonly KindField[]> = {
  margin: ['percent'],
  'minimum-margin': ['percent'],
  markup: ['amount'],
  fixed: ['amount'],
  promotion: ['amount', 'first_year_only'],
  rounding: ['mode'],
  volume: ['tiers'],
}

/**
 * The form of a rule window, for a new rule, a new window or a changed one (conform + zod,
 * `ruleSchema`: the same checks in the browser and the action). Preview shows the prices it moves
 * before anything is saved; a price below cost asks for a reason.
 */
export function RuleForm({
  values,
  answer,
  custom,
  entity,
  isNew,
  entities,
  submitLabel,
  testId,
}: {
  values: RuleValues
  answer: RuleResult | null | undefined
  custom: boolean
  entity: boolean
  isNew: boolean
  entities: { id: string; name: string }[] | null
  submitLabel: string
  testId: string
}) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(ruleSchema(t, { custom, entity }), { id: testId, lastResult: answer?.result, defaultValue: values })
  const preview = answer?.preview ?? null
  const reason = fields.below_cost_reason
  const hydrated = useHydrated()
  // Only the fields of the chosen kind: conform's live value with JavaScript, the submitted or stored one without.
  const kind = typeof fields.kind.value === 'string' && fields.kind.value ? fields.kind.value : values.kind
  const uses = (field: KindField) => FIELDS_OF_KIND[kind]?.includes(field) ?? false
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3" data-testid={testId}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input {...getInputProps(fields.window_id, { type: 'hidden' })} />
      <input {...getInputProps(fields.version, { type: 'hidden' })} />
      {custom ? null : <input {...getInputProps(fields.product_id, { type: 'hidden' })} />}
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
        {isNew ? (
          <Field
            labelProps={{ children: t('rules.fields.rule_name') }}
            inputProps={{ ...getInputProps(fields.rule_name, { type: 'text' }), placeholder: 'summer-promo', className: 'font-mono', maxLength: 80 }}
            errors={fields.rule_name.errors}
          />
        ) : (
          <input {...getInputProps(fields.rule_name, { type: 'hidden' })} />
        )}
        {isNew && entities ? (
          <SelectField label={t('rules.fields.entity')} selectProps={{ ...getSelectProps(fields.pricing_entity_id), id: fields.pricing_entity_id.id }} errors={fields.pricing_entity_id.errors}>
            <option value="">—</option>
            {entities.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </SelectField>
        ) : entity ? (
          <input {...getInputProps(fields.pricing_entity_id, { type: 'hidden' })} />
        ) : null}
        <div className="flex items-end gap-2">
          <SelectField label={t('rules.fields.kind')} selectProps={{ ...getSelectProps(fields.kind), id: fields.kind.id }} errors={fields.kind.errors}>
            {PRICING_RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kinds.${k}`)}
              </option>
            ))}
          </SelectField>
          {/* Without JavaScript the kind is chosen first: this asks the action for the form of that kind, what was typed kept (ruleAction). */}
          {hydrated ? null : (
            <Button type="submit" name="intent" value="kind" variant="outline" formNoValidate className="mb-[1.375rem]">
              {t('rules.showKind')}
            </Button>
          )}
        </div>
      </div>
      {custom ? (
        <fieldset className="rounded-md border border-slate-200 p-3 dark:border-slate-800" aria-describedby={fields.kinds.errors?.length ? fields.kinds.errorId : undefined}>
          <legend className="px-1 text-sm font-medium">{t('rules.selector')}</legend>
          <p className="mb-2 text-xs text-slate-500">{t('rules.selectorHelp')}</p>
          <div className="mb-2 flex flex-wrap gap-3">
            {getCollectionProps(fields.kinds, { type: 'checkbox', options: [...PRODUCT_KINDS] }).map((props) => (
              <label key={props.key} className="flex items-center gap-1 text-sm">
                <input {...props} key={props.key} />
                {t(`productKinds.${props.value}`)}
              </label>
            ))}
          </div>
          <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
            <Field
              labelProps={{ children: t('rules.fields.actions') }}
              inputProps={{ ...getInputProps(fields.actions, { type: 'text' }), placeholder: 'register, renew', className: 'font-mono' }}
              errors={fields.actions.errors}
            />
            <Field
              labelProps={{ children: t('rules.fields.tlds') }}
              inputProps={{ ...getInputProps(fields.tlds, { type: 'text' }), placeholder: 'com, net, shop', className: 'font-mono' }}
              errors={fields.tlds.errors}
            />
            <Field labelProps={{ children: t('rules.fields.tags') }} inputProps={{ ...getInputProps(fields.tags, { type: 'text' }), className: 'font-mono' }} errors={fields.tags.errors} />
          </div>
          <ErrorList id={fields.kinds.errorId} errors={fields.kinds.errors} />
        </fieldset>
      ) : null}
      <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4" data-testid="kind-fields" data-kind={kind}>
        {uses('percent') ? (
          <Field labelProps={{ children: t('rules.fields.percent') }} inputProps={{ ...getInputProps(fields.percent, { type: 'text' }), inputMode: 'decimal' }} errors={fields.percent.errors} />
        ) : null}
        {uses('amount') ? (
          <>
            <Field
              labelProps={{ children: t('rules.fields.amount') }}
              inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', placeholder: '12.99' }}
              errors={fields.amount.errors}
            />
            <Field
              labelProps={{ children: t('rules.fields.currency') }}
              inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3, placeholder: 'EUR', className: 'font-mono uppercase' }}
              errors={fields.currency.errors}
            />
          </>
        ) : null}
        {uses('mode') ? (
          <SelectField label={t('rules.fields.mode')} selectProps={{ ...getSelectProps(fields.mode), id: fields.mode.id }} errors={fields.mode.errors}>
            {ROUNDING_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`describe.rounding.${m}`)}
              </option>
            ))}
          </SelectField>
        ) : null}
        {uses('tiers') ? (
          <Field
            labelProps={{ children: t('rules.fields.tiers') }}
            inputProps={{ ...getInputProps(fields.tiers, { type: 'text' }), placeholder: '10:5, 100:10', className: 'font-mono' }}
            errors={fields.tiers.errors}
          />
        ) : null}
        <Field labelProps={{ children: t('rules.fields.starts_at') }} inputProps={getInputProps(fields.starts_at, { type: 'date' })} errors={fields.starts_at.errors} />
        <Field labelProps={{ children: t('rules.fields.ends_at') }} inputProps={getInputProps(fields.ends_at, { type: 'date' })} errors={fields.ends_at.errors} />
        {uses('first_year_only') ? (
          <label className="flex items-center gap-2 self-center text-sm">
            <input {...getInputProps(fields.first_year_only, { type: 'checkbox' })} />
            {t('rules.fields.first_year_only')}
          </label>
        ) : null}
      </div>
      <p className="text-xs text-slate-500">{t('rules.fieldsHelp')}</p>
      {preview ? <PreviewTable preview={preview} /> : null}
      {preview?.below_cost || reason.errors?.length || reason.initialValue ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={reason.id} className="text-sm font-medium">
            {t('rules.fields.below_cost_reason')}
          </label>
          <textarea
            {...getTextareaProps(reason)}
            rows={2}
            maxLength={500}
            className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm aria-[invalid=true]:border-red-600 dark:border-slate-700"
          />
          <ErrorList id={reason.errorId} errors={reason.errors} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="preview" variant="outline">
          {t('rules.preview')}
        </Button>
        <Button type="submit" name="intent" value="save">
          {submitLabel}
        </Button>
      </div>
    </Form>
  )
}

/** The prices a change moves: old → new, the margin, below cost in red. */
export function PreviewTable({ preview }: { preview: RulePreview }) {
  const { t, i18n } = useTranslation('pricing')
  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-800" data-testid="rule-preview">
      <p className="text-sm font-medium">{t('rules.previewSummary', { count: preview.changed, date: formatDate(preview.at, i18n.language) })}</p>
      {preview.below_cost ? (
        <p className="text-sm text-red-700 dark:text-red-400" role="alert">
          {t('rules.previewBelowCost', { count: preview.below_cost })}
        </p>
      ) : null}
      {preview.changes.length ? (
        <div className="max-h-80 overflow-auto">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('applicable.product')}</TableHead>
                <TableHead>{t('rules.fields.entity')}</TableHead>
                <TableHead className="text-right">{t('rules.old')}</TableHead>
                <TableHead className="text-right">{t('rules.new')}</TableHead>
                <TableHead className="text-right">{t('applicable.cost')}</TableHead>
                <TableHead className="text-right">{t('applicable.margin')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.changes.map((c) => (
                <TableRow key={`${c.product_id}-${c.pricing_entity_name}-${c.currency}`} data-testid="preview-row" className={c.below_cost ? 'bg-red-50 dark:bg-red-950/40' : undefined}>
                  <TableCell className="font-mono text-xs">{c.product_code}</TableCell>
                  <TableCell className="text-xs">
                    {c.pricing_entity_name} · {c.currency}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{money(c.old_minor, c.currency, i18n.language)}</TableCell>
                  <TableCell className="text-right tabular-nums">{c.no_price ? t(`noPrice.${c.no_price}`) : money(c.new_minor, c.currency, i18n.language)}</TableCell>
                  <TableCell className="text-right tabular-nums">{money(c.cost_minor, c.currency, i18n.language)}</TableCell>
                  <TableCell className="text-right">
                    <Margin percent={c.margin_percent} belowCost={c.below_cost} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </div>
  )
}

/** Empty values of a new rule (a product's, or custom). */
export const newRuleValues = (productId: string): RuleValues => ({
  rule_name: '',
  pricing_entity_id: '',
  product_id: productId,
  kinds: [],
  actions: '',
  tlds: '',
  tags: '',
  kind: 'margin',
  percent: '',
  amount: '',
  currency: '',
  mode: '',
  first_year_only: false,
  tiers: '',
  starts_at: '',
  ends_at: '',
  below_cost_reason: '',
  window_id: '',
  version: '',
})

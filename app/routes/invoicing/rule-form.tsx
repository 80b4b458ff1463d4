import { Form } from 'react-router'
import { ErrorList, Field } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { PRICING_RULE_KINDS, PRODUCT_KINDS, ROUNDING_MODES, type RuleParams, type RuleSelector } from '#common/pricing.ts'
import { FormErrors } from '#app/components/forms.tsx'
import { Margin, money, moneyText } from './shared.tsx'

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

export type RuleWindow = {
  id: string
  rule_name: string
  pricing_entity_id: string | null
  product_id: string | null
  selector: RuleSelector | null
  kind: string
  params: RuleParams
  currency: string | null
  starts_at: string | null
  ends_at: string | null
  below_cost_reason: string | null
  version: number
}

export type RulePreview = {
  at: string
  changed: number
  below_cost: number
  no_price: number
  changes: {
    product_id: string
    product_code: string
    pricing_entity_name: string
    currency: string
    old_minor: number | null
    new_minor: number | null
    cost_minor: number | null
    margin_percent: number | null
    below_cost: boolean
    no_price: string | null
  }[]
}

export type RuleResult = { values: RuleValues; fieldErrors: Record<string, string[]>; formErrors: string[]; preview: RulePreview | null }

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

/**
 * The form of a rule window, for a new rule, a new window or a changed one. Preview shows the
 * prices it moves before anything is saved; a price below cost asks for a reason.
 */
export function RuleForm({
  values,
  result,
  isCustom,
  isNew,
  entities,
  submitLabel,
  testId,
}: {
  values: RuleValues
  result: RuleResult | null | undefined
  isCustom: boolean
  isNew: boolean
  entities: { id: string; name: string }[] | null
  submitLabel: string
  testId: string
}) {
  const { t } = useTranslation('pricing')
  const v = result?.values ?? values
  const errors = result?.fieldErrors ?? {}
  const preview = result?.preview ?? null
  return (
    <Form method="post" className="space-y-3" data-testid={testId}>
      <FormErrors errors={result?.formErrors} />
      <input type="hidden" name="window_id" value={v.window_id} />
      <input type="hidden" name="version" value={v.version} />
      <input type="hidden" name="product_id" value={v.product_id} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
        {isNew ? (
          <Field
            labelProps={{ children: t('rules.fields.rule_name') }}
            inputProps={{ id: `${testId}-name`, name: 'rule_name', defaultValue: v.rule_name, placeholder: 'summer-promo', className: 'font-mono', maxLength: 80 }}
            errors={errors.rule_name}
          />
        ) : (
          <input type="hidden" name="rule_name" value={v.rule_name} />
        )}
        {isNew && entities ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${testId}-entity`} className="text-sm font-medium">
              {t('rules.fields.entity')}
            </label>
            <Select id={`${testId}-entity`} name="pricing_entity_id" defaultValue={v.pricing_entity_id}>
              <option value="">—</option>
              {entities.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </Select>
            <ErrorList errors={errors.pricing_entity_id} />
          </div>
        ) : (
          <input type="hidden" name="pricing_entity_id" value={v.pricing_entity_id} />
        )}
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${testId}-kind`} className="text-sm font-medium">
            {t('rules.fields.kind')}
          </label>
          <Select id={`${testId}-kind`} name="kind" defaultValue={v.kind || 'margin'}>
            {PRICING_RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`kinds.${k}`)}
              </option>
            ))}
          </Select>
          <ErrorList errors={errors.kind} />
        </div>
      </div>
      {isCustom ? (
        <fieldset className="rounded-md border border-slate-200 p-3 dark:border-slate-800">
          <legend className="px-1 text-sm font-medium">{t('rules.selector')}</legend>
          <p className="mb-2 text-xs text-slate-500">{t('rules.selectorHelp')}</p>
          <div className="mb-2 flex flex-wrap gap-3">
            {PRODUCT_KINDS.map((k) => (
              <label key={k} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="kinds" value={k} defaultChecked={v.kinds.includes(k)} />
                {t(`productKinds.${k}`)}
              </label>
            ))}
          </div>
          <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
            <Field
              labelProps={{ children: t('rules.fields.actions') }}
              inputProps={{ id: `${testId}-actions`, name: 'actions', defaultValue: v.actions, placeholder: 'register, renew', className: 'font-mono' }}
            />
            <Field labelProps={{ children: t('rules.fields.tlds') }} inputProps={{ id: `${testId}-tlds`, name: 'tlds', defaultValue: v.tlds, placeholder: 'com, net, shop', className: 'font-mono' }} />
            <Field labelProps={{ children: t('rules.fields.tags') }} inputProps={{ id: `${testId}-tags`, name: 'tags', defaultValue: v.tags, className: 'font-mono' }} />
          </div>
          <ErrorList errors={errors.selector} />
        </fieldset>
      ) : null}
      <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4">
        <Field labelProps={{ children: t('rules.fields.percent') }} inputProps={{ id: `${testId}-percent`, name: 'percent', inputMode: 'decimal', defaultValue: v.percent }} errors={errors.percent} />
        <Field
          labelProps={{ children: t('rules.fields.amount') }}
          inputProps={{ id: `${testId}-amount`, name: 'amount', inputMode: 'decimal', defaultValue: v.amount, placeholder: '12.99' }}
          errors={errors.amount}
        />
        <Field
          labelProps={{ children: t('rules.fields.currency') }}
          inputProps={{ id: `${testId}-currency`, name: 'currency', maxLength: 3, defaultValue: v.currency, placeholder: 'EUR', className: 'font-mono uppercase' }}
          errors={errors.currency}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${testId}-mode`} className="text-sm font-medium">
            {t('rules.fields.mode')}
          </label>
          <Select id={`${testId}-mode`} name="mode" defaultValue={v.mode || 'ends-99'}>
            {ROUNDING_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`describe.rounding.${m}`)}
              </option>
            ))}
          </Select>
          <ErrorList errors={errors.mode} />
        </div>
        <Field
          labelProps={{ children: t('rules.fields.tiers') }}
          inputProps={{ id: `${testId}-tiers`, name: 'tiers', defaultValue: v.tiers, placeholder: '10:5, 100:10', className: 'font-mono' }}
          errors={errors.tiers}
        />
        <Field labelProps={{ children: t('rules.fields.starts_at') }} inputProps={{ id: `${testId}-starts`, name: 'starts_at', type: 'date', defaultValue: v.starts_at }} errors={errors.starts_at} />
        <Field labelProps={{ children: t('rules.fields.ends_at') }} inputProps={{ id: `${testId}-ends`, name: 'ends_at', type: 'date', defaultValue: v.ends_at }} errors={errors.ends_at} />
        <label className="flex items-center gap-2 self-center text-sm">
          <input type="checkbox" name="first_year_only" defaultChecked={v.first_year_only} />
          {t('rules.fields.first_year_only')}
        </label>
      </div>
      <p className="text-xs text-slate-500">{t('rules.fieldsHelp')}</p>
      {preview ? <PreviewTable preview={preview} /> : null}
      {preview?.below_cost || errors.below_cost_reason || v.below_cost_reason ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${testId}-reason`} className="text-sm font-medium">
            {t('rules.fields.below_cost_reason')}
          </label>
          <textarea
            id={`${testId}-reason`}
            name="below_cost_reason"
            defaultValue={v.below_cost_reason}
            rows={2}
            maxLength={500}
            aria-invalid={errors.below_cost_reason ? true : undefined}
            className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm aria-[invalid=true]:border-red-600 dark:border-slate-700"
          />
          <ErrorList errors={errors.below_cost_reason} />
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
      <p className="text-sm font-medium">{t('rules.previewSummary', { count: preview.changed, date: preview.at.slice(0, 10) })}</p>
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

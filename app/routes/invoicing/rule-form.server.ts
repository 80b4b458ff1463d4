import type { TFunction } from 'i18next'
import { data, redirect } from 'react-router'
import { isMonetaryValue } from '#common/money.ts'
import { PRICING_RULE_KINDS, RULE_NAME } from '#common/pricing.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { getPlatform } from '#app/lib/platform.server.ts'
import { rulePath, SET_BASE, type RuleSet } from './shared.tsx'
import type { RulePreview, RuleValues } from './rule-form.tsx'
import { refusalErrors, refusalOf } from '#app/lib/refusal.server.ts'

export const RULE_FIELDS = ['rule_name', 'pricing_entity_id', 'selector', 'kind', 'percent', 'amount', 'currency', 'mode', 'tiers', 'starts_at', 'ends_at', 'below_cost_reason'] as const

/** The rule form's values as posted (kept as typed when refused). */
export function readRuleForm(form: FormData): RuleValues {
  const text = (k: string) => String(form.get(k) ?? '').trim()
  return {
    rule_name: text('rule_name').toLowerCase(),
    pricing_entity_id: text('pricing_entity_id'),
    product_id: text('product_id'),
    kinds: form.getAll('kinds').map(String),
    actions: text('actions'),
    tlds: text('tlds'),
    tags: text('tags'),
    kind: text('kind'),
    percent: text('percent'),
    amount: text('amount'),
    currency: text('currency').toUpperCase(),
    mode: text('mode'),
    first_year_only: form.get('first_year_only') === 'on',
    tiers: text('tiers'),
    starts_at: text('starts_at'),
    ends_at: text('ends_at'),
    below_cost_reason: text('below_cost_reason'),
    window_id: text('window_id'),
    version: text('version'),
  }
}

const list = (text: string) => [
  ...new Set(
    text
      .split(/[\s,]+/)
      .map((s) => s.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean),
  ),
]

/** The form as the API's rule body, with the checks the browser can make beside each field. */
export function ruleBody(values: RuleValues, t: TFunction, isCustom: boolean): { body: Record<string, unknown>; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {}
  if (!RULE_NAME.test(values.rule_name)) fieldErrors.rule_name = [t('pricing:errors.pricing_rule.name_invalid')]
  if (!(PRICING_RULE_KINDS as readonly string[]).includes(values.kind)) fieldErrors.kind = [t('validation:required')]
  const body: Record<string, unknown> = { rule_name: values.rule_name, kind: values.kind }
  if (values.pricing_entity_id) body.pricing_entity_id = values.pricing_entity_id
  if (isCustom) body.selector = { kinds: values.kinds, actions: list(values.actions), tlds: list(values.tlds), tags: list(values.tags) }
  else body.product_id = values.product_id
  if (values.kind === 'margin' || values.kind === 'minimum-margin') {
    const percent = Number(values.percent.replace(',', '.'))
    if (!/^-?\d+([.,]\d{1,2})?$/.test(values.percent) || percent <= -100) fieldErrors.percent = [t('pricing:errors.pricing_rule.percent_invalid')]
    else body.percent = percent
  }
  if (values.kind === 'markup' || values.kind === 'fixed' || values.kind === 'promotion') {
    if (!/^[A-Z]{3}$/.test(values.currency)) fieldErrors.currency = [t('pricing:errors.currency.invalid')]
    // Spec §5: the money format, no decimals in JPY; refused here as the API would.
    if (!isMonetaryValue(values.amount, values.currency || 'EUR') || values.amount.startsWith('-')) fieldErrors.amount = [t('validation:invalidMonetaryValue')]
    body.amount = values.amount
    body.currency = values.currency
    if (values.kind === 'promotion') body.first_year_only = values.first_year_only
  }
  if (values.kind === 'rounding') body.mode = values.mode || 'ends-99'
  if (values.kind === 'volume') {
    const tiers = values.tiers
      .split(/[\s,;]+/)
      .filter(Boolean)
      .map((pair) => {
        const [q, p] = pair.split(':')
        return { min_quantity: Number(q), percent_off: Number(p) }
      })
    if (!tiers.length || tiers.some((x) => !Number.isInteger(x.min_quantity) || x.min_quantity < 2 || !(x.percent_off > 0 && x.percent_off < 100)))
      fieldErrors.tiers = [t('pricing:errors.pricing_rule.tiers_invalid')]
    else body.tiers = tiers
  }
  body.starts_at = values.starts_at || null
  body.ends_at = values.ends_at || null
  if (values.below_cost_reason) body.below_cost_reason = values.below_cost_reason
  return { body, fieldErrors }
}

type Platform = Awaited<ReturnType<typeof getPlatform>>

/**
 * The one action of the rule forms: `preview` shows the prices the change moves (nothing saved),
 * `save` saves it (a new window, or `window_id` changed with its version) and goes to the rule's
 * page; a refusal — below cost without a reason, an overlapping window — stays on the form with
 * the preview beside it.
 */
export async function ruleAction(request: Request, platform: Platform, t: TFunction, set: RuleSet, isCustom: boolean, form: FormData) {
  const values = readRuleForm(form)
  const intent = String(form.get('intent') ?? 'save')
  const { body, fieldErrors } = ruleBody(values, t, isCustom)
  if (Object.keys(fieldErrors).length) return data({ values, fieldErrors, formErrors: [] as string[], preview: null as RulePreview | null }, { status: 400 })
  try {
    if (intent === 'preview') {
      const preview = await platform.post<RulePreview>(`/pricing-rules/${set}/preview${values.window_id ? `?replacing=${values.window_id}` : ''}`, body)
      return data({ values, fieldErrors: {}, formErrors: [] as string[], preview })
    }
    const saved = values.window_id
      ? await platform.patch<{ rule: { product_id: string | null; rule_name: string; pricing_entity_id: string | null } }>(`/pricing-rules/${values.window_id}`, {
          ...body,
          version: Number(values.version),
        })
      : await platform.post<{ rule: { product_id: string | null; rule_name: string; pricing_entity_id: string | null } }>(`/pricing-rules/${set}`, body)
    const to = carryContext(rulePath({ ...saved.rule, level: set }), requestUrl(request).searchParams)
    return redirect(to, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    const { problem } = refusalOf(error, { screens: [403, 404] })
    const refusal = refusalErrors(t, problem, [...RULE_FIELDS], {}, 'pricing')
    const preview = (problem.preview as RulePreview | undefined) ?? null
    return data({ values, fieldErrors: refusal.fieldErrors, formErrors: refusal.formErrors, preview }, { status: 400 })
  }
}

export { SET_BASE }

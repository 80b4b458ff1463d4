import { Link } from 'react-router'
import { formatMoney } from '#common/money.ts'
import type { ChainStep } from '#common/pricing.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** Pieces shared by the products and pricing screens (issue 17). */

export type RuleSet = 'global' | 'entity'
/** The path of a rule set under /invoicing, and back. */
export const SET_BASE: Record<RuleSet, string> = { global: '/invoicing/global-pricing-rules', entity: '/invoicing/pricing-entity-rules' }
export const setOfPath = (pathname: string): RuleSet => (pathname.startsWith(SET_BASE.entity) ? 'entity' : 'global')

/** Money in minor units in the user's language, or a dash. */
export const money = (minor: number | null | undefined, currency: string, lng: string) => (minor === null || minor === undefined ? '—' : formatMoney(minor, currency, lng))

/** Minor units as the text a money field takes (spec §5), e.g. 1299 → "12.99", 1500 JPY → "1500". */
export const moneyText = (minor: number | null | undefined, currency: string) => {
  if (minor === null || minor === undefined) return ''
  const decimals = currency === 'JPY' ? 0 : 2
  return (minor / 10 ** decimals).toFixed(decimals)
}

/** Where a rule lives: its page by set, product (or custom) and name. */
export const rulePath = (rule: { pricing_entity_id?: unknown; product_id?: unknown; rule_name?: unknown; level?: unknown }) => {
  const set: RuleSet = rule.pricing_entity_id || String(rule.level ?? '').startsWith('entity') ? 'entity' : 'global'
  return `${SET_BASE[set]}/${rule.product_id ? String(rule.product_id) : 'custom'}/${encodeURIComponent(String(rule.rule_name ?? ''))}`
}

/** The chain of rules behind a price, in order: what each did (applied, overridden, not reached). */
export function RuleChain({ chain, currency, productId }: { chain: ChainStep[]; currency: string; productId: string }) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  if (!chain.length) return <span className="text-slate-500">—</span>
  return (
    <ol className="space-y-0.5 text-xs" data-testid="rule-chain">
      {chain.map((step) => (
        <li key={step.rule_id} className={step.effect === 'applied' ? '' : 'text-slate-500 line-through decoration-slate-400 dark:text-slate-500'}>
          <Link
            className="font-mono underline-offset-2 hover:underline"
            to={href(rulePath({ ...step, pricing_entity_id: step.level.startsWith('entity') ? 'x' : null, product_id: step.level.endsWith('product') ? productId : null }))}
          >
            {step.rule_name}
          </Link>{' '}
          <span className="text-slate-500 dark:text-slate-400">
            {t(`levels.${step.level}`)} · {t(`kinds.${step.kind}`)}
          </span>{' '}
          {step.effect === 'applied' && step.after_minor !== null ? (
            <span className="tabular-nums">
              {money(step.before_minor, currency, i18n.language)} → {money(step.after_minor, currency, i18n.language)}
            </span>
          ) : (
            <span>{t(`effects.${step.effect}`)}</span>
          )}
        </li>
      ))}
    </ol>
  )
}

/** A price below cost, in red, or the margin. */
export function Margin({ percent, belowCost }: { percent: number | null; belowCost: boolean }) {
  const { t, i18n } = useTranslation('pricing')
  if (percent === null) return <span className="text-slate-500">—</span>
  return belowCost ? (
    <Badge color="red" data-testid="below-cost">
      {t('belowCost')} ({percent.toLocaleString(i18n.language)} %)
    </Badge>
  ) : (
    <span className="tabular-nums">{percent.toLocaleString(i18n.language)} %</span>
  )
}

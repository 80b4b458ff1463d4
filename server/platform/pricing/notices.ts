import { formatMoney } from '#common/money.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { selects } from './engine.ts'
import { accountQuoter } from './service.ts'
import { engineProduct } from './store.ts'
import { accountsPricedBy } from '#server/platform/accounts/reads.ts'
import { billingEntityById } from '#server/platform/billing/reads.ts'

export const PRICING_JOBS = { priceRise: 'pricing.price-rise-notices' } as const

const DAY = 86_400_000

/**
 * Price-rise notices (issue 17, decision 300): a rule window that takes effect later is announced
 * to each account whose price of a product it selects rises with it — the account's list and
 * currency, the price just before the window against the price from its start — once its price
 * list's notice_days before the start. Marked (rule, version, account) before the mail goes, so a
 * change is announced once; a window changed later is a new version and is announced again.
 * Mailed to the billing address of the account's billing entity.
 */
export async function runPriceRiseNotices(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger' | 'now'>): Promise<number> {
  const { db } = deps
  const now = deps.now()
  const entities = await db.selectFrom('pricing_entities').select(['id', 'name', 'notice_days', 'is_default']).execute()
  const horizon = Math.max(0, ...entities.map((e) => e.notice_days))
  if (!horizon) return 0
  const upcoming = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('starts_at', '>', now)
    .where('starts_at', '<=', new Date(now.getTime() + horizon * DAY))
    .orderBy('starts_at')
    .execute()
  if (!upcoming.length) return 0
  const products = await db.selectFrom('products').select(['id', 'code', 'name', 'kind', 'action', 'tld', 'tags']).where('is_active', '=', true).where('kind', '=', 'domain').execute()
  let sent = 0
  for (const rule of upcoming) {
    const startsAt = rule.starts_at!
    const selected = products.filter((p) => (rule.product_id ? p.id === rule.product_id : rule.selector ? selects(rule.selector, engineProduct(p)) : false))
    if (!selected.length) continue
    const noticed = new Set((await db.selectFrom('price_rise_notices').select('account_id').where('rule_id', '=', rule.id).where('rule_version', '=', rule.version).execute()).map((n) => n.account_id))
    const due = entities.filter((e) => (rule.pricing_entity_id === null || rule.pricing_entity_id === e.id) && startsAt.getTime() - e.notice_days * DAY <= now.getTime())
    for (const entity of due) {
      const accounts = await accountsPricedBy(db, entity).select(['id', 'name', 'billing_entity_id']).execute()
      for (const account of accounts) {
        if (noticed.has(account.id)) continue
        const [before, after] = await Promise.all([accountQuoter(db, account.id, new Date(startsAt.getTime() - 1)), accountQuoter(db, account.id, startsAt)])
        const rises: { product: string; was: { total_minor: number; currency: string }; will: { total_minor: number; currency: string } }[] = []
        for (const p of selected) {
          const item = [{ tld: p.tld ?? '', action: p.action, period: 1 }]
          const [was] = await before.quote(item).catch(() => [undefined])
          const [will] = await after.quote(item).catch(() => [undefined])
          if (was && will && will.total_minor > was.total_minor) rises.push({ product: `${p.name} (${p.code})`, was, will })
        }
        if (!rises.length) continue
        const marked = await db
          .insertInto('price_rise_notices')
          .values({ rule_id: rule.id, rule_version: rule.version, account_id: account.id })
          .onConflict((oc) => oc.doNothing())
          .returning('account_id')
          .executeTakeFirst()
        if (!marked) continue
        const billing = account.billing_entity_id ? await billingEntityById(db, account.billing_entity_id).select(['billing_email', 'invoice_language']).executeTakeFirst() : undefined
        const to = billing?.billing_email
        if (!to) {
          deps.logger.info('price-rise notice without a billing address', { account: account.id, rule: rule.id })
          continue
        }
        const day = startsAt.toISOString().slice(0, 10)
        // In the billing entity's language, the one its invoices are written in.
        const t = mailTexts(billing?.invoice_language)
        const money = (minor: number, currency: string) => formatMoney(minor, currency, billing?.invoice_language ?? 'en')
        const lines = rises.map((r) => `- ${r.product}: ${money(r.was.total_minor, r.was.currency)} → ${money(r.will.total_minor, r.will.currency)}`)
        try {
          await deps.mailer.send({
            to,
            subject: t('priceRise.subject', { date: day, account: account.name }),
            text: `${t('priceRise.intro', { date: day, account: account.name })}\n\n${lines.join('\n')}\n\n${t('priceRise.outro', { date: day })}`,
          })
          sent++
        } catch (error) {
          deps.logger.error('price-rise notice mail failed', { account: account.id, rule: rule.id, error })
        }
      }
    }
  }
  return sent
}

import type { Kysely } from 'kysely'
import { formatMoney } from '#common/money.ts'
import type { DB } from '#server/db/schema.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { assignPricingEntity, createPricingEntity, createRule } from '#server/platform/pricing/service.ts'
import { createProduct, updateProduct, uploadCosts } from '#server/platform/products/service.ts'
import { createTemplate } from '#server/platform/products/templates.ts'

/**
 * Demo price lists (issue 17), made through the services the API uses: costs uploaded as CSV for
 * the offered TLDs' products (the trigger of migration 0700 made them), three price lists and a
 * handful of rules, one of each level, so /invoicing/pricing-entities/{id}/applicable-rules has
 * every kind of explanation to show.
 */
export async function seedPricing(db: Kysely<DB>, accounts: { corporate: string[] }) {
  const scope = systemScope('demo-seed')
  const now = new Date()
  const since = '2026-01-01'
  const tlds = await db.selectFrom('tlds').select(['name', 'list_price_minor', 'currency']).where('is_offered', '=', true).execute()
  // What the registries charge us: a share of the old list price per action, in the TLD's currency.
  const share: Record<string, number> = { register: 0.7, renew: 0.7, transfer: 0.7, restore: 3, trade: 0.5, 'registry-lock': 2 }
  const lines = ['code,currency,amount,effective_from']
  for (const tld of tlds) {
    const currency = tld.currency.trim()
    for (const [action, factor] of Object.entries(share)) {
      const minor = Math.round(Number(tld.list_price_minor ?? 0) * factor)
      lines.push(`domain:${tld.name}:${action},${currency},"${formatMoney(minor, currency, 'en').replace(/[^\d.,]/g, '')}",${since}`)
    }
  }
  // Beyond domains: DV certificates from the CA, a premium DNS service and a DPML block, made as staff make them (POST /v1/products), with what they cost us.
  const others: [code: string, name: string, kind: 'ssl' | 'service' | 'block', action: string, tags: string[], cost: string][] = [
    ['ssl:dv-single:order', 'DV certificate, one name', 'ssl', 'order', ['ssl', 'dv'], '8.00'],
    ['ssl:dv-multi:order', 'DV certificate, up to 10 names', 'ssl', 'order', ['ssl', 'dv'], '24.00'],
    ['ssl:dv-wildcard:order', 'DV wildcard certificate', 'ssl', 'order', ['ssl', 'dv'], '45.00'],
    ['service:premium-dns:subscribe', 'Premium DNS (anycast, DNSSEC)', 'service', 'subscribe', ['dns'], '3.00'],
    ['block:dpml:order', 'DPML block', 'block', 'order', ['brand-protection'], '150.00'],
  ]
  for (const [code, name, kind, action, tags, cost] of others) {
    await createProduct(db, scope, { code, name, kind, action, tags, periods: [1] })
    lines.push(`${code},EUR,${cost},${since}`)
  }
  // A cost rise announced for later: .com registrations cost more from next year on.
  lines.push(`domain:com:register,EUR,9.95,${now.getUTCFullYear() + 1}-01-01`)
  await uploadCosts(db, scope, lines.join('\n'), true, now)

  const retail = await createPricingEntity(db, scope, { name: 'Retail', currencies: ['EUR', 'USD', 'JPY'], is_default: true })
  const corporate = await createPricingEntity(db, scope, { name: 'Corporate', currencies: ['EUR', 'USD'] })
  await createPricingEntity(db, scope, { name: 'Partner', currencies: ['EUR'] })
  for (const account of accounts.corporate) await assignPricingEntity(db, scope, account, corporate.id)

  const com = await db.selectFrom('products').select('id').where('code', '=', 'domain:com:register').executeTakeFirstOrThrow()
  const year = now.getUTCFullYear()
  await createRule(db, scope, 'global', { rule_name: 'standard-margin', selector: { kinds: ['domain'] }, kind: 'margin', percent: 40 }, now)
  await createRule(db, scope, 'global', { rule_name: 'charm-pricing', selector: { kinds: ['domain'] }, kind: 'rounding', mode: 'ends-99' }, now)
  await createRule(db, scope, 'global', { rule_name: 'com-price', product_id: com.id, kind: 'fixed', amount: '11.99', currency: 'EUR' }, now)
  await createRule(db, scope, 'global', { rule_name: 'margin-floor', selector: { kinds: ['domain'] }, kind: 'minimum-margin', percent: 5 }, now)
  await createRule(db, scope, 'global', { rule_name: 'products-margin', selector: { kinds: ['ssl', 'service', 'block'] }, kind: 'margin', percent: 60 }, now)
  await createRule(db, scope, 'global', { rule_name: 'products-charm', selector: { kinds: ['ssl', 'service', 'block'] }, kind: 'rounding', mode: 'ends-99' }, now)
  // "Why is .com 12.99?": Retail's own price for it, over the global margin and the global fixed price.
  await createRule(db, scope, 'entity', { rule_name: 'com-retail', pricing_entity_id: retail.id, product_id: com.id, kind: 'fixed', amount: '12.99', currency: 'EUR' }, now)
  await createRule(
    db,
    scope,
    'entity',
    { rule_name: 'corporate-margin', pricing_entity_id: corporate.id, selector: { kinds: ['domain'], actions: ['register', 'renew', 'transfer'] }, kind: 'margin', percent: 25 },
    now,
  )
  await createRule(
    db,
    scope,
    'entity',
    {
      rule_name: 'shop-launch',
      pricing_entity_id: retail.id,
      selector: { tlds: ['shop'], actions: ['register'] },
      kind: 'promotion',
      amount: '4.99',
      currency: 'EUR',
      first_year_only: true,
      starts_at: `${year}-01-01`,
      ends_at: `${year + 1}-01-01`,
      below_cost_reason: 'Launch campaign: first year below cost, renewals at the regular price',
    },
    now,
  )

  // What .eu asks of a registrant, as a registrar template on its registration product.
  const template = await createTemplate(db, scope, {
    name: '.eu eligibility',
    schema: {
      type: 'object',
      required: ['citizenship'],
      properties: {
        citizenship: {
          type: 'string',
          enum: ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'],
          ui: { widget: 'select', label: { en: 'EU citizenship', es: 'Ciudadanía de la UE', ja: 'EU 市民権' } },
        },
        company_number: { type: ['string', 'null'], maxLength: 40, ui: { label: { en: 'Company number', es: 'Número de empresa', ja: '法人番号' } } },
      },
      additionalProperties: false,
    },
  })
  const eu = await db.selectFrom('products').select(['id', 'version']).where('code', '=', 'domain:eu:register').executeTakeFirstOrThrow()
  await updateProduct(db, scope, eu.id, { registrar_template_id: template.id, version: eu.version })
}

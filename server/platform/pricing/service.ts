import { sql, type Kysely } from 'kysely'
import { INVALID_MONETARY_VALUE, parseMoney } from '#common/money.ts'
import { PRICING_ENTITIES_LIST, PRICING_RULES_LIST } from '#common/lists/pricing.ts'
import { PRICING_RULE_KINDS, ROUNDING_MODES, RULE_NAME, type ChainStep, type NoPrice, type PricingRuleKind, type Quote, type RuleParams, type RuleSelector } from '#common/pricing.ts'
import type { DB } from '#server/db/schema.ts'
import type { PricingEntity, PricingRuleRow } from '#server/db/schema-pricing.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { AppError, type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { candidatesFor, costsAt, priceProduct, ruleBook, selects, type EngineCost, type EngineProduct, type EngineRule, type RateLookup, type RuleBook } from './engine.ts'
import { engineProduct, engineRule, entityOfAccount, loadCosts, loadRates, loadRuleBook } from './store.ts'
import { accountById, countAccounts } from '#server/platform/accounts/reads.ts'
import { setAccountPricingEntity } from '#server/platform/accounts/writes.ts'

/** Price lists, pricing rules with preview, applicable rules and quotes (issue 17, decision 300). */

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const AREA = 'invoicing'

// --- Price lists -------------------------------------------------------------------------------

export const pricingEntitiesResource = listResource(PRICING_ENTITIES_LIST, {
  from: 'pricing_entities pe',
  tiebreak: 'pe.id',
  columns: {
    id: 'pe.id',
    name: 'pe.name',
    currencies: 'pe.currencies',
    is_default: 'pe.is_default',
    notice_days: 'pe.notice_days',
    accounts: { column: countAccounts('a', 'a.pricing_entity_id = pe.id OR (a.pricing_entity_id IS NULL AND pe.is_default)'), joined: true },
    version: 'pe.version',
    created_at: 'pe.created_at',
    updated_at: 'pe.updated_at',
  },
})

export const pricingRulesResource = listResource(PRICING_RULES_LIST, {
  from: 'pricing_rules r LEFT JOIN pricing_entities pe ON pe.id = r.pricing_entity_id LEFT JOIN products p ON p.id = r.product_id',
  tiebreak: 'r.id',
  columns: {
    id: 'r.id',
    rule_name: 'r.rule_name',
    level: {
      column:
        "CASE WHEN r.pricing_entity_id IS NULL THEN (CASE WHEN r.product_id IS NULL THEN 'global-custom' ELSE 'global-product' END) ELSE (CASE WHEN r.product_id IS NULL THEN 'entity-custom' ELSE 'entity-product' END) END",
    },
    is_custom: '(r.product_id IS NULL)',
    pricing_entity_id: 'r.pricing_entity_id',
    'pricing_entity.name': { column: 'pe.name', joined: true },
    product_id: 'r.product_id',
    'product.code': { column: 'p.code', joined: true },
    selector: 'r.selector',
    kind: 'r.kind',
    params: 'r.params',
    currency: 'r.currency',
    starts_at: 'r.starts_at',
    ends_at: 'r.ends_at',
    below_cost_reason: 'r.below_cost_reason',
    version: 'r.version',
    created_at: 'r.created_at',
    updated_at: 'r.updated_at',
  },
})

const entityJson = (row: PricingEntity) => ({ ...row, currencies: row.currencies.map((c) => c.trim()), created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() })
export type PricingEntityJson = ReturnType<typeof entityJson>

export async function getPricingEntity(db: Kysely<DB>, scope: Scope, id: string): Promise<PricingEntityJson> {
  requirePermission(scope.actor, 'staff')
  const row = await db.selectFrom('pricing_entities').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Pricing entity not found')
  return entityJson(row)
}

export type PricingEntityInput = { name: string; currencies: string[]; is_default?: boolean; notice_days?: number }

async function entityErrors(db: Kysely<DB>, input: Partial<PricingEntityInput>): Promise<CodedFieldError[]> {
  const errors: CodedFieldError[] = []
  if (input.name !== undefined && !input.name.trim()) errors.push(fieldError('name', 'required', 'A name is required'))
  if (input.currencies !== undefined) {
    const bad = input.currencies.filter((c) => !CURRENCIES.has(c))
    if (!input.currencies.length || bad.length) errors.push(fieldError('currencies', 'currency.invalid', `Not ISO 4217 currency codes: ${bad.join(', ') || 'none given'}`))
  }
  return errors
}

/** Makes a price list (staff). The first one made is the default list. */
export async function createPricingEntity(db: Kysely<DB>, scope: Scope, input: PricingEntityInput): Promise<PricingEntityJson> {
  requirePermission(scope.actor, 'staff')
  const errors = await entityErrors(db, input)
  if (errors.length) throw invalid(errors[0]!.code, 'The price list is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    if (await tx.selectFrom('pricing_entities').select('id').where('name', '=', input.name.trim()).executeTakeFirst())
      throw invalid('pricing_entity.name_taken', 'The name is taken', [fieldError('name', 'pricing_entity.name_taken', 'Another price list has this name')])
    const first = !(await tx.selectFrom('pricing_entities').select('id').limit(1).executeTakeFirst())
    const isDefault = input.is_default ?? first
    if (isDefault) await tx.updateTable('pricing_entities').set({ is_default: false }).where('is_default', '=', true).execute()
    const row = await tx
      .insertInto('pricing_entities')
      .values({ name: input.name.trim(), currencies: [...new Set(input.currencies)], is_default: isDefault, ...(input.notice_days !== undefined ? { notice_days: input.notice_days } : {}) })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'pricing-entity', entityId: row.id, action: 'create', after: entityJson(row) })
    return entityJson(row)
  })
}

export async function updatePricingEntity(db: Kysely<DB>, scope: Scope, id: string, patch: Partial<PricingEntityInput> & { version: number }): Promise<PricingEntityJson> {
  requirePermission(scope.actor, 'staff')
  const { version, ...fields } = patch
  const errors = await entityErrors(db, fields)
  if (errors.length) throw invalid(errors[0]!.code, 'The price list is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('pricing_entities').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Pricing entity not found')
    if (before.version !== version) throw staleVersion(before.version)
    if (fields.name !== undefined && (await tx.selectFrom('pricing_entities').select('id').where('name', '=', fields.name.trim()).where('id', '<>', id).executeTakeFirst())) {
      throw invalid('pricing_entity.name_taken', 'The name is taken', [fieldError('name', 'pricing_entity.name_taken', 'Another price list has this name')])
    }
    if (fields.is_default === false && before.is_default)
      throw invalid('pricing_entity.default_needed', 'Make another list the default instead', [fieldError('is_default', 'pricing_entity.default_needed', 'Make another list the default instead')])
    if (fields.is_default) await tx.updateTable('pricing_entities').set({ is_default: false }).where('is_default', '=', true).where('id', '<>', id).execute()
    const after = await tx
      .updateTable('pricing_entities')
      .set({
        ...fields,
        ...(fields.name !== undefined ? { name: fields.name.trim() } : {}),
        ...(fields.currencies ? { currencies: [...new Set(fields.currencies)] } : {}),
        version: before.version + 1,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'pricing-entity', entityId: id, action: 'update', before: entityJson(before), after: entityJson(after) })
    return entityJson(after)
  })
}

/** Puts an account on a price list (null: the default list), audited on both. */
/** The price list an account is on (staff): the one it names, or the default list when it names none (`assigned` false). */
export async function accountPricingEntity(db: Kysely<DB>, scope: Scope, accountId: string): Promise<{ pricing_entity: { id: string; name: string; is_default: boolean } | null; assigned: boolean }> {
  requirePermission(scope.actor, 'staff')
  const account = await accountById(db, accountId).select(['pricing_entity_id']).executeTakeFirst()
  if (!account) throw notFound('Account not found')
  let query = db.selectFrom('pricing_entities').select(['id', 'name', 'is_default'])
  query = account.pricing_entity_id ? query.where('id', '=', account.pricing_entity_id) : query.where('is_default', '=', true)
  return { pricing_entity: (await query.executeTakeFirst()) ?? null, assigned: account.pricing_entity_id !== null }
}

export async function assignPricingEntity(db: Kysely<DB>, scope: Scope, accountId: string, pricingEntityId: string | null): Promise<void> {
  requirePermission(scope.actor, 'staff')
  await change(db, scope, async (tx, audit) => {
    const before = await accountById(tx, accountId).select(['id', 'pricing_entity_id']).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Account not found')
    if (pricingEntityId && !(await tx.selectFrom('pricing_entities').select('id').where('id', '=', pricingEntityId).executeTakeFirst())) {
      throw invalid('pricing_entity.not_found', 'No such price list', [fieldError('pricing_entity_id', 'pricing_entity.not_found', 'No such price list')])
    }
    await setAccountPricingEntity(tx, accountId, pricingEntityId)
    await audit.record({
      area: AREA,
      entityType: 'account-pricing',
      entityId: accountId,
      action: 'update',
      before: { pricing_entity_id: before.pricing_entity_id },
      after: { pricing_entity_id: pricingEntityId },
    })
  })
}

// --- Rules ------------------------------------------------------------------------------------

export type RuleSet = 'global' | 'entity'

/** What staff send for one window of a rule; money as spec §5 text (or a number). */
export type RuleInput = {
  rule_name: string
  pricing_entity_id?: string | null
  product_id?: string | null
  selector?: RuleSelector | null
  kind: PricingRuleKind
  percent?: number | null
  amount?: string | number | null
  currency?: string | null
  mode?: string | null
  first_year_only?: boolean
  tiers?: { min_quantity: number; percent_off: number }[] | null
  starts_at?: string | null
  ends_at?: string | null
  below_cost_reason?: string | null
}

export type RuleWindowJson = {
  id: string
  rule_name: string
  set: RuleSet
  pricing_entity_id: string | null
  product_id: string | null
  selector: RuleSelector | null
  kind: PricingRuleKind
  params: RuleParams
  currency: string | null
  starts_at: string | null
  ends_at: string | null
  below_cost_reason: string | null
  version: number
  created_at: string
  updated_at: string
}

export const ruleJson = (row: PricingRuleRow): RuleWindowJson => ({
  id: row.id,
  rule_name: row.rule_name,
  set: row.pricing_entity_id ? 'entity' : 'global',
  pricing_entity_id: row.pricing_entity_id,
  product_id: row.product_id,
  selector: row.selector,
  kind: row.kind,
  params: row.params,
  currency: row.currency?.trim() ?? null,
  starts_at: row.starts_at?.toISOString() ?? null,
  ends_at: row.ends_at?.toISOString() ?? null,
  below_cost_reason: row.below_cost_reason,
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})

/** The audit key of a rule (all its windows): set, product or custom, name — what its /log reads. */
export const ruleKey = (rule: { pricing_entity_id: string | null; product_id: string | null; rule_name: string }) =>
  `${rule.pricing_entity_id ? 'entity' : 'global'}/${rule.product_id ?? 'custom'}/${rule.rule_name}`

/** The windows of one rule, by its set, product id (or "custom") and name. */
export async function getRule(db: Kysely<DB>, scope: Scope, set: RuleSet, productOrCustom: string, ruleName: string): Promise<RuleWindowJson[]> {
  requirePermission(scope.actor, 'staff')
  let query = db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('rule_name', '=', ruleName)
    .where('pricing_entity_id', set === 'global' ? 'is' : 'is not', null)
  query = productOrCustom === 'custom' ? query.where('product_id', 'is', null) : query.where('product_id', '=', productOrCustom)
  const rows = await query.orderBy('starts_at', 'asc').execute()
  if (!rows.length) throw notFound('Pricing rule not found')
  return rows.map(ruleJson)
}

const parseInstant = (value: string | null | undefined): Date | null | 'invalid' => {
  if (value === null || value === undefined || value === '') return null
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  return Number.isNaN(date.getTime()) ? 'invalid' : date
}

type ValidRule = {
  rule_name: string
  pricing_entity_id: string | null
  product_id: string | null
  selector: RuleSelector | null
  kind: PricingRuleKind
  params: RuleParams
  currency: string | null
  starts_at: Date | null
  ends_at: Date | null
  below_cost_reason: string | null
}

/** Checks a rule window against the rules of §5 and the stored state; every error beside its field. */
async function validateRule(db: Kysely<DB>, input: RuleInput, set: RuleSet, exceptId: string | null): Promise<ValidRule> {
  const errors: CodedFieldError[] = []
  if (!RULE_NAME.test(input.rule_name ?? '')) errors.push(fieldError('rule_name', 'pricing_rule.name_invalid', 'A rule name is lowercase letters, digits and . _ -'))
  if (!(PRICING_RULE_KINDS as readonly string[]).includes(input.kind)) errors.push(fieldError('kind', 'pricing_rule.kind_invalid', 'Not a rule kind', [...PRICING_RULE_KINDS]))
  const entityId = set === 'entity' ? (input.pricing_entity_id ?? null) : null
  if (set === 'entity') {
    if (!entityId) errors.push(fieldError('pricing_entity_id', 'required', 'A price list is required'))
    else if (!(await db.selectFrom('pricing_entities').select('id').where('id', '=', entityId).executeTakeFirst()))
      errors.push(fieldError('pricing_entity_id', 'pricing_entity.not_found', 'No such price list'))
  }
  const productId = input.product_id ?? null
  let selector: RuleSelector | null = null
  if (productId) {
    if (!(await db.selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst())) errors.push(fieldError('product_id', 'product.not_found', 'No such product'))
  } else {
    const s = input.selector ?? {}
    const clean = (v: string[] | undefined) => [...new Set((v ?? []).map((x) => x.trim().toLowerCase().replace(/^\./, '')).filter(Boolean))]
    selector = Object.fromEntries(Object.entries({ kinds: clean(s.kinds), actions: clean(s.actions), tlds: clean(s.tlds), tags: clean(s.tags) }).filter(([, v]) => v.length)) as RuleSelector
    if (!Object.keys(selector).length) errors.push(fieldError('selector', 'pricing_rule.selector_empty', 'Choose the products: kinds, actions, TLDs or tags'))
    else {
      const products = await db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('is_active', '=', true).execute()
      if (!products.some((p) => selects(selector!, engineProduct(p)))) errors.push(fieldError('selector', 'pricing_rule.selector_matches_nothing', 'The selector matches no product'))
    }
  }
  const currency = input.currency ? input.currency.trim().toUpperCase() : null
  if (currency && !CURRENCIES.has(currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
  const params: RuleParams = {}
  const kind = input.kind
  if (kind === 'margin' || kind === 'minimum-margin') {
    if (typeof input.percent !== 'number' || !Number.isFinite(input.percent) || input.percent <= -100 || input.percent > 10_000)
      errors.push(fieldError('percent', 'pricing_rule.percent_invalid', 'A percentage above -100'))
    else params.percent = Math.round(input.percent * 100) / 100
  }
  if (kind === 'markup' || kind === 'fixed' || kind === 'promotion') {
    if (!currency) errors.push(fieldError('currency', 'required', 'The currency of the amount is required'))
    const money = parseMoney(input.amount, currency && CURRENCIES.has(currency) ? currency : 'EUR')
    if (!money.ok || money.minor < 0) errors.push(fieldError('amount', INVALID_MONETARY_VALUE, 'Not a monetary value (digits, optional thousands commas, up to 2 decimals; none for JPY)'))
    else params.amount_minor = money.minor
    if (kind === 'promotion' && input.first_year_only) params.first_year_only = true
  }
  if (kind === 'rounding') {
    if (!(ROUNDING_MODES as readonly string[]).includes(input.mode ?? '')) errors.push(fieldError('mode', 'pricing_rule.mode_invalid', 'Round to .99 or to a whole unit', [...ROUNDING_MODES]))
    else params.mode = input.mode as RuleParams['mode']
  }
  if (kind === 'volume') {
    const tiers = input.tiers ?? []
    if (!tiers.length || tiers.some((t) => !Number.isInteger(t.min_quantity) || t.min_quantity < 2 || !(t.percent_off > 0 && t.percent_off < 100)))
      errors.push(fieldError('tiers', 'pricing_rule.tiers_invalid', 'Tiers start at a quantity of 2 or more and take 0–100 % off'))
    else params.tiers = [...tiers].sort((a, b) => a.min_quantity - b.min_quantity)
  }
  const starts = parseInstant(input.starts_at)
  const ends = parseInstant(input.ends_at)
  if (starts === 'invalid') errors.push(fieldError('starts_at', 'pricing_rule.date_invalid', 'A date is YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ'))
  if (ends === 'invalid') errors.push(fieldError('ends_at', 'pricing_rule.date_invalid', 'A date is YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ'))
  if (starts instanceof Date && ends instanceof Date && starts >= ends) errors.push(fieldError('ends_at', 'pricing_rule.window_invalid', 'The end comes after the start'))
  if (kind === 'promotion' && !(ends instanceof Date)) errors.push(fieldError('ends_at', 'pricing_rule.promotion_end', 'A promotion ends'))
  if (errors.length) throw invalid(errors[0]!.code, 'The pricing rule is not valid', errors)

  // One rule, one name in its set, one product or custom choice, one price list; windows apart.
  const siblings = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where('rule_name', '=', input.rule_name)
    .where('pricing_entity_id', set === 'global' ? 'is' : 'is not', null)
    .execute()
  const others = siblings.filter((r) => r.id !== exceptId)
  if (others.some((r) => r.product_id !== productId || r.pricing_entity_id !== entityId)) {
    throw refused('pricing_rule.name_taken', 'Another rule has this name', [fieldError('rule_name', 'pricing_rule.name_taken', 'Another rule of this set has this name')])
  }
  const s = starts instanceof Date ? starts.getTime() : -Infinity
  const e = ends instanceof Date ? ends.getTime() : Infinity
  const overlap = others.find((r) => (r.starts_at?.getTime() ?? -Infinity) < e && s < (r.ends_at?.getTime() ?? Infinity))
  if (overlap) {
    const message = `The window overlaps another window of this rule (${overlap.starts_at?.toISOString().slice(0, 10) ?? '…'} – ${overlap.ends_at?.toISOString().slice(0, 10) ?? '…'})`
    throw refused('pricing_rule.overlap', message, [fieldError('starts_at', 'pricing_rule.overlap', message)])
  }
  return {
    rule_name: input.rule_name,
    pricing_entity_id: entityId,
    product_id: productId,
    selector,
    kind,
    params,
    currency,
    starts_at: starts instanceof Date ? starts : null,
    ends_at: ends instanceof Date ? ends : null,
    below_cost_reason: input.below_cost_reason?.trim() || null,
  }
}

export type PriceChange = {
  product_id: string
  product_code: string
  pricing_entity_id: string
  pricing_entity_name: string
  currency: string
  old_minor: number | null
  new_minor: number | null
  cost_minor: number | null
  margin_percent: number | null
  below_cost: boolean
  no_price: NoPrice['reason'] | null
}

export type RulePreview = { at: string; changed: number; below_cost: number; no_price: number; changes: PriceChange[] }
const PREVIEW_ROWS = 500

/**
 * The prices a rule change moves, at the moment it takes effect (its start, or now): for every
 * price list it reaches, every currency of the list and every product it may touch, old → new.
 */
async function previewChange(db: Kysely<DB>, rule: ValidRule, replacingId: string | null, now: Date): Promise<RulePreview> {
  const at = Math.max(now.getTime(), rule.starts_at?.getTime() ?? 0)
  const entities = await (rule.pricing_entity_id ? db.selectFrom('pricing_entities').selectAll().where('id', '=', rule.pricing_entity_id) : db.selectFrom('pricing_entities').selectAll())
    .orderBy('name')
    .execute()
  let productsQuery = db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('is_active', '=', true)
  const ids = [rule.product_id, replacingId ? (await db.selectFrom('pricing_rules').select('product_id').where('id', '=', replacingId).executeTakeFirst())?.product_id : null].filter(
    (x): x is string => Boolean(x),
  )
  if (rule.product_id) productsQuery = productsQuery.where('id', 'in', ids)
  const candidates = (await productsQuery.orderBy('code').execute()).map(engineProduct)
  const draft: EngineRule = engineRule({ ...rule, id: replacingId ?? 'draft', version: 1, created_at: new Date(), updated_at: new Date() } as PricingRuleRow)
  const touched = rule.product_id ? candidates : candidates.filter((p) => selects(rule.selector!, p))
  const costs = await loadCosts(
    db,
    touched.map((p) => p.id),
  )
  const rates = await loadRates(db)
  const rows = await db.selectFrom('pricing_rules').selectAll().execute()
  const stored = rows.map(engineRule)
  const changes: PriceChange[] = []
  let changed = 0
  let belowCost = 0
  let noPrice = 0
  for (const entity of entities) {
    const mine = stored.filter((r) => r.level.startsWith('global') || rows.find((x) => x.id === r.id)!.pricing_entity_id === entity.id)
    const before = ruleBook(mine)
    const after = ruleBook([...mine.filter((r) => r.id !== replacingId), ...(rule.pricing_entity_id === null || rule.pricing_entity_id === entity.id ? [draft] : [])])
    for (const currency of entity.currencies.map((c) => c.trim())) {
      for (const product of touched) {
        const args = { product, costs: costs.get(product.id) ?? [], currency, rates, at: at, pricingEntityId: entity.id }
        const old = priceProduct({ ...args, book: before })
        const next = priceProduct({ ...args, book: after })
        const oldMinor = old.ok ? old.quote.unit_minor : null
        const newMinor = next.ok ? next.quote.unit_minor : null
        if (oldMinor === newMinor) continue
        changed++
        const below = next.ok && next.quote.below_cost
        if (below) belowCost++
        if (!next.ok) noPrice++
        if (changes.length < PREVIEW_ROWS || below) {
          const cost = next.ok ? next.quote.cost_minor : old.ok ? old.quote.cost_minor : null
          changes.push({
            product_id: product.id,
            product_code: product.code,
            pricing_entity_id: entity.id,
            pricing_entity_name: entity.name,
            currency,
            old_minor: oldMinor,
            new_minor: newMinor,
            cost_minor: cost,
            margin_percent: newMinor !== null && cost ? Math.round(((newMinor - cost) / cost) * 1000) / 10 : null,
            below_cost: below,
            no_price: next.ok ? null : next.reason,
          })
        }
      }
    }
  }
  return { at: new Date(at).toISOString(), changed, below_cost: belowCost, no_price: noPrice, changes }
}

/** A rule change without saving it: the prices it moves (old → new, margin), flagged below cost. */
export async function previewRule(db: Kysely<DB>, scope: Scope, set: RuleSet, input: RuleInput, replacingId: string | null, now: Date): Promise<RulePreview> {
  requirePermission(scope.actor, 'staff')
  return previewChange(db, await validateRule(db, input, set, replacingId), replacingId, now)
}

/** The refusal of a change that would sell below cost without a stated reason. */
function belowCostRefusal(preview: RulePreview) {
  const message = `${preview.below_cost} price(s) would be below cost: confirm with a reason`
  return new AppError(409, 'pricing_rule.below_cost', message, { errors: [fieldError('below_cost_reason', 'pricing_rule.below_cost', message)], extra: { preview } })
}

/** Saves a new window of a rule (a new rule when the name is new), after the preview's checks. */
export async function createRule(db: Kysely<DB>, scope: Scope, set: RuleSet, input: RuleInput, now: Date): Promise<{ rule: RuleWindowJson; preview: RulePreview }> {
  requirePermission(scope.actor, 'staff')
  const rule = await validateRule(db, input, set, null)
  const preview = await previewChange(db, rule, null, now)
  if (preview.below_cost && !rule.below_cost_reason) throw belowCostRefusal(preview)
  const saved = await change(db, scope, async (tx, audit) => {
    // The same checks under a lock of the rule's name, so two saves cannot both pass the overlap check.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${ruleKey(rule)}))`.execute(tx)
    await validateRule(tx, input, set, null)
    const row = await tx
      .insertInto('pricing_rules')
      .values({ ...rule, selector: rule.selector ? JSON.stringify(rule.selector) : null, params: JSON.stringify(rule.params) })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'pricing-rule', entityId: ruleKey(row), action: 'create', after: ruleJson(row) })
    return ruleJson(row)
  })
  return { rule: saved, preview }
}

/** Changes one window of a rule (with its version), after the preview's checks. */
export async function updateRule(db: Kysely<DB>, scope: Scope, id: string, input: RuleInput & { version: number }, now: Date): Promise<{ rule: RuleWindowJson; preview: RulePreview }> {
  requirePermission(scope.actor, 'staff')
  const current = await db.selectFrom('pricing_rules').selectAll().where('id', '=', id).executeTakeFirst()
  if (!current) throw notFound('Pricing rule not found')
  const set: RuleSet = current.pricing_entity_id ? 'entity' : 'global'
  const merged: RuleInput = {
    ...input,
    rule_name: current.rule_name,
    product_id: current.product_id,
    pricing_entity_id: current.pricing_entity_id,
    ...(current.product_id ? {} : { selector: input.selector ?? current.selector }),
  }
  const rule = await validateRule(db, merged, set, id)
  const preview = await previewChange(db, rule, id, now)
  if (preview.below_cost && !rule.below_cost_reason) throw belowCostRefusal(preview)
  const saved = await change(db, scope, async (tx, audit) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${ruleKey(rule)}))`.execute(tx)
    const before = await tx.selectFrom('pricing_rules').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow()
    if (before.version !== input.version) throw staleVersion(before.version)
    await validateRule(tx, merged, set, id)
    const after = await tx
      .updateTable('pricing_rules')
      .set({
        selector: rule.selector ? JSON.stringify(rule.selector) : null,
        kind: rule.kind,
        params: JSON.stringify(rule.params),
        currency: rule.currency,
        starts_at: rule.starts_at,
        ends_at: rule.ends_at,
        below_cost_reason: rule.below_cost_reason,
        version: before.version + 1,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'pricing-rule', entityId: ruleKey(after), action: 'update', before: ruleJson(before), after: ruleJson(after) })
    return ruleJson(after)
  })
  return { rule: saved, preview }
}

/** Removes one window of a rule (staff), audited on the rule. */
export async function deleteRule(db: Kysely<DB>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'staff')
  await change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('pricing_rules').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Pricing rule not found')
    await tx.deleteFrom('pricing_rules').where('id', '=', id).execute()
    await audit.record({ area: AREA, entityType: 'pricing-rule', entityId: ruleKey(before), action: 'delete', before: ruleJson(before) })
  })
}

// --- Applicable rules, prices and quotes -------------------------------------------------------

export type PricedRow = {
  product_id: string
  product_code: string
  product_name: string
  kind: string
  action: string
  tld: string | null
  currency: string
  price_minor: number | null
  regular_minor: number | null
  cost_minor: number | null
  margin_percent: number | null
  below_cost: boolean
  no_price: NoPrice['reason'] | null
  chain: ChainStep[]
  rates: Quote['rates']
}

type PageQuery = { page: number; limit: number; q?: string; kind?: string; currency?: string }

/**
 * Every product of a price list with its price now and the chain of rules that produced it —
 * "why is this 12.99?" — a page of products at a time (the rules are read once, the page's costs once).
 */
export async function applicableRules(
  db: Kysely<DB>,
  scope: Scope,
  entityId: string,
  query: PageQuery,
  now: Date,
): Promise<{ entity: PricingEntityJson; data: PricedRow[]; meta: { total: number; page: number; limit: number } }> {
  const entity = await getPricingEntity(db, scope, entityId)
  let base = db.selectFrom('products').where('is_active', '=', true)
  if (query.q) base = base.where((eb) => eb.or([eb('code', 'like', `%${query.q!.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`), eb('name', 'ilike', `%${query.q!.replace(/[\\%_]/g, '\\$&')}%`)]))
  if (query.kind) base = base.where('kind', '=', query.kind as never)
  const currencies = query.currency && entity.currencies.includes(query.currency) ? [query.currency] : entity.currencies
  const [{ total }] = [await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()]
  const products = await base
    .select(['id', 'code', 'name', 'kind', 'action', 'tld', 'tags'])
    .orderBy('code')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute()
  const [book, rates, costs] = await Promise.all([
    loadRuleBook(db, entity.id),
    loadRates(db),
    loadCosts(
      db,
      products.map((p) => p.id),
    ),
  ])
  const data = products.flatMap((p) => currencies.map((currency) => pricedRow(p, currency, costs.get(p.id) ?? [], book, rates, entity.id, now.getTime())))
  return { entity, data, meta: { total: Number(total), page: query.page, limit: query.limit } }
}

function pricedRow(p: EngineProduct & { name: string }, currency: string, costs: EngineCost[], book: RuleBook, rates: RateLookup, entityId: string, at: number): PricedRow {
  const priced = priceProduct({ product: p, costs, book, currency, rates, at, pricingEntityId: entityId })
  const base = { product_id: p.id, product_code: p.code, product_name: p.name, kind: p.kind, action: p.action, tld: p.tld, currency }
  if (!priced.ok) return { ...base, price_minor: null, regular_minor: null, cost_minor: null, margin_percent: null, below_cost: false, no_price: priced.reason, chain: [], rates: [] }
  const q = priced.quote
  return {
    ...base,
    price_minor: q.unit_minor,
    regular_minor: q.regular_minor,
    cost_minor: q.cost_minor,
    margin_percent: q.cost_minor ? Math.round(((q.unit_minor - q.cost_minor) / q.cost_minor) * 1000) / 10 : null,
    below_cost: q.below_cost,
    no_price: null,
    chain: q.chain,
    rates: q.rates,
  }
}

/** Prices every product of a price list in every currency of it (the benchmark's and the export's path). */
export async function priceEntity(db: Kysely<DB>, entityId: string, now: Date): Promise<{ priced: number; unpriced: number }> {
  const entity = await db.selectFrom('pricing_entities').select(['id', 'currencies']).where('id', '=', entityId).executeTakeFirstOrThrow()
  const [products, book, rates, costs] = await Promise.all([
    db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('is_active', '=', true).execute(),
    loadRuleBook(db, entityId),
    loadRates(db),
    loadCosts(db, undefined, now),
  ])
  let priced = 0
  let unpriced = 0
  const at = now.getTime()
  const pricedAt = now.toISOString()
  const currencies = entity.currencies.map((c) => c.trim())
  // The candidates and the costs in force are the product's, whatever the currency: found once.
  for (const p of products) {
    const product = engineProduct(p)
    const productCosts = costs.get(p.id) ?? []
    const candidates = candidatesFor(book, product, at)
    const costsInForce = costsAt(productCosts, at)
    for (const currency of currencies) {
      const result = priceProduct({ product, costs: productCosts, costsInForce, candidates, pricedAt, explain: false, book, currency, rates, at, pricingEntityId: entityId })
      if (result.ok) priced++
      else unpriced++
    }
  }
  return { priced, unpriced }
}

export type ClientPrice = {
  product_id: string
  product_code: string
  product_name: string
  kind: string
  action: string
  tld: string | null
  currency: string
  price_minor: number | null
  regular_minor: number | null
  promotion: boolean
}

/**
 * The prices of one account (its list, its currency), for the account's own users: never the
 * cost, the margin or the rules.
 */
export async function accountPrices(
  db: Kysely<DB>,
  scope: Scope,
  query: PageQuery,
  now: Date,
): Promise<{ currency: string; data: ClientPrice[]; meta: { total: number; page: number; limit: number } }> {
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const account = await accountById(db, accountId).select(['currency']).executeTakeFirst()
  if (!account) throw notFound('Account not found')
  const currency = account.currency.trim()
  const entity = await entityOfAccount(db, accountId)
  let base = db.selectFrom('products').where('is_active', '=', true)
  if (query.q) base = base.where('code', 'like', `%${query.q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`)
  if (query.kind) base = base.where('kind', '=', query.kind as never)
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const products = await base
    .select(['id', 'code', 'name', 'kind', 'action', 'tld', 'tags'])
    .orderBy('code')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute()
  if (!entity)
    return {
      currency,
      data: products.map((p) => ({
        product_id: p.id,
        product_code: p.code,
        product_name: p.name,
        kind: p.kind,
        action: p.action,
        tld: p.tld,
        currency,
        price_minor: null,
        regular_minor: null,
        promotion: false,
      })),
      meta: { total: Number(total), page: query.page, limit: query.limit },
    }
  const [book, rates, costs] = await Promise.all([
    loadRuleBook(db, entity.id),
    loadRates(db),
    loadCosts(
      db,
      products.map((p) => p.id),
    ),
  ])
  const data = products.map((p) => {
    const row = pricedRow(p, currency, costs.get(p.id) ?? [], book, rates, entity.id, now.getTime())
    return {
      product_id: p.id,
      product_code: p.code,
      product_name: p.name,
      kind: p.kind,
      action: p.action,
      tld: p.tld,
      currency,
      price_minor: row.price_minor,
      regular_minor: row.regular_minor,
      promotion: row.chain.some((s) => s.kind === 'promotion' && s.effect === 'applied'),
    }
  })
  return { currency, data, meta: { total: Number(total), page: query.page, limit: query.limit } }
}

/**
 * Prices in the account's currency (issue 16): a TLD has a list price in its own currency; the
 * account is billed in its own (accounts.currency). A price in another currency is converted at
 * the rate staff keep in currency_rates (migration 0696), rounded half up to the minor unit of
 * the account's currency — and refused when there is no rate, never shown in the TLD's currency.
 */

/**
 * A prices helper for one account (issue 17, decision 300): `price(tld, period, field, action)` is
 * the quote of the pricing engine — the account's price list, in the account's currency, with the
 * chain of rules and the rates that produced it — no longer the TLD's list price. The quote is
 * kept beside the price (cart_items.quote, order_items.quote), so an order keeps what it was
 * placed at. Rules and rates are read once per helper.
 */
export async function accountPricing(db: Kysely<DB>, accountId: string) {
  const quoter = await accountQuoter(db, accountId, new Date())
  return {
    currency: quoter.currency,
    /** One item priced: its total for the period in the account's currency, and its quote (JSON). */
    async price(
      tld: { name: string; list_price_minor: number | string | null; currency: string },
      period: number,
      field = 'name',
      action = 'register',
    ): Promise<{ price_minor: number; currency: string; quote: string }> {
      const [quote] = await quoter.quote([{ tld: tld.name, action, period, field }])
      return { price_minor: quote!.total_minor, currency: quote!.currency, quote: JSON.stringify(quote) }
    },
  }
}

/** One item to quote: a domain action by its TLD, or any product by its code (an SSL certificate: `ssl:dv-single:order`). */
export type QuoteItem = { tld: string; action: string; period: number; field?: string; code?: string }
const quoteCode = (item: QuoteItem) => item.code ?? `domain:${item.tld}:${item.action}`

/**
 * A quoter for one account: the account's list and currency, the rules, rates and the products
 * of the items read once; `quote(items)` prices each through the engine (quantity: the items of
 * the same product in the cart) and refuses an unpriced one naming its field.
 */
export async function accountQuoter(db: Kysely<DB>, accountId: string, now: Date) {
  const account = await accountById(db, accountId).select(['currency']).executeTakeFirstOrThrow()
  const currency = account.currency.trim()
  const entity = await entityOfAccount(db, accountId)
  const [book, rates] = entity ? await Promise.all([loadRuleBook(db, entity.id), loadRates(db)]) : [null, null]
  return {
    currency,
    /** `at`: the day to price on (the renewals forecast prices each month on its own day), the quoter's `now` by default. */
    async quote(items: readonly QuoteItem[], at: Date = now): Promise<Quote[]> {
      if (!items.length) return []
      const codes = [...new Set(items.map(quoteCode))]
      const products = await db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('code', 'in', codes).execute()
      const byKey = new Map(products.map((p) => [p.code, p]))
      const costs = await loadCosts(
        db,
        products.map((p) => p.id),
      )
      const quantity = new Map<string, number>()
      for (const item of items) quantity.set(quoteCode(item), (quantity.get(quoteCode(item)) ?? 0) + 1)
      return items.map((item) => {
        const field = item.field ?? 'name'
        const product = byKey.get(quoteCode(item))
        const what = item.code ?? `.${item.tld} ${item.action}`
        const fail = (reason: string, message: string, extra: Record<string, unknown> = {}) => new AppError(409, 'conflict', message, { errors: [{ field, message }], extra: { reason, ...extra } })
        if (!product || !entity || !book || !rates) throw fail('no-price', `${what} has no price for this account: ask the registrar`)
        const result = priceProduct({
          product: engineProduct(product),
          costs: costs.get(product.id) ?? [],
          book,
          currency,
          rates,
          at: at.getTime(),
          pricingEntityId: entity.id,
          period: item.period,
          quantity: quantity.get(quoteCode(item)) ?? 1,
        })
        if (!result.ok) {
          if (result.reason === 'no-rate')
            throw fail(
              'no-exchange-rate',
              `${item.code ?? `.${item.tld}`} is priced in ${result.from} and this account is billed in ${currency}, with no ${result.from} to ${currency} exchange rate set: ask the registrar to set one`,
              { from_currency: result.from, to_currency: currency },
            )
          throw fail('no-price', `${what} has no price for this account: ask the registrar`)
        }
        // The quote's total is for the item (one domain), the volume tier came from the cart.
        return { ...result.quote, quantity: 1, total_minor: result.quote.total_minor / result.quote.quantity }
      })
    },
  }
}

export type { Quote }

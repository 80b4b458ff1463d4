import { sql, type Kysely } from 'kysely'
import {
  DEFAULT_PRIORITY_CCTLDS,
  isModule,
  ITEM_KINDS,
  MODULES,
  SCHEDULE_HOURS,
  SCHEDULES,
  TLD_GROUPS,
  type IntelligenceModule,
  type ItemKind,
  type Schedule,
  type TldGroup,
} from '#common/intelligence.ts'
import { INTELLIGENCE_ITEMS_LIST } from '#common/lists/intelligence.ts'
import type { DB } from '#server/db/schema.ts'
import type { IntelligenceItem, IntelligenceRun, IntelligenceTemplate } from '#server/db/schema-intelligence.ts'
import { accountById, joinAccounts } from '#server/platform/accounts/reads.ts'
import { parseInput } from '#server/platform/brand/lookalikes.ts'
import { change, txRunner } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused, type CodedFieldError } from '#server/platform/core/errors.ts'
import { reachOf, requirePermission, systemScope, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource } from '#server/platform/list/engine.ts'

/**
 * The intelligence area (issue 32, decision 033): items (a client's brand, or a prospect's kept in
 * the registrar's own account), templates, and runs queued as jobs that keep their results. The gap
 * analysis itself is `gap.ts`, the security score `security.ts`, the focus screens `focus.ts`.
 */

export const AREA = 'intelligence'
export const INTELLIGENCE_JOBS = { run: 'intelligence.run', sweep: 'intelligence.sweep' } as const

const LAST_RUN = `LEFT JOIN LATERAL (SELECT r.status, r.created_at, r.summary FROM intelligence_runs r WHERE r.item_id = i.id ORDER BY r.created_at DESC LIMIT 1) lr ON true`
const itemColumns = {
  id: 'i.id',
  group_id: 'i.account_id',
  'account.name': 'a.name',
  name: 'i.name',
  kind: 'i.kind',
  brand: 'i.brand',
  strings: 'i.strings',
  schedule: 'i.schedule',
  last_status: 'lr.status',
  last_run_at: 'lr.created_at',
  covered: "(lr.summary->>'covered')::int",
  exposed: "(lr.summary->>'exposed')::int",
  created_at: 'i.created_at',
}
const itemsFrom = `intelligence_items i ${joinAccounts('a', 'i.account_id')} ${LAST_RUN}`
/** The items list over every account (staff in their own group) and narrowed to the context account. */
export const itemsResources = {
  whole: listResource(INTELLIGENCE_ITEMS_LIST, { from: itemsFrom, tiebreak: 'i.id', columns: itemColumns }),
  scoped: listResource(INTELLIGENCE_ITEMS_LIST, { from: itemsFrom, tiebreak: 'i.id', accountColumn: 'i.account_id', columns: itemColumns }),
}

export type ItemInput = {
  kind: ItemKind
  name: string
  brand: string
  strings?: readonly string[]
  keywords?: readonly string[]
  known_domains?: readonly string[]
  priority_cctlds?: readonly string[]
  tld_groups?: readonly string[]
  modules?: readonly string[]
  lookalike_min_score?: number
  template_id?: string | null
  schedule?: Schedule
}

const WORD = /^[a-z0-9-]{1,30}$/
const TLD = /^[a-z0-9-]{2,63}$/

/** A label a brand string may be: one label, LDH or a name in another script (the engine's parse). */
function labelOf(text: string): string | null {
  const label = text.trim().toLowerCase()
  const parsed = parseInput(label)
  return label && !label.includes('.') && parsed && parsed.label === label.normalize('NFC') ? parsed.label : null
}

function cleanItem(input: ItemInput, template: IntelligenceTemplate | null) {
  const errors: CodedFieldError[] = []
  if (!ITEM_KINDS.includes(input.kind)) errors.push(fieldError('kind', 'intelligence.kind', 'An item is a client’s or a prospect’s'))
  const name = input.name.trim()
  if (!name || name.length > 100) errors.push(fieldError('name', 'intelligence.name', 'Give the item a name (at most 100 characters)'))
  const brand = labelOf(input.brand)
  if (!brand) errors.push(fieldError('brand', 'intelligence.brand', 'A brand is one label: letters, digits and hyphens (acme)'))
  const strings: string[] = []
  for (const [i, s] of (input.strings ?? []).entries()) {
    if (!s.trim()) continue
    const label = labelOf(s)
    if (label) strings.push(label)
    else errors.push(fieldError(`strings.${i}`, 'intelligence.brand', `${s} is not one label`))
  }
  const keywords = [...new Set((input.keywords ?? template?.keywords ?? []).map((w) => w.trim().toLowerCase()).filter(Boolean))]
  const badWord = keywords.find((w) => !WORD.test(w))
  if (badWord) errors.push(fieldError('keywords', 'intelligence.keyword', `${badWord}: a keyword is 1–30 letters, digits or hyphens`))
  const known = [...new Set((input.known_domains ?? []).map((d) => d.trim().toLowerCase()).filter(Boolean))]
  const badDomain = known.find((d) => !parseInput(d) || !d.includes('.'))
  if (badDomain) errors.push(fieldError('known_domains', 'intelligence.domain', `${badDomain} is not a domain name`))
  const cctlds = [...new Set((input.priority_cctlds ?? []).map((t) => t.trim().toLowerCase().replace(/^\./, '')).filter(Boolean))]
  const badTld = cctlds.find((t) => !TLD.test(t))
  if (badTld) errors.push(fieldError('priority_cctlds', 'intelligence.tld', `${badTld} is not a TLD`))
  const groups = [...new Set(input.tld_groups ?? template?.tld_groups ?? TLD_GROUPS)]
  if (groups.some((g) => !(TLD_GROUPS as readonly string[]).includes(g)) || !groups.length)
    errors.push(fieldError('tld_groups', 'intelligence.groups', 'Choose TLD groups among legacy, cctld, new-gtld and idn', [...TLD_GROUPS]))
  const modules = [...new Set(input.modules ?? template?.modules ?? MODULES)]
  if (modules.some((m) => !isModule(m))) errors.push(fieldError('modules', 'intelligence.modules', 'Unknown module', [...MODULES]))
  const score = input.lookalike_min_score ?? template?.lookalike_min_score ?? 85
  if (!Number.isInteger(score) || score < 0 || score > 100) errors.push(fieldError('lookalike_min_score', 'intelligence.score', 'A score is 0–100'))
  const schedule = input.schedule ?? 'none'
  if (!SCHEDULES.includes(schedule)) errors.push(fieldError('schedule', 'intelligence.schedule', 'none, daily or weekly', [...SCHEDULES]))
  if (errors.length) throw invalid('intelligence.invalid', errors[0]!.message, errors)
  return {
    kind: input.kind,
    name,
    brand: brand!,
    strings: [...new Set(strings)].filter((s) => s !== brand),
    keywords,
    known_domains: known,
    priority_cctlds: cctlds.length ? cctlds : [...DEFAULT_PRIORITY_CCTLDS],
    tld_groups: groups as TldGroup[],
    modules: modules as IntelligenceModule[],
    lookalike_min_score: score,
    schedule,
  }
}

const itemAudit = (i: IntelligenceItem) => ({ kind: i.kind, name: i.name, brand: i.brand, strings: i.strings, keywords: i.keywords, modules: i.modules, schedule: i.schedule })

/**
 * Adds an item in the context account: a client's brand (the context a client's account) or a
 * prospect's (the context the registrar's own account, where its sales people work; a prospect has
 * no account of ours).
 */
export async function createItem(deps: Pick<PlatformDeps, 'db'>, scope: Scope, input: ItemInput): Promise<IntelligenceItem> {
  requirePermission(scope.actor, 'prospect-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const template = input.template_id ? await templateOf(deps.db, scope, input.template_id) : null
  const clean = cleanItem(input, template)
  const account = await accountById(deps.db, accountId).select(['is_registrar']).executeTakeFirstOrThrow()
  if (clean.kind === 'client' && account.is_registrar)
    throw refused('intelligence.client-in-registrar', 'A client’s item is made in the client’s account', [
      fieldError('kind', 'intelligence.client-in-registrar', 'A client’s item is made in the client’s account'),
    ])
  if (clean.kind === 'prospect' && !account.is_registrar)
    throw refused('intelligence.prospect-in-client', 'A prospect’s item is kept in the registrar’s own account', [
      fieldError('kind', 'intelligence.prospect-in-client', 'A prospect’s item is kept in the registrar’s own account'),
    ])
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('intelligence_items')
      .values({ account_id: accountId, ...clean, template_id: template?.id ?? null })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'intelligence-item', entityId: row.id, action: 'create', after: itemAudit(row) })
    return row
  })
}

/** An item the scope reaches (its account, or any for staff in their own group); 404 otherwise. */
export async function itemOf(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string): Promise<IntelligenceItem> {
  const reach = reachOf(scope)
  let q = db.selectFrom('intelligence_items').selectAll().where('id', '=', id)
  if (reach !== null) q = q.where('account_id', '=', reach)
  const item = await q.executeTakeFirst()
  if (!item) throw notFound('Intelligence item not found')
  return item
}

/** Removes an item with its runs and their cells. */
export async function deleteItem(deps: Pick<PlatformDeps, 'db'>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'prospect-manager')
  const item = await itemOf(deps.db, scope, id)
  await change(deps.db, scope, async (tx, audit) => {
    await tx.deleteFrom('intelligence_items').where('id', '=', item.id).execute()
    await audit.record({ area: AREA, entityType: 'intelligence-item', entityId: item.id, action: 'delete', before: itemAudit(item) })
  })
}

/** Queues a run of the item (a job): one at a time per item — a run already queued or running is answered instead. */
export async function startRun(deps: Pick<PlatformDeps, 'db' | 'jobs'>, scope: Scope, id: string, trigger: 'manual' | 'schedule' | 'seed' = 'manual'): Promise<IntelligenceRun> {
  requirePermission(scope.actor, 'prospect-manager')
  const item = await itemOf(deps.db, scope, id)
  return change(deps.db, scope, async (tx, audit) => {
    await tx.selectFrom('intelligence_items').select('id').where('id', '=', item.id).forUpdate().executeTakeFirstOrThrow()
    const open = await tx.selectFrom('intelligence_runs').selectAll().where('item_id', '=', item.id).where('status', 'in', ['queued', 'running']).executeTakeFirst()
    if (open) return open
    const run = await tx.insertInto('intelligence_runs').values({ item_id: item.id, account_id: item.account_id, trigger, created_by: scope.actor.label }).returningAll().executeTakeFirstOrThrow()
    await deps.jobs.send(INTELLIGENCE_JOBS.run, { runId: run.id }, { runner: txRunner(tx), retryLimit: 2, singletonKey: run.id })
    await audit.record({ area: AREA, entityType: 'intelligence-item', entityId: item.id, action: 'run', after: { run: run.id, trigger } })
    return run
  })
}

/** The item's runs, newest first (at most 50): each with its progress and totals. */
export async function runsOf(db: Kysely<DB>, scope: Scope, id: string): Promise<IntelligenceRun[]> {
  const item = await itemOf(db, scope, id)
  return db.selectFrom('intelligence_runs').selectAll().where('item_id', '=', item.id).orderBy('created_at', 'desc').limit(50).execute()
}

/** Items on a schedule whose last run is older than their interval get a run (the hourly sweep). */
export async function sweepSchedules(deps: Pick<PlatformDeps, 'db' | 'jobs' | 'now'>): Promise<number> {
  const items = await deps.db
    .selectFrom('intelligence_items as i')
    .select(['i.id', 'i.account_id', 'i.schedule'])
    .where('i.schedule', '<>', 'none')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('intelligence_runs as r')
            .select('r.id')
            .whereRef('r.item_id', '=', 'i.id')
            .where(sql<boolean>`r.created_at > ${deps.now()}::timestamptz - make_interval(hours => CASE i.schedule WHEN 'daily' THEN ${SCHEDULE_HOURS.daily} ELSE ${SCHEDULE_HOURS.weekly} END)`),
        ),
      ),
    )
    .execute()
  for (const item of items) await startRun(deps, systemScope('intelligence-schedule', item.account_id), item.id, 'schedule')
  return items.length
}

// ------------------------------------------------------------------ templates

export async function templatesOf(db: Kysely<DB>, scope: Scope): Promise<IntelligenceTemplate[]> {
  const reach = reachOf(scope)
  let q = db.selectFrom('intelligence_templates').selectAll().orderBy('name').limit(200)
  if (reach !== null) q = q.where('account_id', '=', reach)
  return q.execute()
}

async function templateOf(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string) {
  const reach = reachOf(scope)
  let q = db.selectFrom('intelligence_templates').selectAll().where('id', '=', id)
  if (reach !== null) q = q.where('account_id', '=', reach)
  const template = await q.executeTakeFirst()
  if (!template) throw notFound('Template not found')
  return template
}

export type TemplateInput = { name: string; modules?: readonly string[]; tld_groups?: readonly string[]; keywords?: readonly string[]; lookalike_min_score?: number }

/** Saves a set of modules, TLD groups and patterns (keywords, the lookalikes' score) under a name. */
export async function createTemplate(deps: Pick<PlatformDeps, 'db'>, scope: Scope, input: TemplateInput): Promise<IntelligenceTemplate> {
  requirePermission(scope.actor, 'prospect-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const clean = cleanItem({ ...input, kind: 'prospect', brand: 'template' }, null)
  return change(deps.db, scope, async (tx, audit) => {
    const taken = await tx.selectFrom('intelligence_templates').select('id').where('account_id', '=', accountId).where('name', '=', clean.name).executeTakeFirst()
    if (taken) throw refused('intelligence.template-exists', `${clean.name} is already a template`, [fieldError('name', 'intelligence.template-exists', `${clean.name} is already a template`)])
    const row = await tx
      .insertInto('intelligence_templates')
      .values({ account_id: accountId, name: clean.name, modules: clean.modules, tld_groups: clean.tld_groups, keywords: clean.keywords, lookalike_min_score: clean.lookalike_min_score })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'intelligence-template', entityId: row.id, action: 'create', after: { name: row.name, modules: row.modules, tld_groups: row.tld_groups } })
    return row
  })
}

export async function deleteTemplate(deps: Pick<PlatformDeps, 'db'>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'prospect-manager')
  const template = await templateOf(deps.db, scope, id)
  await change(deps.db, scope, async (tx, audit) => {
    await tx.deleteFrom('intelligence_templates').where('id', '=', template.id).execute()
    await audit.record({ area: AREA, entityType: 'intelligence-template', entityId: template.id, action: 'delete', before: { name: template.name } })
  })
}

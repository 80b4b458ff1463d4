import type { Kysely } from 'kysely'
import { cellState, gapTotals, LEGACY_GTLDS, LOCAL_PRESENCE_TLDS, TLD_GROUPS, type CellFacts, type CellState, type Pattern, type TldGroup } from '#common/intelligence.ts'
import { toUnicodeName } from '#common/domain-name.ts'
import type { DB } from '#server/db/schema.ts'
import type { CellEvidence, IntelligenceItem } from '#server/db/schema-intelligence.ts'
import { blocksInForce } from '#server/platform/blocks/reads.ts'
import { dnsEvidence } from '#server/platform/brand/dns.ts'
import { generateLookalikes, toAsciiName } from '#server/platform/brand/lookalikes.ts'
import type { DnsEvidence } from '#server/platform/brand/service.ts'
import { change } from '#server/platform/core/change.ts'
import { AppError } from '#server/platform/core/errors.ts'
import { systemScope, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { tldKinds } from '#server/platform/tlds/reads.ts'
import { AREA, itemOf } from './service.ts'
import { brandScore } from './security.ts'

/**
 * The gap analysis (issue 32): the item's patterns (rows) across its TLD groups (columns), every
 * name one cell whose state `cellState` picks from what the sources say — our portfolio, the blocks
 * in force, the registry's check (several names per EPP command), the resolver's answers for a name
 * someone else holds, and the pricing engine's quote in the account's currency for one anyone may take.
 */

/** Names per EPP <check>: RFC 5731 leaves the limit to the server; registries commonly take 5–20, and the local registry any. */
export const EPP_CHECK_BATCH = 20
/** The engine's lookalikes taken as rows: the closest labels above the item's score. */
export const LOOKALIKE_ROWS = 8
/** Keyword rows: the brand joined to each keyword (acmepay, acme-pay), the first this many keywords. */
const KEYWORD_ROWS = 6

/** The item's rows: its brand strings, the brand with each keyword, and the lookalike engine's closest labels (decision 029's engine, never a second one). */
export function patternsOf(item: Pick<IntelligenceItem, 'brand' | 'strings' | 'keywords' | 'lookalike_min_score'>): Pattern[] {
  const rows = new Map<string, Pattern>()
  const add = (p: Pattern) => {
    const ascii = toAsciiName(p.label)
    if (!rows.has(ascii)) rows.set(ascii, { ...p, label: ascii })
  }
  for (const s of [item.brand, ...item.strings]) add({ label: s, kind: 'brand', score: 100 })
  for (const k of item.keywords.slice(0, KEYWORD_ROWS)) {
    add({ label: `${item.brand}${k}`, kind: 'keyword', score: 100 })
    add({ label: `${item.brand}-${k}`, kind: 'keyword', score: 100 })
  }
  const lookalikes = generateLookalikes(`${item.brand}.com`, {
    fuzzers: ['addition', 'bitsquatting', 'homoglyph', 'hyphenation', 'insertion', 'omission', 'repetition', 'replacement', 'transposition', 'vowel-swap'],
    tlds: ['com'],
  })
    .filter((c) => c.registrable && c.tld === 'com' && c.score >= item.lookalike_min_score && c.registers === c.ascii)
    .sort((a, b) => b.score - a.score || a.ascii.localeCompare(b.ascii))
  for (const c of lookalikes) {
    if ([...rows.values()].filter((r) => r.kind === 'lookalike').length >= LOOKALIKE_ROWS) break
    add({ label: c.ascii.slice(0, -'.com'.length), kind: 'lookalike', score: c.score, fuzzers: c.fuzzers })
  }
  return [...rows.values()]
}

export type Column = { tld: string; unicode: string; group: TldGroup; offered: boolean }

/** The matrix's columns: the legacy gTLDs, the item's priority ccTLDs, the new gTLDs and IDN TLDs on sale — each TLD of the catalogue with whether we sell it. */
export async function columnsOf(db: Pick<Kysely<DB>, 'selectFrom'>, item: Pick<IntelligenceItem, 'priority_cctlds' | 'tld_groups'>): Promise<Column[]> {
  const catalogue = await tldKinds(db)
  const byName = new Map(catalogue.map((t) => [t.name, t]))
  const columns: Column[] = []
  const seen = new Set<string>()
  const push = (name: string, group: TldGroup) => {
    const t = byName.get(name)
    if (seen.has(name)) return
    seen.add(name)
    columns.push({ tld: name, unicode: t?.unicode_name ?? toUnicodeName(name), group, offered: !!t?.is_offered })
  }
  for (const group of TLD_GROUPS) {
    if (!item.tld_groups.includes(group)) continue
    if (group === 'legacy') for (const t of LEGACY_GTLDS) push(t, group)
    if (group === 'cctld') for (const t of item.priority_cctlds) push(t, group)
    if (group === 'new-gtld') for (const t of catalogue.filter((c) => c.kind === 'new-generic' && c.is_offered && !c.idn).sort((a, b) => a.name.localeCompare(b.name))) push(t.name, group)
    if (group === 'idn') for (const t of catalogue.filter((c) => c.idn && c.is_offered).sort((a, b) => a.name.localeCompare(b.name))) push(t.name, group)
  }
  return columns
}

type Found = { pattern: string; name: string; column: Column; facts: CellFacts }

/** The registry's answer for each name, per TLD, `EPP_CHECK_BATCH` names per command; a TLD without a registry or a failed command leaves its names unanswered. */
async function registryAnswers(deps: Pick<PlatformDeps, 'registries'>, names: { name: string; tld: string }[], onBatch: (n: number) => Promise<void>) {
  const answers = new Map<string, { available: boolean; reason?: string }>()
  const byTld = new Map<string, string[]>()
  for (const n of names) byTld.set(n.tld, [...(byTld.get(n.tld) ?? []), n.name])
  for (const [tld, list] of byTld) {
    const registry = deps.registries?.forTld(tld) ?? null
    for (let i = 0; i < list.length; i += EPP_CHECK_BATCH) {
      const batch = list.slice(i, i + EPP_CHECK_BATCH)
      if (registry) {
        try {
          for (const a of await registry.checkDomains(batch)) answers.set(a.name.toLowerCase(), { available: a.available, ...(a.reason ? { reason: a.reason } : {}) })
        } catch {
          // No answer is no evidence: the batch's cells stay unknown.
        }
      }
      await onBatch(batch.length)
    }
  }
  return answers
}

/**
 * Runs one queued run (the job's handler): patterns × columns, each name's facts gathered in bulk,
 * the cells stored with the run's totals and the brand's security score. Idempotent: a run already
 * done is left, one interrupted starts again from its item (its cells replaced).
 */
export async function executeRun(deps: PlatformDeps, runId: string, dns: DnsEvidence | null = dnsEvidence(deps)): Promise<void> {
  const run = await deps.db.selectFrom('intelligence_runs').selectAll().where('id', '=', runId).executeTakeFirst()
  if (!run || run.status === 'done' || run.status === 'failed') return
  const scope: Scope = systemScope('intelligence-run', run.account_id)
  const item = await itemOf(deps.db, scope, run.item_id).catch(() => null)
  if (!item) return
  const now = deps.now()
  try {
    const patterns = patternsOf(item)
    const columns = await columnsOf(deps.db, item)
    const cells: { pattern: string; name: string; column: Column }[] = []
    for (const p of patterns) for (const c of columns) cells.push({ pattern: p.label, name: `${p.label}.${c.tld}`, column: c })
    const offered = cells.filter((c) => c.column.offered)
    const total = offered.length + 1
    await deps.db
      .updateTable('intelligence_runs')
      .set({ status: 'running', started_at: now, total, done: 0, patterns: JSON.stringify(patterns) })
      .where('id', '=', runId)
      .execute()
    let done = 0
    const progress = async (n: number) => {
      done += n
      await deps.db.updateTable('intelligence_runs').set({ done }).where('id', '=', runId).execute()
    }
    const names = cells.map((c) => c.name)
    const [ours, blocks] = await Promise.all([
      names.length ? liveDomainsNamed(deps.db, item.account_id, names).select('domains.name').execute() : [],
      blocksInForce(deps.db, item.account_id, now).execute(),
    ])
    const held = new Set(ours.map((d) => d.name))
    const known = new Set(item.known_domains)
    const answers = await registryAnswers(
      deps,
      offered.filter((c) => !held.has(c.name)).map((c) => ({ name: c.name, tld: c.column.tld })),
      progress,
    )
    const quoter = await accountQuoter(deps.db, item.account_id, now)
    const prices = new Map<string, { minor: number; currency: string } | null>()
    for (const tld of new Set(offered.map((c) => c.column.tld))) {
      prices.set(
        tld,
        await quoter.quote([{ tld, action: 'register', period: 1 }]).then(
          ([q]) => ({ minor: q!.total_minor, currency: q!.currency }),
          () => null,
        ),
      )
    }
    const found: Found[] = cells.map((c) => {
      const label = c.name.slice(0, c.name.length - c.column.tld.length - 1)
      const block = blocks.find((b) => b.label === label && b.covered_tlds.includes(c.column.tld))
      return {
        ...c,
        facts: {
          offered: c.column.offered,
          ours: held.has(c.name),
          known: known.has(c.name),
          block: block ? { id: block.id, product: block.product_code } : null,
          registry: answers.get(c.name) ?? null,
          dns: null,
          price: prices.get(c.column.tld) ?? null,
          localPresence: (LOCAL_PRESENCE_TLDS as readonly string[]).includes(c.column.tld),
        },
      }
    })
    // The resolver is asked only of names someone else holds (the registry said taken), twenty at a time.
    if (dns) {
      const taken = found.filter((f) => !f.facts.ours && !f.facts.block && !f.facts.known && f.facts.registry && !f.facts.registry.available)
      for (let i = 0; i < taken.length; i += 20) await Promise.all(taken.slice(i, i + 20).map(async (f) => void (f.facts.dns = await dns(f.name))))
    }
    const rows = found.map((f) => {
      const state: CellState = cellState(f.facts)
      const evidence: CellEvidence = {
        ...(f.facts.registry ? { registry: f.facts.registry } : {}),
        ...(f.facts.dns ? { ns: f.facts.dns.ns, a: f.facts.dns.a, mx: f.facts.dns.mx } : {}),
        ...(f.facts.block ? { block: f.facts.block } : {}),
        source: f.facts.ours ? 'portfolio' : f.facts.block ? 'blocks' : f.facts.registry ? 'registry' : f.facts.known ? 'item' : f.column.offered ? 'none' : 'catalogue',
      }
      const price = state === 'available' || state === 'premium' || state === 'restricted' ? f.facts.price : null
      return {
        run_id: runId,
        account_id: item.account_id,
        pattern: f.pattern,
        name: f.name,
        unicode_name: toUnicodeName(f.name),
        tld: f.column.tld,
        tld_group: f.column.group,
        state,
        evidence: JSON.stringify(evidence),
        price_minor: price?.minor ?? null,
        currency: price?.currency ?? null,
        checked_at: now,
      }
    })
    const score = await brandScore(deps.db, item)
    const summary = { ...gapTotals(rows.map((r) => ({ state: r.state, price_minor: r.price_minor, currency: r.currency }))), score: score.score, domains: score.domains }
    await change(deps.db, scope, async (tx, audit) => {
      await tx.deleteFrom('intelligence_cells').where('run_id', '=', runId).execute()
      for (let i = 0; i < rows.length; i += 1000)
        await tx
          .insertInto('intelligence_cells')
          .values(rows.slice(i, i + 1000))
          .execute()
      await tx
        .updateTable('intelligence_runs')
        .set({ status: 'done', done: total, finished_at: deps.now(), summary: JSON.stringify(summary) })
        .where('id', '=', runId)
        .execute()
      await audit.record({
        area: AREA,
        entityType: 'intelligence-item',
        entityId: item.id,
        action: 'run-done',
        after: { run: runId, covered: summary.covered, exposed: summary.exposed, score: summary.score },
      })
    })
  } catch (error) {
    await deps.db
      .updateTable('intelligence_runs')
      .set({ status: 'failed', finished_at: deps.now(), error: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500) })
      .where('id', '=', runId)
      .execute()
  }
}

/**
 * The item's gap analysis: its newest finished run with every cell, the columns and rows in order.
 * 404 `gap_analysis.none` when no run has finished (spec §7/§8: the caller shows "no analysis yet").
 */
export async function gapAnalysis(db: Kysely<DB>, scope: Scope, id: string) {
  const item = await itemOf(db, scope, id)
  const run = await db.selectFrom('intelligence_runs').selectAll().where('item_id', '=', item.id).where('status', '=', 'done').orderBy('created_at', 'desc').limit(1).executeTakeFirst()
  if (!run) throw new AppError(404, 'gap_analysis.none', 'No gap analysis has finished for this item yet')
  const cells = await db.selectFrom('intelligence_cells').selectAll().where('run_id', '=', run.id).orderBy('pattern').orderBy('tld').execute()
  const columns = await columnsOf(db, item)
  return { item, run, columns, cells }
}

/** A run made and worked at once, outside the job queue (the demo's first start): the same run a job would work. */
export async function runNow(deps: PlatformDeps, scope: Scope, id: string, dns: DnsEvidence | null = null): Promise<string> {
  const item = await itemOf(deps.db, scope, id)
  const run = await change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('intelligence_runs')
      .values({ item_id: item.id, account_id: item.account_id, trigger: 'seed', created_by: scope.actor.label })
      .returning('id')
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'intelligence-item', entityId: item.id, action: 'run', after: { run: row.id, trigger: 'seed' } })
    return row
  })
  await executeRun(deps, run.id, dns)
  return run.id
}

import { sql, type Kysely } from 'kysely'
import { CANDIDATE_STATUSES, FUZZERS, isFuzzer, type CandidateStatus, type Fuzzer } from '#common/brand.ts'
import { parseDomainName, toUnicodeName } from '#common/domain-name.ts'
import { BRAND_CANDIDATES_LIST, BRANDS_LIST, LOOKALIKES_LIST } from '#common/lists/brand.ts'
import type { DB } from '#server/db/schema.ts'
import type { Brand, BrandCandidate, CandidateEvidence } from '#server/db/schema-brand.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { blocksInForce } from '#server/platform/blocks/reads.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { AppError, fieldError, invalid, notFound, refused, staleVersion, type CodedFieldError } from '#server/platform/core/errors.ts'
import { requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { listQueryFromUrl, listResource, runList, type ListPage, type ListResource } from '#server/platform/list/engine.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { tldScriptsAndOffers } from '#server/platform/tlds/reads.ts'
import { generateLookalikes, parseInput, toAsciiName, type Candidate } from './lookalikes.ts'

/**
 * The brand protection area (issue 30). `lookalikesPage` is the engine's contract,
 * `GET /v1/lookalikes`: the candidates of one name, made for the request (the engine is pure,
 * decision 029) and filtered, sorted and paged by the list engine like a stored list.
 */

/** The list resource of the engine's candidates: its rows are the request's (`source`), never a table. */
const lookalikesResource = listResource(LOOKALIKES_LIST, {
  from: '(SELECT NULL::text AS ascii WHERE false) c',
  tiebreak: 'c.ascii',
  columns: {
    domain: 'c.domain',
    ascii: { column: 'c.ascii', lowercase: true },
    tld: { column: 'c.tld', lowercase: true },
    fuzzers: "string_to_array(c.fuzzers, ',')",
    score: 'c.score',
    registrable: 'c.registrable',
    registers: { column: 'c.registers', lowercase: true },
  },
})

/** Candidates as the rows of a FROM clause: one parameter per column. */
function candidateRows(candidates: readonly Candidate[]): ListResource {
  const column = <T>(pick: (c: Candidate) => T) => sql.val(candidates.map(pick))
  return {
    ...lookalikesResource,
    source: sql`(SELECT * FROM unnest(${column((c) => c.ascii)}::text[], ${column((c) => c.domain)}::text[], ${column((c) => c.tld)}::text[], ${column((c) =>
      c.fuzzers.join(','),
    )}::text[], ${column((c) => c.score)}::int[], ${column((c) => c.registrable)}::boolean[], ${column((c) => c.registers)}::text[]) AS u(ascii, domain, tld, fuzzers, score, registrable, registers)) c`,
  }
}

export type LookalikesRequest = { domain: string; fuzzers?: string; tlds?: 'offered' | 'all' }

/** The fuzzers a request names (comma-separated), every one when none; 400 naming `fuzzers` for an unknown one. */
export function fuzzersOf(text: string | undefined): Fuzzer[] | undefined {
  if (!text?.trim()) return undefined
  const names = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
  const unknown = names.filter((f) => !isFuzzer(f))
  if (unknown.length) throw invalid('fuzzers.unknown', `Unknown fuzzer: ${unknown.join(', ')}`, [fieldError('fuzzers', 'fuzzers.unknown', `Unknown fuzzer: ${unknown.join(', ')}`)])
  return names.filter(isFuzzer)
}

/**
 * One page of the lookalikes of a domain or brand label: tld-swap over the TLDs on sale (`tlds=all`:
 * every TLD of the catalogue, the IANA list), the confusables in the scripts each TLD's catalogue
 * entry names.
 */
export async function lookalikesPage(db: Kysely<DB>, request: LookalikesRequest, url: URL): Promise<ListPage> {
  const query = listQueryFromUrl(lookalikesResource, url)
  const fuzzers = fuzzersOf(request.fuzzers)
  if (!parseInput(request.domain)) throw invalid('domain.invalid', 'Give a domain name or a brand label', [fieldError('domain', 'domain.invalid', 'Give a domain name or a brand label')])
  const catalogue = await tldScriptsAndOffers(db)
  const candidates = generateLookalikes(request.domain, {
    ...(fuzzers ? { fuzzers } : {}),
    tlds: request.tlds === 'all' ? catalogue.all : catalogue.offered,
    scriptsOf: (tld) => catalogue.scripts.get(tld),
  })
  return runList(db, candidateRows(candidates), query, { accountId: null })
}

// ------------------------------------------------------------------ brands of an account

/** Audit entries of brand protection go under `watch`: one area and role family with it (decision 025). */
const AREA = 'watch'
const WORD = /^[a-z0-9-]{1,30}$/
const CHUNK = 500

export const brandsResource = listResource(BRANDS_LIST, {
  from: 'brands b',
  tiebreak: 'b.id',
  accountColumn: 'b.account_id',
  columns: {
    id: 'b.id',
    label: 'b.label',
    domains: 'b.domains',
    fuzzers: 'b.fuzzers',
    dictionary: 'b.dictionary',
    candidates: '(SELECT count(*)::int FROM brand_candidates bc WHERE bc.brand_id = b.id)',
    version: 'b.version',
    created_at: 'b.created_at',
    updated_at: 'b.updated_at',
  },
})

export const brandCandidatesResource = listResource(BRAND_CANDIDATES_LIST, {
  from: 'brand_candidates c JOIN brands b ON b.id = c.brand_id',
  tiebreak: 'c.id',
  accountColumn: 'c.account_id',
  columns: {
    id: 'c.id',
    brand_id: 'c.brand_id',
    'brand.label': 'b.label',
    name: { column: 'c.name', lowercase: true },
    unicode_name: 'c.unicode_name',
    tld: { column: 'c.tld', lowercase: true },
    fuzzers: 'c.fuzzers',
    score: 'c.score',
    status: 'c.status',
    price_minor: 'c.price_minor',
    currency: 'c.currency',
    mx: "coalesce(jsonb_array_length(c.evidence->'mx') > 0, false)",
    certificates: "coalesce(jsonb_array_length(c.evidence->'ct'), 0)",
    registrar: "c.evidence->'rdap'->>'registrar'",
    new: '(c.changed_at IS NOT NULL AND c.changed_at >= (SELECT max(r.started_at) FROM brand_feed_runs r WHERE r.source = c.changed_by))',
    changed_by: 'c.changed_by',
    changed_at: 'c.changed_at',
    first_seen_at: 'c.first_seen_at',
    checked_at: 'c.checked_at',
  },
})

export type BrandInput = { label: string; domains?: readonly string[]; dictionary?: readonly string[]; fuzzers?: readonly string[] }
type CleanBrand = { label: string; domains: string[]; dictionary: string[]; fuzzers: Fuzzer[] }

/** A brand as typed, checked field by field: a label, its domains (ASCII), words and fuzzers. */
function cleanBrand(input: BrandInput, prefix = ''): CleanBrand {
  const errors: CodedFieldError[] = []
  const label = input.label.trim().toLowerCase()
  const parsed = parseInput(label)
  if (!label || label.includes('.') || !parsed || parsed.label !== label.normalize('NFC'))
    errors.push(fieldError(`${prefix}label`, 'brand.label', 'A brand is one label: letters, digits and hyphens (acme), or a name in another script'))
  const domains: string[] = []
  for (const [i, text] of (input.domains ?? []).entries()) {
    if (!text.trim()) continue
    const domain = parseDomainName(text)
    if (domain.ok) domains.push(domain.domain.ascii)
    else errors.push(fieldError(`${prefix}domains.${i}`, 'brand.domain', `${text} is not a domain name`))
  }
  const dictionary = [...new Set((input.dictionary ?? []).map((w) => w.trim().toLowerCase()).filter(Boolean))]
  const badWord = dictionary.find((w) => !WORD.test(w))
  if (badWord) errors.push(fieldError(`${prefix}dictionary`, 'brand.word', `${badWord}: a word is 1–30 letters, digits or hyphens`))
  const fuzzers = [...new Set((input.fuzzers ?? []).map((f) => f.trim()).filter(Boolean))]
  const unknown = fuzzers.filter((f) => !isFuzzer(f))
  if (unknown.length) errors.push(fieldError(`${prefix}fuzzers`, 'fuzzers.unknown', `Unknown fuzzer: ${unknown.join(', ')}`, [...FUZZERS]))
  if (errors.length) throw invalid('brand.invalid', errors[0]!.message, errors)
  return { label: parsed!.label, domains: [...new Set(domains)], dictionary, fuzzers: fuzzers.filter(isFuzzer) }
}

type Found = { name: string; unicode_name: string; tld: string; fuzzers: Set<Fuzzer>; score: number }

/**
 * Every registrable lookalike of a brand: the engine over each of its domains (`label.com` when it
 * has none), tld-swap over the TLDs on sale, one row per registrable name with every fuzzer that
 * made it and its best score; its own domains left out.
 */
export async function brandLookalikes(db: Pick<Kysely<DB>, 'selectFrom'>, brand: CleanBrand): Promise<Found[]> {
  const catalogue = await tldScriptsAndOffers(db)
  const found = new Map<string, Found>()
  const own = new Set(brand.domains)
  for (const input of brand.domains.length ? brand.domains : [`${toAsciiName(brand.label)}.com`]) {
    const candidates = generateLookalikes(input, {
      ...(brand.fuzzers.length ? { fuzzers: brand.fuzzers } : {}),
      ...(brand.dictionary.length ? { dictionary: brand.dictionary } : {}),
      tlds: catalogue.offered,
      scriptsOf: (tld) => catalogue.scripts.get(tld),
    })
    for (const c of candidates) {
      if (!c.registrable || own.has(c.registers)) continue
      const known = found.get(c.registers)
      if (known) {
        for (const f of c.fuzzers) known.fuzzers.add(f)
        known.score = Math.max(known.score, c.score)
      } else found.set(c.registers, { name: c.registers, unicode_name: toUnicodeName(c.registers), tld: c.tld, fuzzers: new Set(c.fuzzers), score: c.score })
    }
  }
  return [...found.values()]
}

/** The brand's candidates made again: new ones added (first seen now), gone ones removed, the rest's fuzzers and score refreshed. */
async function storeCandidates(tx: Tx, brandId: string, accountId: string, found: Found[], now: Date) {
  const names = found.map((f) => f.name)
  await tx
    .deleteFrom('brand_candidates')
    .where('brand_id', '=', brandId)
    .where((eb) => (names.length ? eb.not(eb('name', 'in', names)) : eb.lit(true)))
    .execute()
  for (let i = 0; i < found.length; i += CHUNK) {
    await tx
      .insertInto('brand_candidates')
      .values(
        found.slice(i, i + CHUNK).map((f) => ({
          brand_id: brandId,
          account_id: accountId,
          name: f.name,
          unicode_name: f.unicode_name,
          tld: f.tld,
          fuzzers: FUZZERS.filter((x) => f.fuzzers.has(x)),
          score: f.score,
          first_seen_at: now,
        })),
      )
      .onConflict((oc) => oc.columns(['brand_id', 'name']).doUpdateSet((eb) => ({ fuzzers: eb.ref('excluded.fuzzers'), score: eb.ref('excluded.score') })))
      .execute()
  }
}

const auditOf = (b: Brand) => ({ label: b.label, domains: b.domains, dictionary: b.dictionary, fuzzers: b.fuzzers })

/** Adds a brand to the account and makes its candidates, in one transaction. 409 when the label is already one of its brands. */
export async function createBrand(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, input: BrandInput): Promise<Brand> {
  requirePermission(scope.actor, 'brand-manager')
  const brand = cleanBrand(input)
  const found = await brandLookalikes(deps.db, brand)
  return change(deps.db, scope, async (tx, audit) => {
    const taken = await tx.selectFrom('brands').select('id').where('account_id', '=', scope.accountId!).where('label', '=', brand.label).executeTakeFirst()
    if (taken) throw refused('brand.exists', `${brand.label} is already one of this account's brands`, [fieldError('label', 'brand.exists', `${brand.label} is already one of this account's brands`)])
    const row = await tx
      .insertInto('brands')
      .values({ account_id: scope.accountId!, ...brand })
      .returningAll()
      .executeTakeFirstOrThrow()
    await storeCandidates(tx, row.id, row.account_id, found, deps.now())
    await audit.record({ area: AREA, entityType: 'brand', entityId: row.id, action: 'create', after: auditOf(row) })
    return row
  })
}

/** Brands from a list, one a line: `acme`, `acme.com`, or `acme: acme.com acme.de` (a label and its domains). Each line is a brand; a line that is not one is named. */
export async function importBrands(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, text: string): Promise<{ created: Brand[]; skipped: string[] }> {
  requirePermission(scope.actor, 'brand-manager')
  const inputs: BrandInput[] = []
  const errors: CodedFieldError[] = []
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const [head, rest] = line.includes(':') ? [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)] : [line, '']
    const words = head.trim().split(/[\s,;]+/)
    const first = words[0]!
    const domains = [...words.slice(1), ...rest.split(/[\s,;]+/)].filter(Boolean)
    const label = first.includes('.') ? (parseInput(first)?.label ?? first) : first
    if (first.includes('.')) domains.unshift(first)
    try {
      inputs.push(cleanBrand({ label, domains }, `lines.${i + 1}.`))
    } catch (error) {
      if (error instanceof AppError) errors.push(...((error.errors ?? []) as CodedFieldError[]))
      else throw error
    }
  }
  if (errors.length) throw invalid('brand.import', `${errors.length} line(s) are not brands`, errors)
  if (!inputs.length) throw invalid('brand.import', 'The list holds no brand', [fieldError('text', 'brand.import-empty', 'The list holds no brand')])
  const existing = new Set((await deps.db.selectFrom('brands').select('label').where('account_id', '=', scope.accountId!).execute()).map((b) => b.label))
  const created: Brand[] = []
  const skipped: string[] = []
  for (const input of inputs) {
    if (existing.has(input.label)) skipped.push(input.label)
    else {
      created.push(await createBrand(deps, scope, input))
      existing.add(input.label)
    }
  }
  return { created, skipped }
}

async function brandOf(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string) {
  const brand = await db.selectFrom('brands').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).executeTakeFirst()
  if (!brand) throw notFound('Brand not found')
  return brand
}

export const getBrand = (db: Kysely<DB>, scope: Scope, id: string) => brandOf(db, scope, id)

/** Changes a brand (at the version read) and makes its candidates again. */
export async function updateBrand(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, id: string, input: Partial<BrandInput> & { version: number }): Promise<Brand> {
  requirePermission(scope.actor, 'brand-manager')
  const current = await brandOf(deps.db, scope, id)
  const brand = cleanBrand({
    label: input.label ?? current.label,
    domains: input.domains ?? current.domains,
    dictionary: input.dictionary ?? current.dictionary,
    fuzzers: input.fuzzers ?? current.fuzzers,
  })
  const found = await brandLookalikes(deps.db, brand)
  return change(deps.db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('brands').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).forUpdate().executeTakeFirstOrThrow()
    if (before.version !== input.version) throw staleVersion(before.version, 'brand')
    const row = await tx
      .updateTable('brands')
      .set({ ...brand, version: before.version + 1, updated_at: deps.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await storeCandidates(tx, id, row.account_id, found, deps.now())
    await audit.record({ area: AREA, entityType: 'brand', entityId: id, action: 'update', before: auditOf(before), after: auditOf(row) })
    return row
  })
}

/** Removes a brand with its candidates. */
export async function deleteBrand(deps: Pick<PlatformDeps, 'db'>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'brand-manager')
  await brandOf(deps.db, scope, id)
  await change(deps.db, scope, async (tx, audit) => {
    const row = await tx.deleteFrom('brands').where('id', '=', id).where('account_id', '=', scope.accountId!).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'brand', entityId: id, action: 'delete', before: auditOf(row) })
  })
}

// ------------------------------------------------------------------ what is known of a candidate

/** The DNS answers of a name, or null when it does not exist (NXDOMAIN) or the resolver failed (SERVFAIL is not a live name). */
export type DnsEvidence = (name: string) => Promise<{ ns: string[]; a: string[]; mx: string[] } | null>

/** What the registry publishes of a registered name (RDAP), or null: not registered there, no RDAP server for its TLD, or no answer. */
export type RegistryEvidence = (name: string) => Promise<NonNullable<CandidateEvidence['rdap']> | null>

export const CHECK_LIMIT = 100

/**
 * Checks candidates of the account (at most `CHECK_LIMIT`): ours when the account holds the name,
 * blocked when a block in force covers its label in its TLD, registered when the registry's RDAP
 * has it (registrar, abuse contact, dates, statuses) or the DNS answers for it (its NS, A and MX
 * answers kept as evidence), else available with the account's price to register
 * it for a year (none when the TLD has no price for it).
 */
export async function checkCandidates(
  deps: Pick<PlatformDeps, 'db' | 'now'>,
  scope: Scope,
  ids: readonly string[],
  dns: DnsEvidence | null,
  registry: RegistryEvidence | null = null,
): Promise<BrandCandidate[]> {
  requirePermission(scope.actor, 'brand-manager')
  if (ids.length > CHECK_LIMIT)
    throw invalid('brand.check-limit', `At most ${CHECK_LIMIT} candidates at a time`, [fieldError('ids', 'brand.check-limit', `At most ${CHECK_LIMIT} candidates at a time`)])
  if (!ids.length) return []
  const accountId = scope.accountId!
  const now = deps.now()
  const found = await deps.db
    .selectFrom('brand_candidates')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', 'in', [...ids])
    .execute()
  if (found.length !== new Set(ids).size) throw notFound('Candidate not found')
  // A candidate a person marked safe stays safe.
  const rows = found.filter((r) => r.status !== 'safe')
  if (!rows.length) return []
  const names = rows.map((r) => r.name)
  const [ours, blocks] = await Promise.all([liveDomainsNamed(deps.db, accountId, names).select('domains.name').execute(), blocksInForce(deps.db, accountId, now).execute()])
  const held = new Set(ours.map((d) => d.name))
  const blockOf = (name: string, tld: string) => blocks.find((b) => b.label === name.slice(0, name.indexOf('.')) && b.covered_tlds.includes(tld))
  const quoter = await accountQuoter(deps.db, accountId, now)
  const results: { id: string; status: CandidateStatus; price_minor: number | null; currency: string | null; evidence: CandidateEvidence }[] = []
  for (const row of rows) {
    const block = blockOf(row.name, row.tld)
    if (held.has(row.name)) results.push({ id: row.id, status: 'ours', price_minor: null, currency: null, evidence: { checked: now.toISOString() } })
    else if (block) results.push({ id: row.id, status: 'blocked', price_minor: null, currency: null, evidence: { block: block.id, checked: now.toISOString() } })
    else {
      const [answers, rdap] = await Promise.all([dns ? dns(row.name) : null, registry ? registry(row.name) : null])
      // Carried over: what the feeds saw of it (its certificates, the zone file it appeared in).
      const seen = { ...(row.evidence?.ct ? { ct: row.evidence.ct } : {}), ...(row.evidence?.zone ? { zone: row.evidence.zone } : {}) }
      if (rdap || (answers && (answers.ns.length || answers.a.length || answers.mx.length)))
        results.push({ id: row.id, status: 'registered', price_minor: null, currency: null, evidence: { ...answers, ...(rdap ? { rdap } : {}), ...seen, checked: now.toISOString() } })
      else {
        const price = await quoter.quote([{ tld: row.tld, action: 'register', period: 1 }]).then(
          ([quote]) => ({ price_minor: quote!.total_minor, currency: quote!.currency }),
          () => ({ price_minor: null, currency: null }),
        )
        results.push({ id: row.id, status: 'available', ...price, evidence: { checked: now.toISOString() } })
      }
    }
  }
  return change(deps.db, scope, async (tx, audit) => {
    const updated: BrandCandidate[] = []
    for (const r of results) {
      updated.push(
        await tx
          .updateTable('brand_candidates')
          .set({ status: r.status, price_minor: r.price_minor, currency: r.currency, evidence: JSON.stringify(r.evidence), checked_at: now })
          .where('id', '=', r.id)
          .returningAll()
          .executeTakeFirstOrThrow(),
      )
    }
    await audit.record({
      area: AREA,
      entityType: 'brand-candidates',
      entityId: accountId,
      action: 'check',
      after: { checked: results.length, statuses: Object.fromEntries(CANDIDATE_STATUSES.map((s) => [s, results.filter((r) => r.status === s).length])) },
    })
    return updated
  })
}

/** Marks candidates of the account safe (a person found them harmless), or takes the mark away (back to not checked). */
export async function markSafe(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, ids: readonly string[], safe: boolean): Promise<BrandCandidate[]> {
  requirePermission(scope.actor, 'brand-manager')
  if (ids.length > CHECK_LIMIT)
    throw invalid('brand.check-limit', `At most ${CHECK_LIMIT} candidates at a time`, [fieldError('ids', 'brand.check-limit', `At most ${CHECK_LIMIT} candidates at a time`)])
  const accountId = scope.accountId!
  return change(deps.db, scope, async (tx, audit) => {
    const rows = await tx
      .selectFrom('brand_candidates')
      .select(['id', 'status'])
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .forUpdate()
      .execute()
    if (rows.length !== new Set(ids).size) throw notFound('Candidate not found')
    const changed = await tx
      .updateTable('brand_candidates')
      .set(safe ? { status: 'safe', checked_at: deps.now() } : { status: 'unchecked', price_minor: null, currency: null, evidence: null, checked_at: null })
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .returningAll()
      .execute()
    await audit.record({ area: AREA, entityType: 'brand-candidates', entityId: accountId, action: safe ? 'mark-safe' : 'unmark-safe', after: { names: changed.map((c) => c.name) } })
    return changed
  })
}

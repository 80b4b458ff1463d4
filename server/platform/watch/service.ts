import { sql, type Kysely } from 'kysely'
import { DEFAULT_DICTIONARY } from '#common/brand.ts'
import { WATCH_CASES_LIST, WATCH_DETECTIONS_LIST, WATCH_TEMPLATES_LIST, WATCHES_LIST } from '#common/lists/watch.ts'
import {
  CASE_ACTIONS,
  CASE_STATES,
  NOTICE_LANGUAGES,
  noticeLanguageOf,
  RESOLUTIONS,
  RISKS,
  TRIAGES,
  ursApplies,
  WATCH_SOURCES,
  type CaseAction,
  type NoticeLanguage,
  type Resolution,
  type Triage,
  OWN_NAME,
} from '#common/watch.ts'
import type { DB } from '#server/db/schema.ts'
import type { RunSummary, StoredReason, Watch, WatchCase, WatchDetection, WatchTemplate } from '#server/db/schema-watch.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { brandLookalikes, getBrand } from '#server/platform/brand/service.ts'
import { dnsEvidence } from '#server/platform/brand/dns.ts'
import { liveZoneOfDomain, zoneRecordsAt } from '#server/platform/dns/reads.ts'
import { nameserversOf } from '#server/platform/dns/zones.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { change, type Audit, type Tx } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused, staleVersion, type CodedFieldError } from '#server/platform/core/errors.ts'
import { can, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { captureAll, fingerprintOf, sha256, webReady, type Capture } from './capture.ts'
import { refusalOfStep, type Step } from './cases.ts'
import { deadlinesOf, type Deadline } from './clocks.ts'
import { clusterDetections } from './cluster.ts'
import type { WithRdap } from './rdap.ts'
import { keywordsIn, scoreDetection, scoreOwnName } from './scoring.ts'

/** Audit entries of watch go under `watch` (read with brand-viewer, decision 025). */
const AREA = 'watch'
export const WATCH_JOBS = { run: 'watch.run', due: 'watch.due', recheck: 'watch.recheck', reminders: 'watch.reminders' } as const
/** A run asks the DNS of at most this many of the brand's lookalikes, the most alike first. */
export const RUN_LIMIT = 400
const RUN_CONCURRENCY = 16
const DAY = 86_400_000

export type WatchDeps = Pick<PlatformDeps, 'db' | 'now' | 'mailer' | 'outbound' | 'config' | 'jobs' | 'powerdns'> & WithRdap

// ------------------------------------------------------------------ lists

export const watchesResource = listResource(WATCHES_LIST, {
  from: 'watches w',
  tiebreak: 'w.id',
  accountColumn: 'w.account_id',
  columns: {
    id: 'w.id',
    name: 'w.name',
    'brand.label': 'w.brand_label',
    sources: 'w.sources',
    interval_hours: 'w.interval_hours',
    detections: '(SELECT count(*)::int FROM watch_detections d WHERE d.watch_id = w.id)',
    critical: "(SELECT count(*)::int FROM watch_detections d WHERE d.watch_id = w.id AND d.risk = 'critical')",
    open_cases: "(SELECT count(*)::int FROM watch_cases c WHERE c.watch_id = w.id AND c.state <> 'resolved')",
    last_run_at: 'w.last_run_at',
    next_run_at: 'w.next_run_at',
    created_at: 'w.created_at',
  },
})

export const detectionsResource = listResource(WATCH_DETECTIONS_LIST, {
  from: 'watch_detections d',
  tiebreak: 'd.id',
  accountColumn: 'd.account_id',
  columns: {
    id: 'd.id',
    watch_id: 'd.watch_id',
    name: { column: 'd.name', lowercase: true },
    unicode_name: 'd.unicode_name',
    tld: { column: 'd.tld', lowercase: true },
    fuzzers: 'd.fuzzers',
    similarity: 'd.similarity',
    points: 'd.points',
    risk: 'd.risk',
    mail_ready: 'd.mail_ready',
    web_ready: 'd.web_ready',
    registrar: 'd.registrar',
    cluster: 'd.cluster',
    cluster_size: 'd.cluster_size',
    case_id: '(SELECT c.id FROM watch_cases c WHERE c.detection_id = d.id ORDER BY c.opened_at DESC LIMIT 1)',
    first_seen_at: 'd.first_seen_at',
    changed_at: 'd.changed_at',
  },
})

export const casesResource = listResource(WATCH_CASES_LIST, {
  from: 'watch_cases c JOIN watches w ON w.id = c.watch_id',
  tiebreak: 'c.id',
  accountColumn: 'c.account_id',
  columns: {
    id: 'c.id',
    watch_id: 'c.watch_id',
    'watch.name': 'w.name',
    name: 'c.names[1]',
    names: 'c.names',
    tld: 'c.tld',
    risk: 'c.risk',
    state: 'c.state',
    triage: 'c.triage',
    action: 'c.action',
    resolution: 'c.resolution',
    notice_to: 'c.notice_to',
    notice_sent_at: 'c.notice_sent_at',
    opened_at: 'c.opened_at',
    resolved_at: 'c.resolved_at',
  },
})

const templatesColumns = {
  id: 't.id',
  name: 't.name',
  shared: 't.account_id IS NULL',
  sources: 't.sources',
  interval_hours: 't.interval_hours',
  min_similarity: 't.min_similarity',
  threshold_high: 't.threshold_high',
  threshold_critical: 't.threshold_critical',
  created_at: 't.created_at',
}
const templatesBase = listResource(WATCH_TEMPLATES_LIST, { from: 'watch_templates t', tiebreak: 't.id', columns: templatesColumns })

/** The templates an account may start from: staff's (shared) and its own. */
export function templatesResource(scope: Scope): ListResource {
  return { ...templatesBase, source: sql`(SELECT * FROM watch_templates WHERE account_id IS NULL OR account_id = ${scope.accountId}) t` }
}

// ------------------------------------------------------------------ watches

export type WatchInput = {
  name: string
  brand_id: string
  template_id?: string | null
  sources?: readonly string[]
  interval_hours?: number
  min_similarity?: number
  threshold_high?: number
  threshold_critical?: number
  notice_text?: string | null
}

type Settings = Pick<Watch, 'sources' | 'interval_hours' | 'min_similarity' | 'threshold_high' | 'threshold_critical' | 'notice_text'>
type SettingsInput = Partial<Omit<Settings, 'sources'>> & { sources?: readonly string[] | undefined }

function cleanSettings(input: SettingsInput, base: Settings): Settings {
  const errors: CodedFieldError[] = []
  const sources = input.sources ? [...new Set(input.sources)] : base.sources
  const unknown = sources.filter((s) => !(WATCH_SOURCES as readonly string[]).includes(s))
  if (unknown.length) errors.push(fieldError('sources', 'watch.source', `Unknown source: ${unknown.join(', ')}`, [...WATCH_SOURCES]))
  if (!sources.length) errors.push(fieldError('sources', 'watch.source-none', 'A watch draws on at least one source'))
  const settings = { ...base, ...input, sources } as Settings
  if (settings.threshold_high > settings.threshold_critical) errors.push(fieldError('threshold_high', 'watch.thresholds', 'The high threshold is at most the critical one'))
  if (errors.length) throw invalid('watch.invalid', errors[0]!.message, errors)
  return settings
}

const DEFAULTS: Settings = { sources: ['lookalikes'], interval_hours: 24, min_similarity: 70, threshold_high: 50, threshold_critical: 80, notice_text: null }

async function templateOf(db: Kysely<DB>, scope: Scope, id: string) {
  const row = await db
    .selectFrom('watch_templates')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', scope.accountId)]))
    .executeTakeFirst()
  if (!row) throw invalid('watch.template', 'No such template', [fieldError('template_id', 'watch.template', 'No such template')])
  return row
}

const auditOfWatch = (w: Watch) => ({
  name: w.name,
  brand: w.brand_label,
  sources: w.sources,
  interval_hours: w.interval_hours,
  min_similarity: w.min_similarity,
  threshold_high: w.threshold_high,
  threshold_critical: w.threshold_critical,
})

export async function createWatch(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, input: WatchInput): Promise<Watch> {
  requirePermission(scope.actor, 'brand-manager')
  const brand = await getBrand(deps.db, scope, input.brand_id).catch(() => {
    throw invalid('watch.brand', 'No such brand in this account', [fieldError('brand_id', 'watch.brand', 'No such brand in this account')])
  })
  const template = input.template_id ? await templateOf(deps.db, scope, input.template_id) : null
  const base: Settings = template
    ? {
        sources: template.sources,
        interval_hours: template.interval_hours,
        min_similarity: template.min_similarity,
        threshold_high: template.threshold_high,
        threshold_critical: template.threshold_critical,
        notice_text: template.notice_text,
      }
    : DEFAULTS
  const { name: _n, brand_id: _b, template_id: _t, ...rest } = input
  const settings = cleanSettings(stripUndefined(rest), base)
  const name = input.name.trim()
  if (!name) throw invalid('watch.invalid', 'Name the watch', [fieldError('name', 'required', 'Name the watch')])
  return change(deps.db, scope, async (tx, audit) => {
    const taken = await tx.selectFrom('watches').select('id').where('account_id', '=', scope.accountId!).where('name', '=', name).executeTakeFirst()
    if (taken) throw refused('watch.exists', `${name} is already a watch of this account`, [fieldError('name', 'watch.exists', `${name} is already a watch of this account`)])
    const row = await tx
      .insertInto('watches')
      .values({ account_id: scope.accountId!, brand_id: brand.id, brand_label: brand.label, template_id: template?.id ?? null, name, ...settings, next_run_at: deps.now() })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'watch', entityId: row.id, action: 'create', after: auditOfWatch(row) })
    return row
  })
}

const stripUndefined = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>

export async function getWatch(db: Kysely<DB>, scope: Scope, id: string): Promise<Watch> {
  const row = await db.selectFrom('watches').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).executeTakeFirst()
  if (!row) throw notFound('Watch not found')
  return row
}

export async function updateWatch(
  deps: Pick<PlatformDeps, 'db' | 'now'>,
  scope: Scope,
  id: string,
  input: Partial<Omit<WatchInput, 'brand_id' | 'template_id'>> & { version: number },
): Promise<Watch> {
  requirePermission(scope.actor, 'brand-manager')
  const current = await getWatch(deps.db, scope, id)
  const { version, name, ...rest } = input
  const settings = cleanSettings(stripUndefined(rest), current)
  return change(deps.db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('watches').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).forUpdate().executeTakeFirstOrThrow()
    if (before.version !== version) throw staleVersion(before.version, 'watch')
    const row = await tx
      .updateTable('watches')
      .set({ ...settings, ...(name?.trim() ? { name: name.trim() } : {}), version: before.version + 1, updated_at: deps.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'watch', entityId: id, action: 'update', before: auditOfWatch(before), after: auditOfWatch(row) })
    return row
  })
}

/** Removes a watch with its detections, evidence and cases (a brand admin's). */
export async function deleteWatch(deps: Pick<PlatformDeps, 'db'>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'brand-admin')
  await getWatch(deps.db, scope, id)
  await change(deps.db, scope, async (tx, audit) => {
    const row = await tx.deleteFrom('watches').where('id', '=', id).where('account_id', '=', scope.accountId!).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'watch', entityId: id, action: 'delete', before: auditOfWatch(row) })
  })
}

// ------------------------------------------------------------------ contacts

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export async function watchContacts(db: Kysely<DB>, scope: Scope, watchId: string) {
  await getWatch(db, scope, watchId)
  return db.selectFrom('watch_contacts').selectAll().where('watch_id', '=', watchId).orderBy('email').execute()
}

export async function addContact(deps: Pick<PlatformDeps, 'db'>, scope: Scope, watchId: string, input: { email: string; name?: string | null; language?: string }) {
  requirePermission(scope.actor, 'brand-manager')
  await getWatch(deps.db, scope, watchId)
  const email = input.email.trim()
  if (!EMAIL.test(email)) throw invalid('watch.contact', 'Give an email address', [fieldError('email', 'watch.contact', 'Give an email address')])
  const language = (NOTICE_LANGUAGES as readonly string[]).includes(input.language ?? '') ? input.language! : 'en'
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('watch_contacts')
      .values({ watch_id: watchId, account_id: scope.accountId!, email, name: input.name?.trim() || null, language })
      .onConflict((oc) => oc.expression(sql`watch_id, lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!row) throw refused('watch.contact-exists', `${email} is already told`, [fieldError('email', 'watch.contact-exists', `${email} is already told`)])
    await audit.record({ area: AREA, entityType: 'watch', entityId: watchId, action: 'add-contact', after: { email, language } })
    return row
  })
}

export async function removeContact(deps: Pick<PlatformDeps, 'db'>, scope: Scope, watchId: string, contactId: string) {
  requirePermission(scope.actor, 'brand-manager')
  await getWatch(deps.db, scope, watchId)
  await change(deps.db, scope, async (tx, audit) => {
    const row = await tx.deleteFrom('watch_contacts').where('id', '=', contactId).where('watch_id', '=', watchId).returningAll().executeTakeFirst()
    if (!row) throw notFound('Contact not found')
    await audit.record({ area: AREA, entityType: 'watch', entityId: watchId, action: 'remove-contact', before: { email: row.email } })
  })
}

// ------------------------------------------------------------------ templates

export type TemplateInput = Partial<Settings> & { name: string; sources?: readonly string[] }

/** A template of the account (a brand admin's), or staff's for every account (staff in their own group). */
export async function createTemplate(deps: Pick<PlatformDeps, 'db'>, scope: Scope, input: TemplateInput): Promise<WatchTemplate> {
  requirePermission(scope.actor, 'brand-admin')
  const { name, ...rest } = input
  const settings = cleanSettings(stripUndefined(rest), DEFAULTS)
  if (!name.trim()) throw invalid('watch.invalid', 'Name the template', [fieldError('name', 'required', 'Name the template')])
  const shared = can(scope.actor, 'staff') && scope.accountId === scope.actor.homeAccountId
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('watch_templates')
      .values({ account_id: shared ? null : scope.accountId, name: name.trim(), ...settings })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!row) throw refused('watch.template-exists', `${name} is already a template`, [fieldError('name', 'watch.template-exists', `${name} is already a template`)])
    await audit.record({ area: AREA, entityType: 'watch-template', entityId: row.id, action: 'create', after: { name: row.name, shared, sources: row.sources } })
    return row
  })
}

// ------------------------------------------------------------------ a run: the detections

type Found = Awaited<ReturnType<typeof brandLookalikes>>[number]

/**
 * One run of a watch (issue 31): the lookalike engine's registrable candidates of its brand
 * (decision 029, the same engine as brand protection) at or above the watch's similarity, the
 * most alike first and at most RUN_LIMIT, asked of the DNS through the configured resolver;
 * each one registered by someone else (NS or MX, or an A where the TLD has no wildcard) is a
 * detection: its evidence captured (DNS, RDAP, web), rated with its reasons, clustered. The
 * brand's own names the account holds are looked at too (ownNameDetections: hijack and lapse). A
 * detection already known adds evidence only when what is captured changed, so only new or
 * changed ones are told.
 */
export async function runWatch(deps: WatchDeps, scope: Scope, watchId: string): Promise<RunSummary & { fresh: string[] }> {
  const started = Date.now()
  const watch = await getWatch(deps.db, scope, watchId)
  const brand = await getBrand(deps.db, scope, watch.brand_id)
  const all = await brandLookalikes(deps.db, { label: brand.label, domains: brand.domains, dictionary: brand.dictionary, fuzzers: brand.fuzzers as never[] })
  const owned = new Set(
    (
      await liveDomainsNamed(deps.db, watch.account_id, all.map((c) => c.name).slice(0, 5000))
        .select('domains.name')
        .execute()
    ).map((d) => d.name),
  )
  const candidates = all
    .filter((c) => c.score >= watch.min_similarity && !owned.has(c.name))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, RUN_LIMIT)
  const dns = dnsEvidence(deps)
  const live: { c: Found; capture: Capture }[] = []
  if (dns) {
    let next = 0
    await Promise.all(
      Array.from({ length: RUN_CONCURRENCY }, async () => {
        while (next < candidates.length) {
          const c = candidates[next++]!
          const answers = await dns(c.name)
          if (!answers || !(answers.ns.length || answers.mx.length || answers.a.length)) continue
          const capture = await captureAll(deps, c.name, { web: true })
          live.push({ c, capture })
        }
      }),
    )
  }
  const words = brand.dictionary.length ? brand.dictionary : [...DEFAULT_DICTIONARY]
  const now = deps.now()
  const detections: ScoredCapture[] = live.map(({ c, capture }) => {
    const registered = capture.rdap?.registered_at ? Math.floor((now.getTime() - Date.parse(capture.rdap.registered_at)) / DAY) : null
    const score = scoreDetection(
      {
        similarity: c.score,
        fuzzers: [...c.fuzzers],
        keywords: keywordsIn(c.name.slice(0, c.name.indexOf('.')), words, brand.label),
        mx: capture.dns.mx.length > 0,
        web: webReady(capture.web),
        certificateAgeDays: null,
        registeredDaysAgo: registered,
        registrar: capture.rdap?.registrar ?? null,
        ourRegistry: false,
      },
      { high: watch.threshold_high, critical: watch.threshold_critical },
    )
    return { c, capture, score, fingerprint: fingerprintOf(capture) }
  })
  detections.push(...(await ownNameDetections(deps, watch, brand.domains, now)))
  const summary = await recordDetections(deps, scope, watch, detections, now)
  const result = { candidates: all.length, asked: candidates.length, found: detections.length, new: summary.fresh.length, changed: summary.changed, ms: Date.now() - started }
  await change(deps.db, scope, async (tx, audit) => {
    await tx
      .updateTable('watches')
      .set({ last_run_at: now, last_run: JSON.stringify(result), next_run_at: new Date(now.getTime() + watch.interval_hours * 3_600_000), brand_label: brand.label })
      .where('id', '=', watch.id)
      .execute()
    await audit.record({ area: AREA, entityType: 'watch', entityId: watch.id, action: 'run', after: result })
  })
  if (summary.fresh.length || summary.changed) await tellContacts(deps, watch, summary.told)
  return { ...result, fresh: summary.fresh }
}

/**
 * The brand's own names the account holds, each a detection when the registry delegates it to
 * nameservers we do not run while its zone is ours (no change of ours explains it: a hijack), or
 * when it lapses (scoreOwnName) — what an outside service cannot tell, because we know which
 * changes were ours. The registry's word is RDAP's answer, else what it last told us (the domain's
 * nameservers); the evidence is the DNS and RDAP answers, as for a lookalike.
 */
async function ownNameDetections(deps: WatchDeps, watch: Watch, names: readonly string[], now: Date): Promise<ScoredCapture[]> {
  if (!names.length) return []
  const held = await liveDomainsNamed(deps.db, watch.account_id, [...names])
    .select(['domains.id', 'domains.name', 'domains.unicode_name', 'domains.tld', 'domains.status', 'domains.expires_at', 'domains.auto_renew', 'domains.nameservers'])
    .execute()
  const found: ScoredCapture[] = []
  for (const d of held) {
    const zone = await liveZoneOfDomain(deps.db, d.id)
    // Ours: the nameservers our PowerDNS runs and the ones the zone we serve names at its apex.
    const served = zone ? (await zoneRecordsAt(deps.db, zone.id, zone.name, 'NS').select('content').execute()).map((r) => r.content) : []
    const capture = await captureAll(deps, d.name, { web: false })
    const score = scoreOwnName(
      {
        nameservers: capture.rdap?.nameservers.length ? capture.rdap.nameservers : d.nameservers,
        ours: [...nameserversOf(deps), ...served],
        zoneHere: !!zone,
        status: d.status,
        expiresAt: d.expires_at,
        autoRenew: d.auto_renew,
        now,
      },
      { high: watch.threshold_high, critical: watch.threshold_critical },
    )
    if (!score) continue
    const fingerprint = sha256(`${fingerprintOf(capture)}\t${JSON.stringify(score.reasons)}`)
    found.push({ c: { name: d.name, unicode_name: d.unicode_name, tld: d.tld, score: 100, fuzzers: [OWN_NAME] }, capture, score, fingerprint })
  }
  return found
}

export type ScoredCapture = {
  c: Pick<Found, 'name' | 'unicode_name' | 'tld' | 'score'> & { fuzzers: Iterable<string> }
  capture: Capture
  score: ReturnType<typeof scoreDetection>
  fingerprint: string
}

/** Stores a run's detections: new ones with their evidence, changed ones with new evidence, and every detection's cluster again. */
export async function recordDetections(deps: Pick<PlatformDeps, 'db'>, scope: Scope, watch: Watch, found: readonly ScoredCapture[], now: Date) {
  return change(deps.db, scope, async (tx, audit) => {
    const known = new Map((await tx.selectFrom('watch_detections').select(['id', 'name', 'fingerprint']).where('watch_id', '=', watch.id).execute()).map((d) => [d.name, d]))
    const fresh: string[] = []
    const told: { name: string; risk: string; points: number }[] = []
    let changed = 0
    for (const d of found) {
      const before = known.get(d.c.name)
      const values = {
        similarity: d.c.score,
        fuzzers: [...d.c.fuzzers],
        points: d.score.points,
        risk: d.score.risk,
        reasons: JSON.stringify(d.score.reasons),
        mail_ready: d.capture.dns.mx.length > 0,
        web_ready: webReady(d.capture.web),
        registrar: d.capture.rdap?.registrar ?? null,
        abuse_email: d.capture.rdap?.abuse_email ?? null,
        fingerprint: d.fingerprint,
        last_seen_at: now,
      }
      let id: string
      if (!before) {
        const row = await tx
          .insertInto('watch_detections')
          .values({ watch_id: watch.id, account_id: watch.account_id, name: d.c.name, unicode_name: d.c.unicode_name, tld: d.c.tld, cluster: d.c.name, first_seen_at: now, changed_at: now, ...values })
          .returning('id')
          .executeTakeFirstOrThrow()
        id = row.id
        fresh.push(d.c.name)
        told.push({ name: d.c.unicode_name, risk: d.score.risk, points: d.score.points })
      } else {
        id = before.id
        const differs = before.fingerprint !== d.fingerprint
        await tx
          .updateTable('watch_detections')
          .set({ ...values, ...(differs ? { changed_at: now } : {}) })
          .where('id', '=', id)
          .execute()
        if (!differs) continue
        changed++
        told.push({ name: d.c.unicode_name, risk: d.score.risk, points: d.score.points })
      }
      await storeEvidence(tx, id, watch.account_id, d.capture, now)
    }
    await recluster(tx, watch.id)
    if (fresh.length || changed) await audit.record({ area: AREA, entityType: 'watch', entityId: watch.id, action: 'detect', after: { new: fresh, changed } })
    return { fresh, changed, told }
  })
}

async function storeEvidence(tx: Tx, detectionId: string, accountId: string, capture: Capture, now: Date) {
  const rows: { kind: 'dns' | 'rdap' | 'web'; data: Record<string, unknown> }[] = [{ kind: 'dns', data: capture.dns }]
  if (capture.rdap) rows.push({ kind: 'rdap', data: capture.rdap })
  if (capture.web) rows.push({ kind: 'web', data: capture.web })
  await tx
    .insertInto('watch_evidence')
    .values(rows.map((r) => ({ detection_id: detectionId, account_id: accountId, kind: r.kind, captured_at: now, data: JSON.stringify(r.data), sha256: sha256(JSON.stringify(r.data)) })))
    .execute()
}

/** Every detection of a watch clustered again from its latest DNS and RDAP evidence. */
async function recluster(tx: Tx, watchId: string) {
  const rows = await tx
    .selectFrom('watch_detections as d')
    .select(['d.id', 'd.name'])
    .select((eb) => [
      eb.selectFrom('watch_evidence as e').select('e.data').whereRef('e.detection_id', '=', 'd.id').where('e.kind', '=', 'dns').orderBy('e.captured_at', 'desc').limit(1).as('dns'),
      eb.selectFrom('watch_evidence as e').select('e.data').whereRef('e.detection_id', '=', 'd.id').where('e.kind', '=', 'rdap').orderBy('e.captured_at', 'desc').limit(1).as('rdap'),
    ])
    .where('d.watch_id', '=', watchId)
    .execute()
  const clusters = clusterDetections(
    rows.map((r) => {
      const dns = (r.dns ?? {}) as { ns?: string[]; a?: string[]; aaaa?: string[] }
      const rdap = (r.rdap ?? {}) as { registrant?: string | null }
      return { name: r.name, registrant: rdap.registrant ?? null, nameservers: dns.ns ?? [], addresses: [...(dns.a ?? []), ...(dns.aaaa ?? [])] }
    }),
  )
  for (const r of rows) {
    const c = clusters.get(r.name)!
    await tx.updateTable('watch_detections').set({ cluster: c.cluster, cluster_size: c.size }).where('id', '=', r.id).execute()
  }
}

/** The watch's contacts are told of new or changed detections, each in their language. */
async function tellContacts(deps: Pick<PlatformDeps, 'db' | 'mailer'>, watch: Watch, lines: { name: string; risk: string; points: number }[]) {
  const contacts = await deps.db.selectFrom('watch_contacts').select(['email', 'language']).where('watch_id', '=', watch.id).execute()
  for (const contact of contacts) {
    const t = mailTexts(contact.language)
    await deps.mailer.send({
      to: contact.email,
      subject: t('watchDetections.subject', { count: lines.length, watch: watch.name }),
      text: `${t('watchDetections.intro', { watch: watch.name })}\n\n${lines.map((l) => t('watchDetections.line', { name: l.name, risk: t(`watchRisk.${l.risk}`), points: l.points })).join('\n')}\n\n${t('watchDetections.outro')}`,
    })
  }
}

export async function getDetection(db: Kysely<DB>, scope: Scope, id: string): Promise<WatchDetection> {
  const row = await db.selectFrom('watch_detections').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).executeTakeFirst()
  if (!row) throw notFound('Detection not found')
  return row
}

export async function evidenceOf(db: Kysely<DB>, scope: Scope, detectionIds: readonly string[]) {
  if (!detectionIds.length) return []
  return db
    .selectFrom('watch_evidence')
    .selectAll()
    .where('account_id', '=', scope.accountId!)
    .where('detection_id', 'in', [...detectionIds])
    .orderBy('captured_at', 'desc')
    .orderBy('kind')
    .execute()
}

// ------------------------------------------------------------------ cases

const auditOfCase = (c: WatchCase) => ({ state: c.state, triage: c.triage, action: c.action, resolution: c.resolution, names: c.names })

async function recordStep(tx: Tx, audit: Audit, scope: Scope, before: WatchCase | null, after: WatchCase, detail: string | null, note: string | null, now: Date) {
  await tx.insertInto('watch_case_steps').values({ case_id: after.id, account_id: after.account_id, state: after.state, detail, note, actor_label: scope.actor.label, at: now }).execute()
  await audit.record({
    area: AREA,
    entityType: 'watch-case',
    entityId: after.id,
    action: before ? 'step' : 'create',
    ...(before ? { before: auditOfCase(before) } : {}),
    after: { ...auditOfCase(after), ...(note ? { note } : {}) },
  })
}

/** Opens a case over a detection, or over every name of its cluster (`cluster`); one open case per detection. */
export async function openCase(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, detectionId: string, options: { cluster?: boolean } = {}): Promise<WatchCase> {
  requirePermission(scope.actor, 'brand-manager')
  const detection = await getDetection(deps.db, scope, detectionId)
  const now = deps.now()
  return change(deps.db, scope, async (tx, audit) => {
    const open = await tx.selectFrom('watch_cases').select('id').where('detection_id', '=', detectionId).where('state', '<>', 'resolved').executeTakeFirst()
    if (open) throw refused('watch.case-open', 'This detection already has an open case', [], { case_id: open.id })
    const names = options.cluster
      ? (
          await tx
            .selectFrom('watch_detections')
            .select('name')
            .where('watch_id', '=', detection.watch_id)
            .where('cluster', '=', detection.cluster)
            .orderBy(sql`name = ${detection.name}`, 'desc')
            .orderBy('name')
            .execute()
        ).map((d) => d.name)
      : [detection.name]
    const row = await tx
      .insertInto('watch_cases')
      .values({ watch_id: detection.watch_id, account_id: detection.account_id, detection_id: detection.id, names, tld: detection.tld, risk: detection.risk, opened_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
    await recordStep(tx, audit, scope, null, row, null, null, now)
    return row
  })
}

export async function getCase(db: Kysely<DB>, scope: Scope, id: string): Promise<WatchCase> {
  const row = await db.selectFrom('watch_cases').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId!).executeTakeFirst()
  if (!row) throw notFound('Case not found')
  return row
}

export type StepInput = {
  version: number
  to: 'triaged' | 'action' | 'resolved'
  triage?: Triage
  action?: CaseAction
  resolution?: Resolution
  note?: string
  /** notice-sent: the abuse address (the RDAP answer's when not given) and the notice's language. */
  notice_to?: string
  language?: NoticeLanguage
  /** udrp / urs: when the proceeding commenced (the provider's notice); udrp's panel and decision as they come. */
  commenced_at?: string
  panel_at?: string
  decided_at?: string
}

function stepOf(input: StepInput): Step {
  const missing = (field: string) => invalid('watch.step', `Say the ${field}`, [fieldError(field, 'required', `Say the ${field}`)])
  if (input.to === 'triaged') {
    if (!input.triage) throw missing('triage')
    return { to: 'triaged', triage: input.triage }
  }
  if (input.to === 'action') {
    if (!input.action) throw missing('action')
    return { to: 'action', action: input.action }
  }
  if (!input.resolution) throw missing('resolution')
  return { to: 'resolved', resolution: input.resolution }
}

/**
 * Moves a case one step (issue 31): the step dated, attributed and audited. `urs` is refused for a
 * TLD where URS does not apply; `notice-sent` mails the takedown notice to the abuse contact, once
 * per case whatever re-runs (`watch_sends`), and arms the escalation reminder.
 */
export async function stepCase(deps: Pick<PlatformDeps, 'db' | 'now' | 'mailer'>, scope: Scope, caseId: string, input: StepInput): Promise<WatchCase> {
  requirePermission(scope.actor, 'brand-manager')
  const current = await getCase(deps.db, scope, caseId)
  const step = stepOf(input)
  const code = refusalOfStep(current, step)
  if (code) throw refused(code, `This case cannot go to ${input.to} now`, [fieldError('to', code, `This case cannot go to ${input.to} now`)])
  if (step.to === 'action' && step.action === 'urs' && !ursApplies(current.tld))
    throw refused(
      'watch.urs-not-applicable',
      `URS does not apply to .${current.tld}: use UDRP`,
      [fieldError('action', 'watch.urs-not-applicable', `URS does not apply to .${current.tld}: use UDRP`)],
      {
        tld: current.tld,
      },
    )
  const now = deps.now()
  const dateOf = (text: string | undefined, field: string) => {
    if (!text) return now
    const d = new Date(text)
    if (Number.isNaN(d.getTime())) throw invalid('watch.date', `${field}: not a date`, [fieldError(field, 'watch.date', `${field}: not a date`)])
    return d
  }
  let notice: { to: string; language: NoticeLanguage } | null = null
  if (step.to === 'action' && step.action === 'notice-sent') {
    const detection = await getDetection(deps.db, scope, current.detection_id)
    const to = (input.notice_to ?? detection.abuse_email ?? '').trim()
    if (!EMAIL.test(to))
      throw invalid('watch.notice-to', 'Give the abuse contact’s address (RDAP gave none)', [fieldError('notice_to', 'watch.notice-to', 'Give the abuse contact’s address (RDAP gave none)')])
    notice = { to, language: input.language ?? noticeLanguageOf(current.tld) }
  }
  const updated = await change(deps.db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('watch_cases').selectAll().where('id', '=', caseId).forUpdate().executeTakeFirstOrThrow()
    if (before.version !== input.version) throw staleVersion(before.version, 'case')
    const set: Partial<WatchCase> = { state: step.to, version: before.version + 1, updated_at: now }
    if (step.to === 'triaged')
      Object.assign(set, { triage: step.triage, risk: step.triage === 'high' ? (before.risk === 'critical' ? 'critical' : 'high') : step.triage === 'low' ? 'low' : before.risk })
    if (step.to === 'action') {
      set.action = step.action
      if (step.action === 'udrp')
        Object.assign(set, {
          udrp_commenced_at: dateOf(input.commenced_at, 'commenced_at'),
          ...(input.panel_at ? { udrp_panel_at: dateOf(input.panel_at, 'panel_at') } : {}),
          ...(input.decided_at ? { udrp_decided_at: dateOf(input.decided_at, 'decided_at') } : {}),
        })
      if (step.action === 'urs') set.urs_noticed_at = dateOf(input.commenced_at, 'commenced_at')
      if (notice) Object.assign(set, { notice_to: notice.to, notice_language: notice.language })
    }
    if (step.to === 'resolved') Object.assign(set, { resolution: step.resolution, resolved_at: now })
    const after = await tx.updateTable('watch_cases').set(set).where('id', '=', caseId).returningAll().executeTakeFirstOrThrow()
    const detail = step.to === 'triaged' ? step.triage : step.to === 'action' ? step.action : step.resolution
    await recordStep(tx, audit, scope, before, after, detail, input.note?.trim() || null, now)
    return after
  })
  if (notice) return (await sendNotice(deps, scope, updated.id)) ?? updated
  return updated
}

/** The notice's texts in its language: the watch's own words (its template's) first, when it has them. */
function noticeMail(language: string, watch: Pick<Watch, 'name' | 'brand_label' | 'notice_text'>, c: WatchCase, evidence: { kind: string; captured_at: Date; sha256: string }[]) {
  const t = mailTexts(language)
  const lines = evidence.map((e) => t('watchNotice.evidence', { kind: e.kind, at: e.captured_at.toISOString(), hash: e.sha256.slice(0, 16) }))
  return {
    subject: t('watchNotice.subject', { name: c.names[0], brand: watch.brand_label }),
    text: [
      t('watchNotice.intro', { brand: watch.brand_label }),
      c.names.map((n) => `- ${n}`).join('\n'),
      watch.notice_text ?? '',
      t('watchNotice.evidenceIntro'),
      lines.join('\n'),
      t('watchNotice.outro'),
    ]
      .filter(Boolean)
      .join('\n\n'),
  }
}

/**
 * Mails a case's takedown notice once (idempotent by case and step): the send is claimed in
 * `watch_sends` first (its primary key is the case and the step), then mailed; a re-run finds
 * the claim and sends nothing. A failed send takes its claim back, so a retry sends it.
 */
export async function sendNotice(deps: Pick<PlatformDeps, 'db' | 'now' | 'mailer'>, scope: Scope, caseId: string): Promise<WatchCase | null> {
  const c = await getCase(deps.db, scope, caseId)
  if (!c.notice_to) return null
  const watch = await getWatch(deps.db, scope, c.watch_id)
  const evidence = await evidenceOf(deps.db, scope, [c.detection_id])
  const mail = noticeMail(c.notice_language ?? 'en', watch, c, evidence)
  const claimed = await deps.db
    .insertInto('watch_sends')
    .values({ case_id: c.id, step: 'notice', account_id: c.account_id, recipient: c.notice_to, subject: mail.subject, sent_at: deps.now() })
    .onConflict((oc) => oc.doNothing())
    .returning('case_id')
    .executeTakeFirst()
  if (!claimed) return c
  try {
    await deps.mailer.send({ to: c.notice_to, subject: mail.subject, text: mail.text })
  } catch (error) {
    await deps.db.deleteFrom('watch_sends').where('case_id', '=', c.id).where('step', '=', 'notice').execute()
    throw error
  }
  return deps.db.updateTable('watch_cases').set({ notice_sent_at: deps.now() }).where('id', '=', c.id).returningAll().executeTakeFirstOrThrow()
}

/** A case with its steps, what was mailed, its detection's evidence and its deadlines. */
export async function caseDetail(db: Kysely<DB>, scope: Scope, id: string) {
  const c = await getCase(db, scope, id)
  const [steps, sends, detection, evidence, watch] = await Promise.all([
    db.selectFrom('watch_case_steps').selectAll().where('case_id', '=', id).orderBy('at').orderBy('id').execute(),
    db.selectFrom('watch_sends').selectAll().where('case_id', '=', id).orderBy('sent_at').execute(),
    getDetection(db, scope, c.detection_id),
    evidenceOf(db, scope, [c.detection_id]),
    getWatch(db, scope, c.watch_id),
  ])
  const deadlines: Deadline[] = deadlinesOf({
    udrpCommencedAt: c.udrp_commenced_at,
    udrpPanelAt: c.udrp_panel_at,
    udrpDecidedAt: c.udrp_decided_at,
    ursNoticedAt: c.urs_noticed_at,
    noticeSentAt: c.action === 'notice-sent' ? c.notice_sent_at : null,
  })
  return { case: c, steps, sends, detection, evidence, watch, deadlines, urs: ursApplies(c.tld) }
}

// ------------------------------------------------------------------ background work

/** The watches due, each run (a failing one logged and left for its next turn). */
export async function runDueWatches(deps: WatchDeps & Pick<PlatformDeps, 'logger'>, systemScopeOf: (accountId: string) => Scope): Promise<number> {
  const due = await deps.db.selectFrom('watches').select(['id', 'account_id']).where('next_run_at', '<=', deps.now()).orderBy('next_run_at').limit(50).execute()
  for (const w of due) {
    try {
      await runWatch(deps, systemScopeOf(w.account_id), w.id)
    } catch (error) {
      deps.logger.warn(`watch ${w.id}: run failed: ${(error as Error).message}`)
      await deps.db
        .updateTable('watches')
        .set({ next_run_at: new Date(deps.now().getTime() + 3_600_000) })
        .where('id', '=', w.id)
        .execute()
    }
  }
  return due.length
}

/** Escalation reminders (5 business days after a notice, once per case): mailed to the watch's contacts. */
export async function sendReminders(deps: Pick<PlatformDeps, 'db' | 'now' | 'mailer'>): Promise<number> {
  const open = await deps.db
    .selectFrom('watch_cases as c')
    .innerJoin('watches as w', 'w.id', 'c.watch_id')
    .select(['c.id', 'c.account_id', 'c.names', 'c.notice_sent_at', 'c.notice_to', 'c.watch_id', 'w.name as watch_name'])
    .where('c.state', '=', 'action')
    .where('c.action', '=', 'notice-sent')
    .where('c.notice_sent_at', 'is not', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('watch_sends as s').select('s.case_id').whereRef('s.case_id', '=', 'c.id').where('s.step', '=', 'reminder'))))
    .execute()
  let sent = 0
  for (const c of open) {
    const due = deadlinesOf({ noticeSentAt: c.notice_sent_at }).find((d) => d.key === 'escalation')!.due
    if (due > deps.now()) continue
    const contacts = await deps.db.selectFrom('watch_contacts').select(['email', 'language']).where('watch_id', '=', c.watch_id).execute()
    const claimed = await deps.db
      .insertInto('watch_sends')
      .values({ case_id: c.id, step: 'reminder', account_id: c.account_id, recipient: contacts.map((x) => x.email).join(', ') || '—', subject: 'reminder', sent_at: deps.now() })
      .onConflict((oc) => oc.doNothing())
      .returning('case_id')
      .executeTakeFirst()
    if (!claimed) continue
    for (const contact of contacts) {
      const t = mailTexts(contact.language)
      await deps.mailer.send({
        to: contact.email,
        subject: t('watchReminder.subject', { name: c.names[0] }),
        text: t('watchReminder.text', { name: c.names[0], to: c.notice_to, date: c.notice_sent_at!.toISOString().slice(0, 10), watch: c.watch_name }),
      })
    }
    sent++
  }
  return sent
}

/** The open cases' names to re-check, with the account and detection of each. */
export function openCaseNames(db: Kysely<DB>) {
  return db
    .selectFrom('watch_cases as c')
    .innerJoin('watch_detections as d', 'd.id', 'c.detection_id')
    .innerJoin('watches as w', 'w.id', 'c.watch_id')
    .select(['d.id as detection_id', 'd.name', 'd.fingerprint', 'c.account_id', 'w.id as watch_id'])
    .where('c.state', '<>', 'resolved')
    .execute()
}

// ------------------------------------------------------------------ overview

/** Across the account's watches: open cases by state and risk, deadlines this week, time to takedown, recidivism. */
export async function watchOverview(db: Kysely<DB>, scope: Scope, now: Date) {
  const accountId = scope.accountId!
  const [byState, byRisk, resolved, open, recidivists, watches] = await Promise.all([
    db
      .selectFrom('watch_cases')
      .select(['state', sql<number>`count(*)::int`.as('count')])
      .where('account_id', '=', accountId)
      .groupBy('state')
      .execute(),
    db
      .selectFrom('watch_cases')
      .select(['risk', sql<number>`count(*)::int`.as('count')])
      .where('account_id', '=', accountId)
      .where('state', '<>', 'resolved')
      .groupBy('risk')
      .execute(),
    db
      .selectFrom('watch_cases')
      .select([sql<number>`count(*)::int`.as('count'), sql<number | null>`avg(extract(epoch from resolved_at - opened_at) / 86400)::float8`.as('days')])
      .where('account_id', '=', accountId)
      .where('resolution', '=', 'taken-down')
      .executeTakeFirstOrThrow(),
    db.selectFrom('watch_cases').selectAll().where('account_id', '=', accountId).where('state', '<>', 'resolved').execute(),
    db
      .selectFrom('watch_detections')
      .select(['registrar', sql<number>`count(*)::int`.as('count')])
      .where('account_id', '=', accountId)
      .where('registrar', 'is not', null)
      .groupBy('registrar')
      .having(sql`count(*)`, '>', 1)
      .orderBy(sql`count(*)`, 'desc')
      .limit(10)
      .execute(),
    db
      .selectFrom('watches')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow(),
  ])
  const weekEnd = new Date(now.getTime() + 7 * DAY)
  const deadlines = open
    .flatMap((c) =>
      deadlinesOf({
        udrpCommencedAt: c.udrp_commenced_at,
        udrpPanelAt: c.udrp_panel_at,
        udrpDecidedAt: c.udrp_decided_at,
        ursNoticedAt: c.urs_noticed_at,
        noticeSentAt: c.action === 'notice-sent' ? c.notice_sent_at : null,
      }).map((d) => ({ case_id: c.id, watch_id: c.watch_id, name: c.names[0]!, key: d.key, due: d.due })),
    )
    .filter((d) => d.due <= weekEnd)
    .sort((a, b) => a.due.getTime() - b.due.getTime())
  return {
    watches: watches.count,
    states: Object.fromEntries(CASE_STATES.map((s) => [s, byState.find((r) => r.state === s)?.count ?? 0])) as Record<(typeof CASE_STATES)[number], number>,
    risks: Object.fromEntries(RISKS.map((r) => [r, byRisk.find((x) => x.risk === r)?.count ?? 0])) as Record<(typeof RISKS)[number], number>,
    taken_down: resolved.count,
    days_to_takedown: resolved.days === null ? null : Math.round(Number(resolved.days) * 10) / 10,
    recidivists: recidivists.map((r) => ({ registrar: r.registrar!, count: r.count })),
    deadlines,
  }
}

export { CASE_ACTIONS, RESOLUTIONS, TRIAGES }
export type { StoredReason }

import { sql } from 'kysely'
import { RegistryError, type DomainInfo } from '#server/integrations/registry/index.ts'
import { change, txRunner } from '#server/platform/core/change.ts'
import { badRequest, notFound } from '#server/platform/core/errors.ts'
import { systemScope, type Scope } from '#server/platform/core/scope.ts'
import { listMail, mailAccountUsers } from '#server/platform/core/notices.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { dsToRecord, itemError, registryColumns, renewDomain, validateName } from './lifecycle.ts'
import { requireDomainManager, requireDomainViewer } from './portfolio.ts'
import { pollRegistries } from './poll.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { tldPeriods } from '#server/platform/tlds/reads.ts'
import { liveDomainNamed } from './reads.ts'

export const DOMAIN_JOBS = {
  import: 'domains.import',
  autoRenew: 'domains.auto-renew',
  expiryNotices: 'domains.expiry-notices',
  reconcile: 'domains.reconcile',
  poll: 'domains.registry-poll',
} as const

export const MAX_IMPORT_NAMES = 10_000
export const AUTO_RENEW_WITHIN_DAYS = 7
export const NOTICE_THRESHOLDS = [60, 30, 7, 1] as const
const DAY = 86_400_000

// ----------------------------------------------------------------------------- imports

/** Names from a pasted list or a CSV (first column; a header line without a dot is skipped). */
export function importLines(input: { names?: string[]; csv?: string }): string[] {
  if (input.names) return input.names.map((n) => n.trim()).filter(Boolean)
  const lines = (input.csv ?? '').split(/\r?\n/)
  const names: string[] = []
  for (const [i, raw] of lines.entries()) {
    const first = (raw.split(/[,;\t]/)[0] ?? '').trim().replace(/^"|"$/g, '')
    if (!first) continue
    if (i === 0 && !first.includes('.')) continue
    names.push(first)
  }
  return names
}

/** Queues an import: its lines are stored now, the job checks each at the registry. */
export async function startImport(deps: PlatformDeps, scope: Scope, input: { names?: string[]; csv?: string }) {
  requireDomainManager(scope)
  if (!scope.accountId) throw badRequest('An account is required')
  const names = importLines(input)
  if (!names.length) throw badRequest('Give at least one domain name', [{ field: input.csv !== undefined ? 'csv' : 'names', message: 'No names found' }])
  if (names.length > MAX_IMPORT_NAMES)
    throw badRequest(`At most ${MAX_IMPORT_NAMES} names at once`, [{ field: input.csv !== undefined ? 'csv' : 'names', message: `${names.length} names; the limit is ${MAX_IMPORT_NAMES}` }])
  return change(deps.db, scope, async (tx, audit) => {
    const job = await tx.insertInto('domain_imports').values({ account_id: scope.accountId!, total: names.length, created_by: scope.actor.userId }).returning('id').executeTakeFirstOrThrow()
    for (let i = 0; i < names.length; i += 1000) {
      await tx
        .insertInto('domain_import_lines')
        .values(names.slice(i, i + 1000).map((name, j) => ({ import_id: job.id, line: i + j + 1, name: name.slice(0, 300), ok: null, error: null, domain_id: null })))
        .execute()
    }
    await audit.record({ area: 'domains', entityType: 'domain_import', entityId: job.id, action: 'start', after: { total: names.length } })
    await deps.jobs.send(DOMAIN_JOBS.import, { importId: job.id }, { runner: txRunner(tx), retryLimit: 3 })
    return { job_id: job.id }
  })
}

export async function getImport(deps: PlatformDeps, scope: Scope, id: string) {
  requireDomainViewer(scope)
  let query = deps.db.selectFrom('domain_imports').selectAll().where('id', '=', id)
  if (scope.accountId) query = query.where('account_id', '=', scope.accountId)
  const job = await query.executeTakeFirst()
  if (!job) throw notFound('Import not found')
  const lines = await deps.db.selectFrom('domain_import_lines').select(['line', 'name', 'ok', 'error', 'domain_id']).where('import_id', '=', id).orderBy('line').execute()
  return {
    job_id: job.id,
    state: job.state,
    total: job.total,
    done: job.done,
    created_at: new Date(job.created_at).toISOString(),
    finished_at: job.finished_at ? job.finished_at.toISOString() : null,
    results: lines.map((l) => ({ line: l.line, name: l.name, ok: l.ok, ...(l.error ? { error: l.error } : {}), ...(l.domain_id ? { domain_id: l.domain_id } : {}) })),
  }
}

/**
 * One line: valid, offered, ours at the registry (info with our credentials), not yet managed.
 * The domain and the line's result are written in one transaction, so an import resumed after a
 * crash never finds its own domain and calls it "already in this portfolio".
 */
async function importOne(deps: PlatformDeps, scope: Scope, name: string, line: { importId: string; line: number }): Promise<void> {
  const { domain } = await validateName(deps, name)
  const existing = await liveDomainNamed(deps.db, domain.ascii).select('account_id').executeTakeFirst()
  // Held by another of our accounts: say only that it cannot be added, never whose it is.
  if (existing) throw badRequest(existing.account_id === scope.accountId ? 'Already in this portfolio' : 'This domain cannot be added to this portfolio')
  const registry = deps.registries?.forTld(domain.tld)
  if (!registry) throw badRequest(`No registry connection serves .${domain.tld}`)
  let info: DomainInfo
  try {
    info = await registry.infoDomain(domain.ascii)
  } catch (error) {
    throw error instanceof RegistryError && error.code === 2303 ? badRequest(`The registry does not know ${domain.ascii} (${error.registryMessage})`) : error
  }
  const ours = deps.registries?.clientIdFor?.(domain.tld)
  if (ours && info.clientId !== ours) throw badRequest(`${domain.ascii} is sponsored by another registrar (${info.clientId}) at the registry`)
  const now = deps.now()
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('domains')
      .values({
        account_id: scope.accountId!,
        name: domain.ascii,
        unicode_name: domain.unicode,
        tld: domain.tld,
        ...registryColumns(info, registry.registry, now),
        registered_at: info.createdAt ?? null,
      })
      .returning(['id', 'name', 'expires_at'])
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'domains', entityType: 'domain', entityId: row.id, action: 'import', after: { name: row.name, expires_at: row.expires_at } })
    await tx.updateTable('domain_import_lines').set({ ok: true, error: null, domain_id: row.id }).where('import_id', '=', line.importId).where('line', '=', line.line).execute()
  })
}

/** The import job: resumable (lines already answered are skipped), progress after every line. */
export async function runImport(deps: PlatformDeps, importId: string) {
  const job = await deps.db.selectFrom('domain_imports').selectAll().where('id', '=', importId).executeTakeFirst()
  if (!job || job.state === 'completed') return
  await deps.db.updateTable('domain_imports').set({ state: 'running' }).where('id', '=', importId).execute()
  const scope = systemScope('domain-import', job.account_id)
  const pending = await deps.db.selectFrom('domain_import_lines').select(['line', 'name']).where('import_id', '=', importId).where('ok', 'is', null).orderBy('line').execute()
  const CONCURRENCY = 4
  for (let i = 0; i < pending.length; i += CONCURRENCY) {
    await Promise.all(
      pending.slice(i, i + CONCURRENCY).map(async (line) => {
        try {
          await importOne(deps, scope, line.name, { importId, line: line.line })
        } catch (error) {
          await deps.db
            .updateTable('domain_import_lines')
            .set({ ok: false, error: itemError(error).message, domain_id: null })
            .where('import_id', '=', importId)
            .where('line', '=', line.line)
            .execute()
        }
      }),
    )
    await sql`UPDATE domain_imports SET done = (SELECT count(*) FROM domain_import_lines WHERE import_id = ${importId} AND ok IS NOT NULL) WHERE id = ${importId}`.execute(deps.db)
  }
  await deps.db.updateTable('domain_imports').set({ state: 'completed', finished_at: deps.now(), done: job.total }).where('id', '=', importId).execute()
}

// ----------------------------------------------------------------------------- auto-renew

/** Renews, by the TLD's shortest period, every auto-renew domain expiring within `withinDays`. */
export async function runAutoRenew(deps: PlatformDeps, withinDays = AUTO_RENEW_WITHIN_DAYS) {
  const until = new Date(deps.now().getTime() + withinDays * DAY)
  const due = await deps.db
    .selectFrom('domains as d')
    .select(['d.id', 'd.account_id', 'd.name', 'd.tld'])
    .where('d.auto_renew', '=', true)
    .where('d.status', 'in', ['active', 'expired'])
    .where('d.expires_at', '<=', until)
    .orderBy('d.expires_at')
    .execute()
  // The TLD catalogue's periods, in one read for all of them (a TLD no longer in it renews nothing).
  const periods = await tldPeriods(
    deps.db,
    due.map((d) => d.tld),
  )
  const results: { id: string; name: string; ok: boolean; error?: string }[] = []
  for (const domain of due) {
    const offered = periods.get(domain.tld)
    if (!offered) continue
    if (!deps.registries?.forTld(domain.name.split('.').at(-1)!)) continue
    try {
      await renewDomain(deps, systemScope('auto-renew', domain.account_id), domain.id, Math.min(...offered))
      results.push({ id: domain.id, name: domain.name, ok: true })
    } catch (error) {
      const message = itemError(error).message
      deps.logger.warn('auto-renew failed', { domain: domain.name, error: message })
      results.push({ id: domain.id, name: domain.name, ok: false, error: message })
    }
  }
  return results
}

// ----------------------------------------------------------------------------- expiry notices

/**
 * Mails the account's domain managers about domains reaching 60, 30, 7 and 1 days before expiry:
 * once per domain, threshold and expiry date (a renewed domain is noticed again next time round).
 * A domain first seen at 5 days gets the 7-day notice only; larger thresholds count as sent.
 */
export async function runExpiryNotices(deps: PlatformDeps) {
  const now = deps.now()
  const horizon = new Date(now.getTime() + NOTICE_THRESHOLDS[0] * DAY)
  const domains = await deps.db
    .selectFrom('domains')
    .select(['id', 'account_id', 'name', 'unicode_name', 'expires_at', 'auto_renew'])
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where('expires_at', '<=', horizon)
    .execute()
  const byAccount = new Map<string, { name: string; days: number; threshold: number; auto_renew: boolean; id: string; expires_at: Date }[]>()
  for (const d of domains) {
    const daysLeft = (d.expires_at!.getTime() - now.getTime()) / DAY
    const threshold = [...NOTICE_THRESHOLDS].reverse().find((t) => daysLeft <= t)!
    const sent = await deps.db
      .selectFrom('domain_expiry_notices')
      .select('threshold_days')
      .where('domain_id', '=', d.id)
      .where('expires_at', '=', d.expires_at!)
      .where('threshold_days', '<=', threshold)
      .executeTakeFirst()
    if (sent) continue
    const list = byAccount.get(d.account_id) ?? []
    list.push({ id: d.id, name: d.unicode_name, days: Math.ceil(daysLeft), threshold, auto_renew: d.auto_renew, expires_at: d.expires_at! })
    byAccount.set(d.account_id, list)
  }
  let mailed = 0
  for (const [accountId, list] of byAccount) {
    list.sort((a, b) => a.days - b.days)
    mailed += await mailAccountUsers(deps, accountId, 'domain-manager', (t) =>
      listMail(
        t,
        'expiry',
        list.map((d) => t('expiry.line', { name: d.name, date: d.expires_at.toISOString().slice(0, 10), count: d.days, renewal: t(d.auto_renew ? 'expiry.autoRenewOn' : 'expiry.autoRenewOff') })),
      ),
    )
    // Recorded after sending: a failed send is retried by the next run rather than lost.
    for (const d of list) {
      const covered = NOTICE_THRESHOLDS.filter((t) => t >= d.threshold)
      // The notice and its webhook event (issue 20) together: one event per threshold crossed.
      await deps.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('domain_expiry_notices')
          .values(covered.map((t) => ({ domain_id: d.id, threshold_days: t, expires_at: d.expires_at })))
          .onConflict((oc) => oc.doNothing())
          .execute()
        await recordEvent(tx, { accountId, type: 'domain.expiring', data: { id: d.id, name: d.name, expires_at: d.expires_at.toISOString(), days_left: d.days, auto_renew: d.auto_renew } })
      })
    }
  }
  return { domains: [...byAccount.values()].reduce((n, l) => n + l.length, 0), mails: mailed }
}

// ----------------------------------------------------------------------------- reconciliation

const dateText = (d: Date | null | undefined) => (d ? d.toISOString() : '(none)')
const listText = (l: string[]) => (l.length ? [...l].sort().join(', ') : '(none)')

/**
 * Compares what the registry says (expiry, statuses, nameservers, DS) with our records and stores
 * every difference; a difference no longer seen is resolved. Our record is not overwritten: a
 * wrong expiry date must be seen, not silently fixed.
 */
export async function reconcileDomains(deps: PlatformDeps, options: { accountId?: string; domainIds?: string[] } = {}) {
  let query = deps.db.selectFrom('domains').selectAll().where('status', 'not in', ['deleted'])
  if (options.accountId) query = query.where('account_id', '=', options.accountId)
  if (options.domainIds?.length) query = query.where('id', 'in', options.domainIds)
  const domains = await query.orderBy('id').execute()
  let differences = 0
  for (const domain of domains) {
    const registry = deps.registries?.forTld(domain.tld)
    if (!registry) continue
    const found: { field: 'exists' | 'expires_at' | 'statuses' | 'nameservers' | 'ds'; ours: string; registry: string }[] = []
    try {
      const info = await registry.infoDomain(domain.name)
      if (dateText(domain.expires_at) !== dateText(info.expiresAt)) found.push({ field: 'expires_at', ours: dateText(domain.expires_at), registry: dateText(info.expiresAt) })
      if (listText(domain.registry_statuses) !== listText(info.statuses)) found.push({ field: 'statuses', ours: listText(domain.registry_statuses), registry: listText(info.statuses) })
      const ns = info.nameservers.map((n) => n.toLowerCase())
      if (listText(domain.nameservers) !== listText(ns)) found.push({ field: 'nameservers', ours: listText(domain.nameservers), registry: listText(ns) })
      const dsText = (l: { key_tag: number; alg: number; digest_type: number; digest: string }[]) => listText(l.map((d) => `${d.key_tag} ${d.alg} ${d.digest_type} ${d.digest.toUpperCase()}`))
      const theirs = dsText(info.dsData.map(dsToRecord))
      if (dsText(domain.ds_data) !== theirs) found.push({ field: 'ds', ours: dsText(domain.ds_data), registry: theirs })
    } catch (error) {
      if (error instanceof RegistryError && error.code === 2303) found.push({ field: 'exists', ours: domain.status, registry: 'does not exist' })
      else {
        deps.logger.warn('reconciliation skipped a domain', { domain: domain.name, error: itemError(error).message })
        continue
      }
    }
    differences += found.length
    await change(deps.db, systemScope('reconciliation', domain.account_id), async (tx, audit) => {
      const open = await tx.selectFrom('domain_differences').select(['id', 'field', 'ours', 'registry']).where('domain_id', '=', domain.id).where('resolved_at', 'is', null).execute()
      for (const o of open) {
        const now = found.find((f) => f.field === o.field)
        if (!now || now.ours !== o.ours || now.registry !== o.registry) await tx.updateTable('domain_differences').set({ resolved_at: deps.now() }).where('id', '=', o.id).execute()
      }
      for (const f of found) {
        const same = open.find((o) => o.field === f.field && o.ours === f.ours && o.registry === f.registry)
        if (same) continue
        await tx
          .insertInto('domain_differences')
          .values({ domain_id: domain.id, account_id: domain.account_id, ...f, detected_at: deps.now() })
          .execute()
        await recordEvent(tx, { accountId: domain.account_id, type: 'registry.difference_found', data: { domain_id: domain.id, name: domain.name, ...f } })
        await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, action: 'reconciliation-difference', after: { ...f } })
      }
      await tx.updateTable('domains').set({ reconciled_at: deps.now() }).where('id', '=', domain.id).execute()
    })
  }
  return { checked: domains.length, differences }
}

/** Registers the domain job handlers and their schedules (UTC); called once when the Platform API is built. */
export function registerDomainJobs(deps: PlatformDeps) {
  deps.jobs.register<{ importId: string }>(DOMAIN_JOBS.import, (data) => runImport(deps, data.importId))
  deps.jobs.register<object>(DOMAIN_JOBS.autoRenew, async () => void (await runAutoRenew(deps)))
  deps.jobs.register<object>(DOMAIN_JOBS.expiryNotices, async () => void (await runExpiryNotices(deps)))
  deps.jobs.register<object>(DOMAIN_JOBS.reconcile, async () => void (await reconcileDomains(deps)))
  deps.jobs.register<object>(DOMAIN_JOBS.poll, async () => void (await pollRegistries(deps)))
  deps.jobs.schedule(DOMAIN_JOBS.autoRenew, '0 2 * * *')
  deps.jobs.schedule(DOMAIN_JOBS.expiryNotices, '0 8 * * *')
  deps.jobs.schedule(DOMAIN_JOBS.reconcile, '0 3 * * *')
  // The registries' message queues (transfers to and from us), every two minutes.
  deps.jobs.schedule(DOMAIN_JOBS.poll, '*/2 * * * *')
}

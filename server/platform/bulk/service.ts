import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { BULK_ACTIONS, type BulkAction, type BulkJob, type BulkJobAction, type BulkJobItem } from '#server/db/schema-tray.ts'
import type { DB, DomainStatus } from '#server/db/schema.ts'
import { reachOf } from '#server/platform/core/scope.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { badRequest, notFound, refused } from '#server/platform/core/errors.ts'
import { quoteDirect, type ExpectedPrice } from '#server/platform/billing/transactions.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { trayDomainIds } from '#server/platform/tray/service.ts'
import { reconcileDomains } from '#server/platform/domains/jobs.ts'
import { checkRenewal } from '#server/platform/domains/lifecycle.ts'
import { errorMessage, updateDomain, type DomainChange, type Resume } from '#server/platform/domains/update.ts'
import { domainById, reachableDomainsByIds } from '#server/platform/domains/reads.ts'

export const BULK_JOB = 'bulk-actions.run'
export const BULK_LIMIT = 10_000

/** An action's parameters; a confirmed charging job also keeps the prices confirmed per account and TLD (`expected`, null: no charge). */
export type BulkParams = {
  period?: number
  contacts?: Partial<Record<'registrant' | 'admin' | 'tech' | 'billing', string>>
  nameservers?: string[]
  expected?: Record<string, { amount_minor: number; currency: string } | null>
}

/** What an action asks of each domain. */
export function changeFor(action: BulkAction, params: BulkParams): DomainChange {
  switch (action) {
    case 'renew':
      return { renew_years: params.period ?? 1 }
    case 'auto_renew_on':
      return { auto_renew: true }
    case 'auto_renew_off':
      return { auto_renew: false }
    case 'lock':
      return { registry_lock: true }
    case 'unlock':
      return { registry_lock: false }
    case 'set_contacts':
      return { contacts: params.contacts ?? {} }
    case 'set_nameservers':
      return { nameservers: params.nameservers ?? [] }
  }
}

function checkParams(action: BulkAction, params: BulkParams): BulkParams {
  if (action === 'renew') {
    const period = params.period ?? 1
    if (!Number.isInteger(period) || period < 1 || period > 10) throw badRequest('The renewal period is 1 to 10 years', [{ field: 'params.period', message: 'Between 1 and 10 years' }])
    return { period }
  }
  if (action === 'set_contacts') {
    const contacts = Object.fromEntries(Object.entries(params.contacts ?? {}).filter(([, v]) => Boolean(v)))
    if (Object.keys(contacts).length === 0) throw badRequest('Choose at least one contact', [{ field: 'params.contacts', message: 'Choose at least one contact' }])
    return { contacts }
  }
  if (action === 'set_nameservers') {
    const nameservers = (params.nameservers ?? []).map((n) => n.trim()).filter(Boolean)
    if (nameservers.length < 1 || nameservers.length > 13) throw badRequest('Give 1 to 13 nameservers', [{ field: 'params.nameservers', message: 'Give 1 to 13 nameservers' }])
    return { nameservers }
  }
  return {}
}

/** The domains a bulk action acts on (the given ids, or the user's tray), in the scope: another account's id is 404. */
async function bulkDomains(db: Kysely<DB>, scope: Scope, given: string[] | undefined) {
  const ids = [...new Set((given ?? (await trayDomainIds(db, scope))).map((i) => i.toLowerCase()))]
  if (ids.length === 0) throw badRequest('No domains chosen: the tray is empty', [{ field: 'ids', message: 'Choose at least one domain' }])
  if (ids.length > BULK_LIMIT) throw badRequest(`At most ${BULK_LIMIT} domains at once`, [{ field: 'ids', message: `At most ${BULK_LIMIT}` }])
  const found = await reachableDomainsByIds(db, scope, ids)
  const byId = new Map(found.map((d) => [d.id, d]))
  const missing = ids.filter((id) => !byId.has(id))
  if (missing.length) throw notFound(`Domain not found: ${missing.slice(0, 5).join(', ')}`)
  return ids.map((id) => byId.get(id)!)
}

/** A price the engine quoted (null: no charge). */
type Price = { amount_minor: number; currency: string }

/**
 * What a bulk action charges over its domains (issue 28): each domain it charges with its price,
 * and the total per currency; nothing for an action that charges nothing. `prices` is the price of
 * each account and TLD, which the job holds each item's charge to once confirmed.
 */
export type BulkQuote = {
  action: BulkAction
  count: number
  charged: number
  period: number | null
  totals: Price[]
  items: ({ id: string; name: string } & Price)[]
}

/** The actions that charge, and the price-list action each charges as. */
const CHARGING: Partial<Record<BulkAction, string>> = { renew: 'renew', lock: 'registry-lock' }

const priceKey = (d: { account_id: string; tld: string }) => `${d.account_id}|${d.tld}`

/**
 * The price of a bulk action now, each domain quoted as its own charge will be (`quoteDirect`, the
 * function the charge prices with: a renewal's for the period, the registry lock's fee as the
 * domain's own lock quotes it), once per account and TLD, summed per currency. Read-only: nothing
 * is reserved. A renewal the rules refuse (its status, the period) and a domain already locked are
 * never charged; an unpriced renewal is refused at its charge, an unpriced lock is free.
 */
async function bulkCharges(
  db: Kysely<DB>,
  action: BulkAction,
  params: BulkParams,
  domains: { id: string; account_id: string; tld: string; name: string; status: DomainStatus; expires_at: Date | null; registry_lock: boolean }[],
) {
  const priced = CHARGING[action]
  if (!priced) return { charged: 0, totals: [], items: [], prices: {} }
  const period = action === 'renew' ? (params.period ?? 1) : 1
  const prices: Record<string, Price | null> = {}
  const items: BulkQuote['items'] = []
  const totals = new Map<string, number>()
  for (const d of domains) {
    if (action === 'lock' && d.registry_lock) continue
    // A domain the renewal rules refuse is refused at its item, never charged.
    if (
      action === 'renew' &&
      !(await checkRenewal({ db }, d, period).then(
        () => true,
        () => false,
      ))
    )
      continue
    const key = priceKey(d)
    if (!(key in prices)) {
      const price = await quoteDirect(db, { accountId: d.account_id, tld: d.tld, action: priced, period, unpricedIsFree: action === 'lock' }).catch(() => null)
      prices[key] = price ? { amount_minor: price.amount_minor, currency: price.currency } : null
    }
    const price = prices[key]
    if (!price) continue
    items.push({ id: d.id, name: d.name, ...price })
    totals.set(price.currency, (totals.get(price.currency) ?? 0) + price.amount_minor)
  }
  return {
    charged: items.length,
    totals: [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount_minor]) => ({ amount_minor, currency })),
    items: items.sort((a, b) => a.name.localeCompare(b.name)),
    prices,
  }
}

export async function quoteBulk(deps: Pick<PlatformDeps, 'db'>, scope: Scope, input: { action: BulkAction; ids?: string[]; params?: BulkParams }): Promise<BulkQuote> {
  const params = checkParams(input.action, input.params ?? {})
  const domains = await bulkDomains(deps.db, scope, input.ids)
  const { charged, totals, items } = await bulkCharges(deps.db, input.action, params, domains)
  return { action: input.action, count: domains.length, charged, period: input.action === 'renew' ? (params.period ?? 1) : null, totals, items }
}

const totalsText = (totals: Price[]) => totals.map((t) => `${t.currency} ${t.amount_minor}`).join(', ') || 'no charge'

/**
 * Starts one bulk action over many domains (the given ids, or the user's tray) as one job; each
 * domain gets its own result. Another account's id is 404 and nothing is queued. `expected_totals`
 * is what the confirmation showed (`quoteBulk`): when the action now totals otherwise, nothing is
 * queued (409 billing.quote_changed). A confirmed job keeps the prices it was confirmed at (per
 * account and TLD, `params.expected`) and holds each item's charge to its own: a price changed
 * after the job started fails that item, charging and changing nothing.
 */
export async function createBulkJob(
  deps: Pick<PlatformDeps, 'db' | 'jobs'>,
  scope: Scope,
  input: { action: BulkAction; ids?: string[]; params?: BulkParams; expected_totals?: Price[] },
): Promise<BulkJob> {
  const params = checkParams(input.action, input.params ?? {})
  const domains = await bulkDomains(deps.db, scope, input.ids)
  let stored: BulkParams = params
  if (input.expected_totals !== undefined) {
    const { totals: now, prices } = await bulkCharges(deps.db, input.action, params, domains)
    const shown = [...input.expected_totals].sort((a, b) => a.currency.localeCompare(b.currency))
    if (totalsText(now) !== totalsText(shown))
      throw refused('billing.quote_changed', `The price changed since it was shown: ${totalsText(shown)} was confirmed, the action now totals ${totalsText(now)}; nothing was started`, undefined, {
        totals: now,
      })
    if (CHARGING[input.action]) stored = { ...params, expected: prices }
  }
  return change(deps.db, scope, async (tx, audit) => {
    const job = await queueBulkJob(deps, tx, scope, { job: BULK_JOB, action: input.action, params: stored, items: domains.map((d) => ({ domain_id: d.id, name: d.name })) })
    await audit.record({ area: 'domains', entityType: 'bulk-job', entityId: job.id, action: 'create', after: { action: input.action, params, total: domains.length } })
    return job
  })
}

/**
 * Writes a bulk job and its items (in order; a domain or a zone each, as the table's CHECK holds)
 * and queues its run, inside the caller's transaction: no job without its run, no run without its
 * job. For domain actions and record replacements alike; each caller audits in its own area.
 */
export async function queueBulkJob(
  deps: Pick<PlatformDeps, 'jobs'>,
  tx: Tx,
  scope: Scope,
  input: { job: string; action: BulkJobAction; params: object; items: { name: string; domain_id?: string; zone_id?: string }[] },
): Promise<BulkJob> {
  const job = await tx
    .insertInto('bulk_jobs')
    .values({
      account_id: scope.accountId!,
      user_id: scope.actor.userId,
      actor_label: scope.actor.label,
      action: input.action,
      params: JSON.stringify(input.params),
      total: input.items.length,
      request_id: scope.requestId,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const items = input.items.map((item, position) => ({ ...item, job_id: job.id, position }))
  for (let i = 0; i < items.length; i += 1000)
    await tx
      .insertInto('bulk_job_items')
      .values(items.slice(i, i + 1000))
      .execute()
  // A run that dies is retried and continues where it stopped (runBulkItems): room for a few.
  await deps.jobs.send(input.job, { jobId: job.id }, { runner: txRunner(tx), retryLimit: 10 })
  return job
}

/** One item's work: what it came to ("applied", "unchanged", "approval_requested") and, for a zone, how many records it changed. */
export type BulkItemResult = { outcome: BulkJobItem['outcome']; records?: number | null }

/**
 * Which attempt at an item this is. `retry`: an earlier attempt started and never finished (its
 * process died), so it may have done part of the work; `remember` stores, before the first
 * attempt does anything, what a retry compares with (the item's `baseline`).
 */
export type BulkAttempt = { retry: boolean; remember(baseline: Record<string, unknown>): Promise<void> }

/** An item started this often without finishing is given up as failed, not started again. */
export const MAX_ITEM_ATTEMPTS = 3

/**
 * The one bulk job loop, for domain actions and record replacements alike: the job's pending
 * items in order, each applied by `apply` on behalf of the user who started the job, then marked
 * done with its result and counted. A failing item is a failed result (its message from
 * `failureText`) and the job goes on. A retried run continues where the last one stopped:
 * finished items are never applied twice, and the item it was in the middle of is applied as a
 * retry (decision 102). Each run takes the job over (`run_id`): an older run still going stops
 * before its next item. A run that resumes an interrupted job calls `afterInterrupted` with all
 * its items (the domain actions reconcile them with the registry) before completing it.
 */
export async function runBulkItems(
  deps: Pick<PlatformDeps, 'db' | 'now'> & Partial<Pick<PlatformDeps, 'logger'>>,
  jobId: string,
  apply: (scope: Scope, item: BulkJobItem, job: BulkJob, attempt: BulkAttempt) => Promise<BulkItemResult>,
  failureText: (error: unknown) => string,
  options: { afterInterrupted?: (items: BulkJobItem[], job: BulkJob) => Promise<void>; concurrency?: number } = {},
): Promise<void> {
  const job = await deps.db.selectFrom('bulk_jobs').selectAll().where('id', '=', jobId).executeTakeFirst()
  if (!job || job.state === 'completed') return
  // Still "running": the run that set it never finished.
  const interrupted = job.state === 'running'
  const runId = randomUUID()
  await deps.db
    .updateTable('bulk_jobs')
    .set({ state: 'running', started_at: job.started_at ?? deps.now(), run_id: runId })
    .where('id', '=', jobId)
    .execute()
  if (interrupted) deps.logger?.info('bulk job resumed', { job: jobId, action: job.action, done: job.done, total: job.total })
  const scope: Scope = {
    actor: { userId: job.user_id, label: job.actor_label, homeAccountId: job.account_id, roles: [], abilities: [] },
    accountId: job.account_id,
    requestId: job.request_id,
  }
  // `concurrency` lanes work side by side, each on the items whose position falls to it (position
  // modulo the lanes): no item is claimed by two lanes, and a resumed run starts every lane again.
  const lanes = Math.max(1, Math.min(16, options.concurrency ?? 1))
  const work = async (lane: number) => {
    for (;;) {
      // The next pending item, counted as an attempt; nothing when another run has taken the job.
      const claimed = await sql<BulkJobItem>`
        UPDATE bulk_job_items SET attempts = attempts + 1
         WHERE job_id = ${jobId}
           AND position = (SELECT position FROM bulk_job_items WHERE job_id = ${jobId} AND state = 'pending' AND position % ${lanes} = ${lane} ORDER BY position LIMIT 1)
           AND EXISTS (SELECT 1 FROM bulk_jobs WHERE id = ${jobId} AND run_id = ${runId})
        RETURNING *`.execute(deps.db)
      const item = claimed.rows[0]
      if (!item) break
      let result: BulkItemResult = { outcome: null }
      let error: string | null = null
      if (item.attempts > MAX_ITEM_ATTEMPTS) {
        error = `Given up: ${item.attempts - 1} attempts were interrupted before they finished`
      } else {
        const attempt: BulkAttempt = {
          retry: item.attempts > 1,
          remember: async (baseline) => {
            await deps.db
              .updateTable('bulk_job_items')
              .set({ baseline: JSON.stringify(baseline) })
              .where('job_id', '=', jobId)
              .where('position', '=', item.position)
              .execute()
          },
        }
        try {
          result = await apply(scope, item, job, attempt)
        } catch (caught) {
          error = failureText(caught)
        }
      }
      // The item marked and counted in one statement, counted once, by whichever run marked it.
      await sql`WITH marked AS (
                  UPDATE bulk_job_items SET state = 'done', ok = ${error === null}, outcome = ${error === null ? result.outcome : null}, records = ${result.records ?? null},
                         error = ${error}, finished_at = ${deps.now()}
                   WHERE job_id = ${jobId} AND position = ${item.position} AND state = 'pending'
                  RETURNING 1)
                UPDATE bulk_jobs SET done = done + 1 WHERE id = ${jobId} AND EXISTS (SELECT 1 FROM marked)`.execute(deps.db)
    }
  }
  await Promise.all(Array.from({ length: lanes }, (_, i) => work(i)))
  const owner = await deps.db.selectFrom('bulk_jobs').select('run_id').where('id', '=', jobId).executeTakeFirst()
  if (owner?.run_id !== runId) return // a newer run took the job over and finishes it
  if (interrupted && options.afterInterrupted) {
    const items = await deps.db.selectFrom('bulk_job_items').selectAll().where('job_id', '=', jobId).orderBy('position').execute()
    try {
      await options.afterInterrupted(items, job)
    } catch (caught) {
      deps.logger?.warn('bulk job: the check after an interruption failed', { job: jobId, error: failureText(caught) })
    }
  }
  await deps.db.updateTable('bulk_jobs').set({ state: 'completed', finished_at: deps.now() }).where('id', '=', jobId).where('run_id', '=', runId).execute()
}

/**
 * A domain action over its domains: each item is one `updateDomain` (registry first, then our
 * row). A retried item reads back what the registry holds first (a renewal from the expiry its
 * first attempt started from), so it is never done twice nor left done at the registry only; a
 * job that was interrupted has its domains reconciled with the registry before it completes.
 */
export async function runBulkJob(deps: PlatformDeps, jobId: string): Promise<void> {
  await runBulkItems(
    deps,
    jobId,
    async (scope, item, job, attempt) => {
      // The job's items were checked against the account when it was queued.
      const params = job.params as BulkParams
      const wanted = changeFor(job.action as BulkAction, params)
      // A confirmed charge is held to the price confirmed for its account and TLD (issue 28).
      let expected: ExpectedPrice | undefined
      if (params.expected) {
        const domain = await domainById(deps.db, item.domain_id!).select(['account_id', 'tld']).executeTakeFirst()
        expected = domain ? (params.expected[priceKey(domain)] ?? null) : null
      }
      let resume: Resume | undefined
      if (job.action === 'renew') {
        const before = item.baseline?.expires_at
        if (attempt.retry) resume = { renewFrom: typeof before === 'string' ? new Date(before) : null }
        else {
          const domain = await domainById(deps.db, item.domain_id!).select('expires_at').executeTakeFirst()
          await attempt.remember({ expires_at: domain?.expires_at?.toISOString() ?? null })
        }
      } else if (attempt.retry) resume = {}
      const options = { action: job.action === 'renew' ? 'renew' : 'update', reachAll: true, ...(resume ? { resume } : {}), ...(expected !== undefined ? { expected } : {}) }
      return { outcome: (await updateDomain(deps, scope, item.domain_id!, wanted, options)).outcome }
    },
    errorMessage,
    {
      afterInterrupted: async (items) => {
        const domainIds = items.map((i) => i.domain_id).filter((id): id is string => id !== null)
        if (domainIds.length) await reconcileDomains(deps, { domainIds })
      },
    },
  )
}

/**
 * A job's progress and per-item results, the one answer of GET bulk-actions/{id} and
 * GET record-bulk-actions/{id}: only jobs of the given actions, within `reach` (an account id, or
 * null for staff reaching every account); another account's job is 404.
 */
/** A bulk job with its items, as the API answers it; `shownParams` picks what of its stored params (of type Stored, as the job's action wrote them) the answer shows. */
export async function bulkJobView<Action extends BulkJobAction, Stored = Record<string, unknown>, Shown = Stored>(
  db: Kysely<DB>,
  jobId: string,
  reach: string | null,
  actions: readonly Action[],
  shownParams: (params: Stored) => Shown = (params) => params as unknown as Shown,
) {
  let query = db
    .selectFrom('bulk_jobs')
    .selectAll()
    .where('id', '=', jobId)
    .where('action', 'in', [...actions])
  if (reach) query = query.where('account_id', '=', reach)
  const job = await query.executeTakeFirst()
  if (!job) throw notFound('Bulk job not found')
  const items = await db.selectFrom('bulk_job_items').selectAll().where('job_id', '=', jobId).orderBy('position').execute()
  return {
    id: job.id,
    // The query took only jobs of these actions.
    action: job.action as Action,
    // The job's action wrote them, and the query took only jobs of these actions.
    params: shownParams(job.params as unknown as Stored),
    state: job.state,
    total: job.total,
    done: job.done,
    created_at: job.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
    results: items.map((i) => ({
      id: (i.domain_id ?? i.zone_id)!,
      name: i.name,
      state: i.state,
      ok: i.ok,
      ...(i.outcome ? { outcome: i.outcome } : {}),
      ...(i.records !== null ? { records: i.records } : {}),
      ...(i.error ? { error: i.error } : {}),
    })),
  }
}

/** A domain bulk job as the API answers it; the prices a confirmed job holds its charges to stay inside. */
export const getBulkJob = (db: Kysely<DB>, scope: Scope, jobId: string) => bulkJobView(db, jobId, reachOf(scope), BULK_ACTIONS, ({ expected: _expected, ...shown }: BulkParams) => shown)

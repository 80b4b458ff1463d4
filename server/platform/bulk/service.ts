import type { Kysely } from 'kysely'
import type { BulkAction, BulkJob } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { reachOf } from '#server/platform/accounts/directory.ts'
import { change, txRunner } from '#server/platform/core/change.ts'
import { badRequest, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { trayDomainIds } from '#server/platform/tray/service.ts'
import { errorMessage, updateDomain, type DomainChange } from '#server/platform/domains/update.ts'

export const BULK_JOB = 'bulk-actions.run'
export const BULK_LIMIT = 10_000

export type BulkParams = { period?: number; contacts?: Partial<Record<'registrant' | 'admin' | 'tech' | 'billing', string>>; nameservers?: string[] }

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

/**
 * Starts one bulk action over many domains (the given ids, or the user's tray) as one job; each
 * domain gets its own result. Another account's id is 404 and nothing is queued.
 */
export async function createBulkJob(deps: Pick<PlatformDeps, 'db' | 'jobs'>, scope: Scope, input: { action: BulkAction; ids?: string[]; params?: BulkParams }): Promise<BulkJob> {
  const params = checkParams(input.action, input.params ?? {})
  const ids = [...new Set((input.ids ?? (await trayDomainIds(deps.db, scope))).map((i) => i.toLowerCase()))]
  if (ids.length === 0) throw badRequest('No domains chosen: the tray is empty', [{ field: 'ids', message: 'Choose at least one domain' }])
  if (ids.length > BULK_LIMIT) throw badRequest(`At most ${BULK_LIMIT} domains at once`, [{ field: 'ids', message: `At most ${BULK_LIMIT}` }])
  const reach = reachOf(scope)
  const found: { id: string; name: string }[] = []
  for (let i = 0; i < ids.length; i += 1000) {
    let query = deps.db.selectFrom('domains').select(['id', 'name']).where('id', 'in', ids.slice(i, i + 1000)).where('status', '<>', 'deleted')
    if (reach) query = query.where('account_id', '=', reach)
    found.push(...(await query.execute()))
  }
  const byId = new Map(found.map((d) => [d.id, d.name]))
  const missing = ids.filter((id) => !byId.has(id))
  if (missing.length) throw notFound(`Domain not found: ${missing.slice(0, 5).join(', ')}`)
  return change(deps.db, scope, async (tx, audit) => {
    const job = await tx
      .insertInto('bulk_jobs')
      .values({ account_id: scope.accountId!, user_id: scope.actor.userId, actor_label: scope.actor.label, action: input.action, params: JSON.stringify(params), total: ids.length, request_id: scope.requestId })
      .returningAll()
      .executeTakeFirstOrThrow()
    const items = ids.map((id, position) => ({ job_id: job.id, position, domain_id: id, name: byId.get(id)! }))
    for (let i = 0; i < items.length; i += 1000) await tx.insertInto('bulk_job_items').values(items.slice(i, i + 1000)).execute()
    await audit.record({ area: 'domains', entityType: 'bulk-job', entityId: job.id, action: 'create', after: { action: input.action, params, total: ids.length } })
    await deps.jobs.send(BULK_JOB, { jobId: job.id }, { runner: txRunner(tx), retryLimit: 3 })
    return job
  })
}

/**
 * Works through a job's pending items in order. A retried run continues where the last one
 * stopped: finished items are never applied twice.
 */
export async function runBulkJob(deps: PlatformDeps, jobId: string): Promise<void> {
  const job = await deps.db.selectFrom('bulk_jobs').selectAll().where('id', '=', jobId).executeTakeFirst()
  if (!job || job.state === 'completed') return
  await deps.db.updateTable('bulk_jobs').set({ state: 'running', started_at: job.started_at ?? deps.now() }).where('id', '=', jobId).execute()
  const scope: Scope = {
    actor: { userId: job.user_id, label: job.actor_label, homeAccountId: job.account_id, roles: [], abilities: [] },
    accountId: job.account_id,
    requestId: job.request_id,
  }
  const wanted = changeFor(job.action, job.params as BulkParams)
  for (;;) {
    const item = await deps.db.selectFrom('bulk_job_items').selectAll().where('job_id', '=', jobId).where('state', '=', 'pending').orderBy('position').limit(1).executeTakeFirst()
    if (!item) break
    let ok = true
    let outcome: string | null = null
    let error: string | null = null
    try {
      // The job's items were checked against the account when it was queued.
      outcome = (await updateDomain(deps, scope, item.domain_id, wanted, { action: job.action === 'renew' ? 'renew' : 'update', reachAll: true })).outcome
    } catch (caught) {
      ok = false
      error = errorMessage(caught)
    }
    await deps.db.transaction().execute(async (tx) => {
      await tx.updateTable('bulk_job_items').set({ state: 'done', ok, outcome, error, finished_at: deps.now() }).where('job_id', '=', jobId).where('position', '=', item.position).execute()
      await tx.updateTable('bulk_jobs').set((eb) => ({ done: eb('done', '+', 1) })).where('id', '=', jobId).execute()
    })
  }
  await deps.db.updateTable('bulk_jobs').set({ state: 'completed', finished_at: deps.now() }).where('id', '=', jobId).execute()
}

export async function getBulkJob(db: Kysely<DB>, scope: Scope, jobId: string) {
  const reach = reachOf(scope)
  let query = db.selectFrom('bulk_jobs').selectAll().where('id', '=', jobId)
  if (reach) query = query.where('account_id', '=', reach)
  const job = await query.executeTakeFirst()
  if (!job) throw notFound('Bulk job not found')
  const items = await db.selectFrom('bulk_job_items').selectAll().where('job_id', '=', jobId).orderBy('position').execute()
  return {
    id: job.id,
    action: job.action,
    params: job.params,
    state: job.state,
    total: job.total,
    done: job.done,
    created_at: job.created_at.toISOString(),
    finished_at: job.finished_at?.toISOString() ?? null,
    results: items.map((i) => ({
      id: i.domain_id,
      name: i.name,
      state: i.state,
      ok: i.ok,
      ...(i.outcome ? { outcome: i.outcome } : {}),
      ...(i.error ? { error: i.error } : {}),
    })),
  }
}

export function registerBulkJobs(deps: PlatformDeps) {
  deps.jobs.register<{ jobId: string }>(BULK_JOB, (data) => runBulkJob(deps, data.jobId))
}

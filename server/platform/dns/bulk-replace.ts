import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { bulkJobView, queueBulkJob, runBulkItems } from '#server/platform/bulk/service.ts'
import { change } from '#server/platform/core/change.ts'
import { AppError, badRequest } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { parseRdata, RdataError, type RecordType } from './rdata.ts'
import { applyChangeSet, type Change } from './changes.ts'
import { tokenizeRdata } from './zone-parser.ts'
import { trayEntityIds } from '#server/platform/tray/reads.ts'

/**
 * "Replace address X with Y in every zone that has it" (decision 203): a job with one item per
 * zone, each applied as ONE change set through applyChangeSet (validated against the whole zone,
 * audited per record, serial bumped, publish queued). The job is a bulk job like the domain
 * actions' (one table, one loop, one answer: server/platform/bulk), with zones as its items.
 */
export const BULK_REPLACE_JOB = 'dns.bulk-replace'
export const BULK_REPLACE_LIMIT = 10_000

export type ReplaceKind = 'A' | 'AAAA' | 'host'
export type ReplaceParams = { from: string; to: string; kind: ReplaceKind; where: 'tray' | 'all'; record_ids?: string[] }

const TYPES: Record<ReplaceKind, RecordType[]> = { A: ['A'], AAAA: ['AAAA'], host: ['CNAME', 'MX'] }

function canonical(type: RecordType, text: string): string | null {
  const { tokens, error } = tokenizeRdata(text)
  if (error || tokens.length !== 1) return null
  try {
    return parseRdata(type, tokens, 'invalid').content
  } catch (e) {
    if (e instanceof RdataError) return null
    throw e
  }
}

/**
 * What is replaced: an IPv4 address (A records), an IPv6 address (AAAA) or a host name (CNAME
 * and MX targets). Both sides in canonical form, so "2001:DB8::1" finds "2001:db8::1".
 */
export function replacementOf(fromText: string, toText: string): { kind: ReplaceKind; from: string; to: string } {
  const from = fromText.trim()
  const to = toText.trim()
  let kind: ReplaceKind | null = null
  let a: string | null = null
  for (const k of ['A', 'AAAA'] as const) {
    a = canonical(k, from)
    if (a) {
      kind = k
      break
    }
  }
  if (!kind && /[a-z]/i.test(from) && !from.includes(':')) {
    // Host names are taken as absolute: a bulk edit across zones has no origin to be relative to.
    a = canonical('CNAME', `${from.replace(/\.$/, '')}.`)
    if (a) kind = 'host'
  }
  if (!kind || !a) throw badRequest('Give an IPv4 or IPv6 address or a host name to replace', [{ field: 'from', message: 'not an IPv4 address, IPv6 address or host name' }])
  const b = kind === 'host' ? canonical('CNAME', `${to.replace(/\.$/, '')}.`) : canonical(kind, to)
  const what = kind === 'A' ? 'an IPv4 address' : kind === 'AAAA' ? 'an IPv6 address' : 'a host name'
  if (!b) throw badRequest(`The replacement must be ${what}, like the address it replaces`, [{ field: 'to', message: `not ${what}` }])
  if (a === b) throw badRequest('The replacement is the same as what it replaces', [{ field: 'to', message: 'the same as the address to replace' }])
  return { kind, from: a, to: b }
}

/** Records of the account (or of one zone) that hold `from`, as SQL conditions on `r`. */
function matching(kind: ReplaceKind, from: string) {
  if (kind !== 'host') return sql<boolean>`r.type = ${kind} AND r.content = ${from}`
  return sql<boolean>`((r.type = 'CNAME' AND r.content = ${from}) OR (r.type = 'MX' AND split_part(r.content, ' ', 2) = ${from}))`
}

function accountOf(scope: Scope): string {
  if (!scope.accountId) throw badRequest('Choose an account (context) for DNS records')
  return scope.accountId
}

/**
 * Starts a replacement as a job. `where: 'tray'` limits it to the records in the user's tray
 * (the ids are fixed now); `'all'` takes every record of the account that holds the address when
 * each zone's turn comes. 400 when no record holds it: nothing is queued.
 */
export async function createReplaceJob(deps: Pick<PlatformDeps, 'db' | 'jobs'>, scope: Scope, input: { from: string; to: string; where?: 'tray' | 'all' }) {
  const accountId = accountOf(scope)
  const where = input.where ?? 'tray'
  const { kind, from, to } = replacementOf(input.from, input.to)
  const userId = scope.actor.userId
  if (where === 'tray' && !userId) throw badRequest('The tray belongs to a signed-in user', [{ field: 'where', message: 'no tray without a user' }])
  let query = deps.db
    .selectFrom('dns_records as r')
    .innerJoin('dns_zones as z', 'z.id', 'r.zone_id')
    .select(['r.id', 'r.zone_id', 'z.name as zone_name'])
    .where('r.account_id', '=', accountId)
    .where(matching(kind, from))
  if (where === 'tray') {
    query = query.where('r.id', 'in', trayEntityIds(deps.db, userId!, accountId, 'record'))
  }
  const rows = await query.orderBy('z.name').orderBy('r.id').execute()
  if (rows.length === 0) {
    const message = where === 'tray' ? `No record in the tray holds ${from}` : `No record of this account holds ${from}`
    throw badRequest(message, [{ field: 'from', message }])
  }
  const zones = [...new Map(rows.map((r) => [r.zone_id, r.zone_name])).entries()]
  if (zones.length > BULK_REPLACE_LIMIT) throw badRequest(`At most ${BULK_REPLACE_LIMIT} zones at once`, [{ field: 'from', message: `At most ${BULK_REPLACE_LIMIT} zones` }])
  const params: ReplaceParams = { from, to, kind, where, ...(where === 'tray' ? { record_ids: rows.map((r) => r.id) } : {}) }
  return change(deps.db, scope, async (tx, audit) => {
    const job = await queueBulkJob(deps, tx, scope, { job: BULK_REPLACE_JOB, action: 'replace_record_content', params, items: zones.map(([zone_id, name]) => ({ zone_id, name })) })
    await audit.record({
      area: 'dns',
      entityType: 'dns_bulk_job',
      entityId: job.id,
      action: 'create',
      after: { action: 'replace_record_content', from, to, where, zones: zones.length, records: rows.length },
    })
    return job
  })
}

/** One zone's share of a replacement: one change set; 0 when the zone no longer holds the address. */
export async function replaceInZone(deps: PlatformDeps, scope: Scope, zoneId: string, params: ReplaceParams): Promise<number> {
  let query = deps.db.selectFrom('dns_records as r').select(['r.id', 'r.name', 'r.type', 'r.content']).where('r.zone_id', '=', zoneId).where(matching(params.kind, params.from))
  if (params.record_ids) query = query.where('r.id', 'in', params.record_ids.length ? params.record_ids : ['00000000-0000-0000-0000-000000000000'])
  const found = await query.orderBy('r.name').orderBy('r.id').execute()
  if (!found.length) return 0
  // Where the new value is already there (the same name and type), the old record goes instead
  // of becoming a duplicate: afterwards the name points at `to` either way.
  const present = await deps.db.selectFrom('dns_records as r').select(['r.name', 'r.type', 'r.content']).where('r.zone_id', '=', zoneId).where('r.type', 'in', TYPES[params.kind]).execute()
  const key = (name: string, type: string, content: string) => `${name}\t${type}\t${content}`
  const taken = new Set(present.map((r) => key(r.name, r.type, r.content)))
  const changes: Change[] = found.map((r) => {
    const content = r.type === 'MX' ? `${r.content.split(' ')[0]} ${params.to}` : params.to
    const k = key(r.name, r.type, content)
    if (taken.has(k)) return { action: 'delete', id: r.id }
    taken.add(k)
    return { action: 'update', id: r.id, content }
  })
  await applyChangeSet(deps, scope, zoneId, { changes })
  return changes.length
}

function failureText(error: unknown): string {
  if (error instanceof AppError) return error.errors?.length ? `${error.message}: ${error.errors.map((d) => d.message).join('; ')}` : error.message
  return error instanceof Error ? error.message : String(error)
}

/** Works through the zones with the one bulk job loop (server/platform/bulk): a zone per item. */
export async function runReplaceJob(deps: PlatformDeps, jobId: string): Promise<void> {
  await runBulkItems(
    deps,
    jobId,
    async (scope, item, job) => {
      const records = await replaceInZone(deps, scope, item.zone_id!, job.params as unknown as ReplaceParams)
      return { outcome: records ? 'applied' : 'unchanged', records }
    },
    failureText,
  )
}

/** Progress and per-zone results, in the shape of GET bulk-actions/{id} (another account's job is 404). */
export async function getReplaceJob(db: Kysely<DB>, scope: Scope, jobId: string) {
  return bulkJobView(db, jobId, accountOf(scope), ['replace_record_content'] as const, ({ record_ids: _ids, ...params }: ReplaceParams) => params)
}

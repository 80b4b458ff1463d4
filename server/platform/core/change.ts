import { CompiledQuery } from 'kysely'
import type { Kysely, Transaction } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Scope } from './scope.ts'

export type Tx = Transaction<DB>

export type AuditRecord = {
  area: string
  entityType: string
  entityId: string
  action: string
  /** The account the entity belongs to; defaults to the scope's account. */
  accountId?: string | null
  before?: Record<string, unknown> | null
  after?: Record<string, unknown> | null
}

export type Audit = {
  record(entry: AuditRecord): Promise<void>
  /** Many entries in one statement (a change set of many records): the same rows as `record` each. */
  recordAll(entries: AuditRecord[]): Promise<void>
}

/**
 * Runs a change in one transaction with an audit writer bound to it: either the change and its
 * audit entries are committed together, or nothing is.
 */
export async function change<T>(db: Kysely<DB>, scope: Scope, work: (tx: Tx, audit: Audit) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => work(tx, auditWriter(tx, scope)))
}

/** An audit writer that appends entries through the given transaction. */
export function auditWriter(tx: Tx, scope: Scope): Audit {
  const row = (entry: AuditRecord) => {
    const { before, after } = diff(entry.before ?? null, entry.after ?? null)
    return {
      request_id: scope.requestId,
      actor_user_id: scope.actor.userId,
      actor_label: scope.actor.label,
      account_id: entry.accountId === undefined ? scope.accountId : entry.accountId,
      area: entry.area,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      action: entry.action,
      changes: JSON.stringify({ ...(before ? { before } : {}), ...(after ? { after } : {}) }),
    }
  }
  return {
    async record(entry) {
      await tx.insertInto('audit_entries').values(row(entry)).execute()
    },
    async recordAll(entries) {
      for (let i = 0; i < entries.length; i += 1000)
        await tx
          .insertInto('audit_entries')
          .values(entries.slice(i, i + 1000).map(row))
          .execute()
    },
  }
}

const NEVER_AUDITED = new Set(['password_hash', 'updated_at', 'version', 'totp_secret'])

/** Keeps only the fields that changed; secrets are never written to the trail. */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const clean = (row: Record<string, unknown> | null) =>
    row
      ? Object.fromEntries(
          Object.entries(row)
            .filter(([k]) => !NEVER_AUDITED.has(k))
            .map(([k, v]) => [k, normalise(v)]),
        )
      : null
  const b = clean(before)
  const a = clean(after)
  if (!b || !a) return { before: b, after: a }
  const keys = new Set([...Object.keys(b), ...Object.keys(a)])
  const changedBefore: Record<string, unknown> = {}
  const changedAfter: Record<string, unknown> = {}
  for (const key of keys) {
    if (JSON.stringify(b[key]) === JSON.stringify(a[key])) continue
    if (key in b) changedBefore[key] = b[key]
    if (key in a) changedAfter[key] = a[key]
  }
  return { before: changedBefore, after: changedAfter }
}

function normalise(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value
}

/** A SqlRunner over a transaction, so other engines (jobs) can write inside it. */
export function txRunner(tx: Tx) {
  return {
    async query(text: string, params: readonly unknown[] = []) {
      const result = await tx.executeQuery(CompiledQuery.raw(text, [...params]))
      return { rows: result.rows as any[], rowCount: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows) }
    },
  }
}

import { sql, type Selectable, type Updateable } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Tx } from './change.ts'
import { badRequest, notFound, staleVersion } from './errors.ts'

/** Tables whose rows carry an optimistic-concurrency `version` and an `updated_at`. */
export type VersionedTable = {
  [K in keyof DB]: DB[K] extends { id: unknown; version: unknown; updated_at: unknown } ? K : never
}[keyof DB]

export type VersionedUpdate<T extends VersionedTable> = {
  before: Selectable<DB[T]>
  after: Selectable<DB[T]>
}

/**
 * Locks one row (FOR UPDATE, until the transaction ends) and checks that it is still at
 * `expectedVersion`: 404 when the row does not exist in `options.accountId` (tables with an
 * account_id column, and accounts themselves), 409 `version.conflict` with the current version when
 * it moved on. `null` is a write the system makes on its own (a job, an approved request): the row
 * is locked but any version is accepted. Returns the row as it is under the lock.
 */
export async function lockVersioned<T extends VersionedTable>(
  tx: Tx,
  table: T,
  id: string,
  expectedVersion: number | null,
  options: { accountId?: string | null; label?: string } = {},
): Promise<Selectable<DB[T]>> {
  const label = options.label ?? 'record'
  const ref = sql.table(table)
  // Tenancy: a row of another account answers 404 like a missing one. An account is its own scope.
  const accountColumn = sql.ref(table === 'accounts' ? 'id' : 'account_id')
  const scoped = options.accountId === undefined ? sql`` : sql` AND ${accountColumn} = ${options.accountId}`
  const found = await sql<Selectable<DB[T]>>`SELECT * FROM ${ref} WHERE id = ${id}${scoped} FOR UPDATE`.execute(tx)
  const before = found.rows[0] as (Selectable<DB[T]> & { version: number }) | undefined
  if (!before) throw notFound(`${capitalise(label)} not found`)
  if (expectedVersion !== null) checkVersion(before.version, expectedVersion, label)
  return before
}

/** The stale-version refusal (409 `version.conflict`) unless the row is at the version the client edited. */
export function checkVersion(current: number, expected: number, label = 'record'): void {
  if (current !== expected) throw staleVersion(current, label)
}

/**
 * Applies `patch` to one row only if its version is still `expectedVersion` (see lockVersioned),
 * bumping the version and `updated_at`. Returns the row before and after, ready for `audit.record`.
 *
 * Run it inside `change(...)`: the row stays locked until the transaction ends, so two edits made
 * from the same version cannot both win.
 */
export async function updateVersioned<T extends VersionedTable>(
  tx: Tx,
  table: T,
  id: string,
  expectedVersion: number | null,
  patch: Updateable<DB[T]>,
  options: { accountId?: string | null; label?: string } = {},
): Promise<VersionedUpdate<T>> {
  const before = await lockVersioned(tx, table, id, expectedVersion, options)
  // The table name comes from the code (a VersionedTable), never from input.
  const after = await (tx as any)
    .updateTable(table)
    .set({ ...patch, version: sql`version + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return { before, after } as VersionedUpdate<T>
}

/** The ETag of a versioned row: a strong validator made of its version. */
export const etagOf = (version: number) => `"${version}"`

/**
 * The version a client edited from: the `If-Match` header (`"3"`, as sent in ETag) or the
 * `version` field of the body. One of them is required; when both are given they must agree.
 */
export function expectedVersion(ifMatch: string | null | undefined, bodyVersion: unknown): number {
  let fromHeader: number | undefined
  if (ifMatch !== undefined && ifMatch !== null && ifMatch !== '') {
    const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(ifMatch.trim())
    if (!match) throw badRequest('If-Match must be the ETag of the record, such as "3"', [{ field: 'If-Match', message: 'Expected a version such as "3"' }])
    fromHeader = Number(match[1])
  }
  let fromBody: number | undefined
  if (bodyVersion !== undefined && bodyVersion !== null) {
    if (typeof bodyVersion !== 'number' || !Number.isInteger(bodyVersion) || bodyVersion < 1) {
      throw badRequest('version must be a positive whole number', [{ field: 'version', message: 'Expected a positive whole number' }])
    }
    fromBody = bodyVersion
  }
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody) {
    throw badRequest('If-Match and version disagree', [{ field: 'version', message: `If-Match says ${fromHeader}, the body ${fromBody}` }])
  }
  const version = fromHeader ?? fromBody
  if (version === undefined) {
    throw badRequest('Send the version you edited (If-Match header or a version field)', [{ field: 'version', message: 'Required for edits' }])
  }
  return version
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

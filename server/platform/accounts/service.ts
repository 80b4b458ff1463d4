import { sql, type Kysely } from 'kysely'
import type { Account, DB } from '#server/db/schema.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { liveDomainsOf } from '#server/platform/domains/reads.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { ACCOUNTS_LIST } from '#common/lists/directory.ts'
import { UI_LANGUAGES } from '#common/vocabulary.ts'
import { usersOfAccount } from '#server/platform/users/reads.ts'
import { contactsOfAccount } from '#server/platform/contacts/reads.ts'

export const LANGUAGES = UI_LANGUAGES
export type Language = (typeof LANGUAGES)[number]
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

export type CreateAccountInput = { name: string; currency?: string; language?: string; is_registrar?: boolean }
export type AccountPatch = { name?: string; status?: 'active' | 'suspended'; currency?: string; language?: string; version: number }

/** Accounts as a list resource; client scopes add the account column, staff see all. */
export const accountsResource = listResource(ACCOUNTS_LIST, {
  from: 'accounts a',
  tiebreak: 'a.id',
  columns: {
    id: 'a.id',
    name: 'a.name',
    status: 'a.status',
    currency: 'a.currency',
    language: 'a.language',
    is_registrar: 'a.is_registrar',
    version: 'a.version',
    created_at: 'a.created_at',
    updated_at: 'a.updated_at',
  },
})

function validate(input: { name?: string; currency?: string; language?: string }): CodedFieldError[] {
  const errors: CodedFieldError[] = []
  if (input.name !== undefined && !input.name.trim()) errors.push(fieldError('name', 'field.required', 'This field is required'))
  if (input.currency !== undefined && !CURRENCIES.has(input.currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
  if (input.language !== undefined && !(LANGUAGES as readonly string[]).includes(input.language)) {
    errors.push(fieldError('language', 'language.invalid', 'Not a supported language', [...LANGUAGES]))
  }
  return errors
}

async function nameTaken(tx: Pick<Kysely<DB>, 'selectFrom'>, name: string, exceptId?: string) {
  let query = tx
    .selectFrom('accounts')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.trim().toLowerCase())
  if (exceptId) query = query.where('id', '<>', exceptId)
  return Boolean(await query.executeTakeFirst())
}

/** Creates an account; its name is unique regardless of case. */
export async function createAccount(db: Kysely<DB>, scope: Scope, input: CreateAccountInput): Promise<Account> {
  const errors = validate(input)
  if (errors.length) throw invalid(errors[0]!.code, 'The account is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    if (await nameTaken(tx, input.name)) {
      throw refused('account.name_taken', 'An account with this name already exists', [fieldError('name', 'account.name_taken', 'An account with this name already exists')])
    }
    const account = await tx
      .insertInto('accounts')
      .values({ ...input, name: input.name.trim() })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'accounts', entityType: 'account', entityId: account.id, accountId: account.id, action: 'create', after: account })
    return account
  })
}

export type AccountDetail = Account & { user_count: number; domain_count: number; contact_count: number }

/** One account with its counts, if the scope reaches it (else 404, whatever the permission). */
export async function getAccount(db: Kysely<DB>, scope: Scope, id: string): Promise<AccountDetail> {
  const reach = reachOf(scope)
  if (reach !== null && reach !== id) throw notFound('Account not found')
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
  if (!account) throw notFound('Account not found')
  requirePermission(scope.actor, 'account-viewer')
  const counts = await db
    .selectNoFrom(() => [
      usersOfAccount(db, id)
        .select(sql<number>`count(*)::int`.as('n'))
        .as('user_count'),
      liveDomainsOf(db, id)
        .select(sql<number>`count(*)::int`.as('n'))
        .as('domain_count'),
      contactsOfAccount(db, id)
        .select(sql<number>`count(*)::int`.as('n'))
        .as('contact_count'),
    ])
    .executeTakeFirstOrThrow()
  return { ...account, user_count: Number(counts.user_count ?? 0), domain_count: Number(counts.domain_count ?? 0), contact_count: Number(counts.contact_count ?? 0) }
}

/**
 * Edits an account. Staff edit any account; a client account-manager edits their own account's
 * name, currency and language, but never its status (a suspended client cannot lift it).
 */
export async function updateAccount(db: Kysely<DB>, scope: Scope, id: string, patch: AccountPatch): Promise<Account> {
  const reach = reachOf(scope)
  if (reach !== null && reach !== id) throw notFound('Account not found')
  const { version, ...fields } = patch
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('accounts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Account not found')
    requirePermission(scope.actor, 'account-manager')
    if (fields.status !== undefined && fields.status !== before.status) requirePermission(scope.actor, 'staff')
    const errors = validate(fields)
    if (errors.length) throw invalid(errors[0]!.code, 'The account is not valid', errors)
    if (before.version !== version) throw staleVersion(before.version)
    if (fields.name !== undefined) {
      fields.name = fields.name.trim()
      if (await nameTaken(tx, fields.name, id)) {
        throw refused('account.name_taken', 'An account with this name already exists', [fieldError('name', 'account.name_taken', 'An account with this name already exists')])
      }
    }
    const after = await tx
      .updateTable('accounts')
      .set({ ...fields, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const action = fields.status && fields.status !== before.status ? (fields.status === 'suspended' ? 'suspend' : 'reactivate') : 'update'
    await audit.record({ area: 'accounts', entityType: 'account', entityId: id, accountId: id, action, before, after })
    return after
  })
}

import type { Kysely } from 'kysely'
import type { Account, DB } from '#server/db/schema.ts'
import { change } from '#server/platform/core/change.ts'
import { conflict } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'

export type CreateAccountInput = { name: string; currency?: string; language?: string; is_registrar?: boolean }

/** Creates an account; its name is unique regardless of case. */
export async function createAccount(db: Kysely<DB>, scope: Scope, input: CreateAccountInput): Promise<Account> {
  return change(db, scope, async (tx, audit) => {
    const existing = await tx.selectFrom('accounts').select('id').where(({ fn }) => fn('lower', ['name']), '=', input.name.toLowerCase()).executeTakeFirst()
    if (existing) throw conflict('An account with this name already exists')
    const account = await tx.insertInto('accounts').values(input).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'accounts', entityType: 'account', entityId: account.id, accountId: account.id, action: 'create', after: account })
    return account
  })
}

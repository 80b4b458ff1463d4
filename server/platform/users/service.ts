import type { Kysely } from 'kysely'
import type { DB, User } from '#server/db/schema.ts'
import { hashPassword } from '#server/platform/auth/passwords.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest, conflict } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'

export type CreateUserInput = {
  account_id: string
  email: string
  name?: string
  password?: string
  roles?: string[]
  abilities?: string[]
  language?: string
}

/** Public shape of a user: never the password hash or second-factor secrets. */
export function publicUser(user: User) {
  return {
    id: user.id,
    group_id: user.account_id,
    email: user.email,
    name: user.name,
    roles: user.roles,
    abilities: user.abilities,
    language: user.language,
    dark_theme: user.dark_theme,
    status: user.status,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
  }
}

/** Creates a user in an account; the email is unique across the platform. */
export async function createUser(db: Kysely<DB>, scope: Scope, input: CreateUserInput): Promise<User> {
  const email = input.email.trim().toLowerCase()
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest('The email address is not valid', [{ field: 'email', message: 'Please enter a valid email' }])
  const password_hash = input.password ? await hashPassword(input.password) : null
  return change(db, scope, async (tx, audit) => {
    const existing = await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
    if (existing) throw conflict('A user with this email already exists', { errors: [{ field: 'email', message: 'A user with this email already exists' }] })
    const user = await tx
      .insertInto('users')
      .values({
        account_id: input.account_id,
        email,
        name: input.name ?? '',
        password_hash,
        roles: input.roles ?? [],
        abilities: input.abilities ?? [],
        language: input.language ?? 'en',
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'create', after: publicUser(user) })
    return user
  })
}

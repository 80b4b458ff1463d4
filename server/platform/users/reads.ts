import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the users area's tables (decision 024): the people of an account
 * and what a mail to them needs. Each read takes the caller's executor (the database or a
 * `change()`'s transaction); the builders let the caller pick columns.
 */
type Db = Pick<Kysely<DB>, 'selectFrom'>

/** The users of an account (people and service users, in any state). */
export function usersOfAccount(db: Db, accountId: string) {
  return db.selectFrom('users').where('users.account_id', '=', accountId)
}

/** The active people of an account holding at least one of these roles (who an account notice is mailed to). */
export function activePeopleWithRoles(db: Db, accountId: string, roles: readonly string[]) {
  return usersOfAccount(db, accountId)
    .where('users.status', '=', 'active')
    .where('users.kind', '=', 'person')
    .where(sql<boolean>`users.roles && ${sql.val([...roles])}::text[]`)
}

/** The language of each of these addresses that is a user's, in one query (another address is absent). */
export async function languagesOfEmails(db: Db, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map()
  const rows = await db.selectFrom('users').select(['email', 'language']).where('email', 'in', emails).execute()
  return new Map(rows.map((u) => [u.email, u.language] as const))
}

/** The users with these ids, in any state (a scheduled report's subscribers: their address, language and permissions). */
export function usersByIds(db: Db, ids: string[]) {
  return db.selectFrom('users').where('users.id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
}

import { Kysely, PostgresDialect, sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#server/db/schema.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { domainsResource } from '#server/platform/domains/portfolio.ts'
import { COUNT_CAP, listQueryFromUrl, runList, type ListPage } from '#server/platform/list/engine.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { generateDomains } from '../../bench/list-data.ts'

// The list engine's key cache (decision 009): the ordered keys of a list are reused between pages
// only while the account's change counter is unchanged, so a page is never stale, and a cached page
// costs one statement.
const onPostgres = Boolean(process.env.DATABASE_URL)
const resource = { ...domainsResource, accountColumn: 'd.account_id' }

let database: Awaited<ReturnType<typeof createTestDatabase>>
let db: Kysely<DB>
let statements: string[] = []
let account: string
let other: string

async function list(search: string, accountId = account): Promise<ListPage> {
  return runList(db, resource, listQueryFromUrl(resource, new URL(`http://test.local/?${search}`)), { accountId })
}
const names = (page: ListPage) => page.data.map((d) => d.name as string)
const TECH_2026 = `pql=${encodeURIComponent("name contains 'TECH' and expires_at between '2026-01-01,2026-12-31'")}&sort=-expires_at&limit=25`

beforeAll(async () => {
  database = await createTestDatabase()
  // A handle of its own with a query log over the same pool; the cache belongs to this handle.
  db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: database.pool as never }),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql)
    },
  })
  account = (await createAccount(database.db, systemScope('test'), { name: 'Cache Holdings' })).id
  other = (await createAccount(database.db, systemScope('test'), { name: 'Other Holdings' })).id
  await generateDomains(database.db, account, COUNT_CAP + 600, { analyze: false })
  await generateDomains(database.db, other, 300, { prefix: 'other-', analyze: false })
}, 120_000)
afterAll(() => database?.drop())
beforeEach(() => {
  statements = []
})

describe('list key cache', () => {
  it('serves the next pages and the count from the keys listed once: one statement per page', async () => {
    const first = await list(TECH_2026)
    expect(statements).toHaveLength(2) // keys with the counter, then the page's rows
    const expected = await database.pool.query(
      `SELECT name FROM domains WHERE account_id = $1 AND status <> 'deleted' AND name LIKE '%tech%' AND expires_at >= '2026-01-01' AND expires_at < '2027-01-01' ORDER BY expires_at DESC NULLS LAST, id`,
      [account],
    )
    const all = expected.rows.map((r: { name: string }) => r.name)
    expect(all.length).toBeGreaterThan(50)
    expect(names(first)).toEqual(all.slice(0, 25))
    expect(first.meta).toEqual({ total: all.length, page: 1, limit: 25 })

    statements = []
    const second = await list(`${TECH_2026}&page=2`)
    expect(statements).toHaveLength(1)
    expect(names(second)).toEqual(all.slice(25, 50))
    expect(second.meta.total).toBe(all.length)
  })

  it('sees every committed change at once: the counter moves and the keys are listed again', async () => {
    const before = await list(TECH_2026)
    const leaving = before.data[3]!
    // The fourth row leaves the filter; a new domain enters it at the top.
    await database.pool.query(`UPDATE domains SET expires_at = '2030-01-01' WHERE id = $1`, [leaving.id])
    await database.pool.query(
      `INSERT INTO domains (account_id, name, unicode_name, tld, status, expires_at) VALUES ($1, 'zzz-newtech.com', 'zzz-newtech.com', 'com', 'active', '2026-12-31T12:00:00Z')`,
      [account],
    )
    statements = []
    const after = await list(TECH_2026)
    expect(statements).toHaveLength(3) // stale rows refused, keys listed again, rows
    expect(names(after)[0]).toBe('zzz-newtech.com')
    expect(names(after)).not.toContain(leaving.name)
    expect(after.meta.total).toBe(before.meta.total)
    // A change of a row's columns only (not its place in the list) shows as well.
    await database.pool.query(`UPDATE domains SET auto_renew = NOT auto_renew WHERE id = $1`, [after.data[1]!.id])
    const again = await list(TECH_2026)
    expect(again.data[1]!.auto_renew).toBe(!after.data[1]!.auto_renew)
    // Deleted rows go too.
    await database.pool.query(`UPDATE domains SET status = 'deleted' WHERE name = 'zzz-newtech.com'`)
    expect(names(await list(TECH_2026))).not.toContain('zzz-newtech.com')
  })

  it('is per account: a change in another account keeps the keys; the keys of one account never serve another', async () => {
    await list(TECH_2026)
    await database.pool.query(`UPDATE domains SET auto_renew = NOT auto_renew WHERE account_id = $1`, [other])
    statements = []
    await list(TECH_2026)
    expect(statements).toHaveLength(1)
    const theirs = await list(TECH_2026, other)
    expect(theirs.data.length).toBeGreaterThan(0)
    expect(names(theirs).every((n) => n.startsWith('other-'))).toBe(true)
  })

  it('caps the count above 10,000 and serves deep pages past the listed keys', async () => {
    const page1 = await list('sort=name&limit=25')
    expect(page1.meta).toEqual({ total: COUNT_CAP, page: 1, limit: 25, total_capped: true })
    const ordered = await database.pool.query(`SELECT name FROM domains WHERE account_id = $1 AND status <> 'deleted' ORDER BY name NULLS FIRST, id`, [account])
    const all = ordered.rows.map((r: { name: string }) => r.name)
    statements = []
    const page400 = await list('sort=name&limit=25&page=400') // rows 9,976–10,000: inside the listed keys
    expect(statements).toHaveLength(1)
    expect(names(page400)).toEqual(all.slice(9975, 10000))
    const page401 = await list('sort=name&limit=25&page=401') // rows 10,001–10,025: a longer scan
    expect(names(page401)).toEqual(all.slice(10000, 10025))
    expect(page401.meta.total_capped).toBe(true)
  })

  it('does not cache a list filtered or sorted on a joined column (its counter does not cover it)', async () => {
    const search = `pql=${encodeURIComponent("registrant_name contains 'x'")}&limit=5`
    await list(search)
    statements = []
    await list(search)
    expect(statements).toHaveLength(1)
    expect(statements[0]).toMatch(/list_count__/) // the plain one-statement list, every time
  })

  it('compares lowercase-only columns with LIKE on the lowercased value, and the database keeps them lowercase', async () => {
    const page = await list(`pql=${encodeURIComponent("name contains 'ANVIL'")}`)
    expect(statements[0]).toMatch(/d\.name LIKE \$/)
    expect(page.data.length).toBeGreaterThan(0)
    expect(names(page).every((n) => n.includes('anvil'))).toBe(true)
    await expect(database.pool.query(`INSERT INTO domains (account_id, name, unicode_name, tld) VALUES ($1, 'Upper.com', 'Upper.com', 'com')`, [account])).rejects.toThrow(/domains_name_lowercase/)
  })

  it.skipIf(!onPostgres)('never serves what an open transaction changed, nor keeps a stale page after it commits (PostgreSQL)', async () => {
    const before = await list(TECH_2026)
    const client = await (database.pool as unknown as { connect(): Promise<{ query(q: string, p?: unknown[]): Promise<unknown>; release(): void }> }).connect()
    try {
      await client.query('BEGIN')
      await client.query(`UPDATE domains SET expires_at = '2031-01-01' WHERE id = $1`, [before.data[0]!.id])
      // Not committed: the list still has the row, and the keys listed now are of the old data.
      expect(names(await list(TECH_2026))[0]).toBe(before.data[0]!.name)
      await client.query('COMMIT')
    } finally {
      client.release()
    }
    expect(names(await list(TECH_2026))).not.toContain(before.data[0]!.name)
  })

  it('counts every statement that changes domains, once per account touched', async () => {
    const version = async (id: string) =>
      Number((await sql<{ version: string }>`SELECT version::text FROM list_versions WHERE account_id = ${id} AND resource = 'domains'`.execute(database.db)).rows[0]?.version ?? 0)
    await database.pool.query(
      `INSERT INTO domains (account_id, name, unicode_name, tld, status, expires_at) VALUES ($1, 'zzz-counted.com', 'zzz-counted.com', 'com', 'active', '2026-12-31T12:00:00Z')`,
      [account],
    )
    const [a, b] = [await version(account), await version(other)]
    await database.pool.query(`UPDATE domains SET auto_renew = auto_renew WHERE account_id IN ($1, $2)`, [account, other])
    expect([await version(account), await version(other)]).toEqual([a + 1, b + 1])
    await database.pool.query(`DELETE FROM domains WHERE name = 'zzz-counted.com'`)
    expect(await version(account)).toBe(a + 2)
    await database.pool.query(`UPDATE domains SET auto_renew = auto_renew WHERE false`)
    expect(await version(account)).toBe(a + 2)
  })
})

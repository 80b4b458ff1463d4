import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { captureListSql, explain } from '../../bench/domains-sql.ts'
import { assignRegistrants, generateContacts, generateDomains } from '../../bench/list-data.ts'

// The plans of the portfolio list (GET /v1/groups/{context}/domains) must not silently regress:
// the exact SQL the list engine runs is captured and EXPLAINed. PostgreSQL only — PGlite has no
// realistic planner statistics for a table this size in memory, and production runs PostgreSQL.
const onPostgres = Boolean(process.env.DATABASE_URL)

describe.skipIf(!onPostgres)('portfolio list query plans (PostgreSQL; skipped on PGlite: its plans are not the production ones)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  let accountId: string

  beforeAll(async () => {
    database = await createTestDatabase()
    const account = await createAccount(database.db, systemScope('test'), { name: 'Plan Holdings' })
    const other = await createAccount(database.db, systemScope('test'), { name: 'Other Holdings' })
    accountId = account.id
    // Enough rows that a sequential scan is not the cheaper plan; the same generator as the bench.
    await generateDomains(database.db, account.id, 60_000, { analyze: false })
    await generateDomains(database.db, other.id, 20_000, { prefix: 'other-', analyze: false })
    await assignRegistrants(database.db, account.id, await generateContacts(database.db, account.id, 20))
    await database.pool.query('VACUUM ANALYZE domains')
    await database.pool.query('VACUUM ANALYZE domain_contacts')
  }, 120_000)

  afterAll(async () => {
    await database?.drop()
  })

  it('a name search (contains) reads the trigram index, never the whole table', async () => {
    // 'rocketshop' matches about 1 name in 290: selective, as a user's search usually is.
    const [query] = await captureListSql(database, `pql=${encodeURIComponent("name contains 'rocketshop'")}&sort=name&limit=25`, accountId)
    const plan = await explain(database, query!)
    expect(plan).toMatch(/Bitmap Index Scan on domains_name_trgm_idx/)
    expect(plan).not.toMatch(/Seq Scan on domains/)
    // And the list answers: the plan is the one that runs (it lists the matching keys in order).
    const run = await database.pool.query(query!.sql, query!.parameters)
    const keys = String(run.rows[0].keys).split(',')
    expect(keys.length).toBeGreaterThan(0)
    const found = await database.pool.query('SELECT name FROM domains WHERE id = ANY($1::uuid[])', [keys])
    expect(found.rows.length).toBe(keys.length)
    expect(found.rows.every((r: { name: string }) => r.name.includes('rocketshop'))).toBe(true)
  })

  it('a wide name filter with an expiry range, latest expiry first, walks the expiry index in order (no sort of every match)', async () => {
    const [query] = await captureListSql(database, `pql=${encodeURIComponent("name contains 'tech' and expires_at between '2026-01-01,2026-12-31'")}&sort=-expires_at&limit=25&page=3`, accountId)
    const plan = await explain(database, query!)
    expect(plan).toMatch(/Index Only Scan using domains_list_expires_idx/)
    expect(plan).not.toMatch(/Seq Scan on domains/)
  })

  it('the default sort (name) of an unfiltered list reads the name index in order', async () => {
    const [query] = await captureListSql(database, 'sort=name&limit=25', accountId)
    const plan = await explain(database, query!)
    expect(plan).toMatch(/Index Only Scan using domains_list_name_idx/)
    expect(plan).not.toMatch(/Seq Scan on domains/)
  })
})

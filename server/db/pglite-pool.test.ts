import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PGlitePool } from './pglite-pool.ts'

// The lease rules of decision 002, on a real in-memory PGlite.
let pool: PGlitePool

beforeAll(async () => {
  pool = new PGlitePool(await PGlite.create())
  await pool.query('CREATE TABLE t (n int)')
})
afterAll(() => pool?.end())

describe('PGlitePool', () => {
  it('gives one caller the session at a time: statements of others wait outside its transaction', async () => {
    const a = await pool.connect()
    await a.query('BEGIN')
    await a.query('INSERT INTO t VALUES ($1)', [1])
    let outsiderDone = false
    // Another caller's statement must not run inside a's transaction (it would be rolled back with it).
    const outsider = pool.query('INSERT INTO t VALUES ($1)', [2]).then(() => (outsiderDone = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(outsiderDone).toBe(false)
    await a.query('ROLLBACK')
    a.release()
    await outsider
    expect((await pool.query('SELECT n FROM t ORDER BY n')).rows).toEqual([{ n: 2 }])
  })

  it('rolls back a transaction left open when its lease is released', async () => {
    const a = await pool.connect()
    await a.query('BEGIN')
    await a.query('INSERT INTO t VALUES ($1)', [3])
    a.release()
    a.release() // a second release is harmless
    expect((await pool.query('SELECT count(*)::int AS n FROM t WHERE n = $1', [3])).rows).toEqual([{ n: 0 }])
  })

  it('runs several statements without parameters (migrations) and reports affected rows', async () => {
    await pool.query('INSERT INTO t VALUES (10); INSERT INTO t VALUES (11), (12)')
    const updated = await pool.query('UPDATE t SET n = n + $1 WHERE n >= 10', [100])
    expect(updated).toMatchObject({ rowCount: 3, command: 'UPDATE' })
  })

  it('waits for the current lease, then refuses new ones once ended', async () => {
    const last = await pool.connect()
    const ending = pool.end()
    await expect(pool.connect()).rejects.toThrow(/ended/)
    await last.query('SELECT 1')
    last.release()
    await ending
    await pool.end()
  })
})

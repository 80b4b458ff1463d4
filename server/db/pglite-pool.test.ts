import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PGlitePool } from './pglite-pool.ts'

// The lease rules of decisions 002 and 013, on a real in-memory PGlite: in this thread, and in
// the worker thread the server runs it in (same rules, plus everything crossing by message).
describe.each([
  ['in process', async () => new PGlitePool(await PGlite.create()), false],
  ['in a worker thread', () => PGlitePool.start(), true],
] as const)('PGlitePool %s', (_where, open, crossesThreads) => {
  let pool: PGlitePool

  beforeAll(async () => {
    pool = await open()
    await pool.query('CREATE TABLE t (n int)')
  })
  afterAll(() => pool?.end())

  it('gives a transaction the session: statements of others wait outside it', async () => {
    const a = await pool.connect()
    await a.query('BEGIN')
    await a.query('INSERT INTO t VALUES ($1)', [1])
    let outsiderDone = false
    // Another caller's statement must not run inside a's transaction (it would be rolled back with it).
    const outsider = pool.query('INSERT INTO t VALUES ($1)', [2]).then(() => (outsiderDone = true))
    const otherLease = await pool.connect()
    const other = otherLease.query('INSERT INTO t VALUES ($1)', [4])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(outsiderDone).toBe(false)
    // a's own statements still run while the others wait.
    expect((await a.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 1 }])
    await a.query('ROLLBACK')
    a.release()
    await outsider
    await other
    otherLease.release()
    expect((await pool.query('SELECT n FROM t ORDER BY n')).rows).toEqual([{ n: 2 }, { n: 4 }])
    await pool.query('DELETE FROM t')
  })

  it('lets statements outside any transaction take their turn while a lease is held', async () => {
    const idle = await pool.connect()
    await idle.query('SELECT 1')
    // idle holds its lease but no transaction: nobody waits for it to be given back.
    expect((await pool.query('SELECT 2 AS n')).rows).toEqual([{ n: 2 }])
    idle.release()
  })

  it('rolls back a transaction left open when its lease is released', async () => {
    const a = await pool.connect()
    await a.query('BEGIN')
    await a.query('INSERT INTO t VALUES ($1)', [3])
    a.release()
    a.release() // a second release is harmless
    expect((await pool.query('SELECT count(*)::int AS n FROM t WHERE n = $1', [3])).rows).toEqual([{ n: 0 }])
  })

  it('never leaves a transaction open after a statement on its own', async () => {
    await pool.query('BEGIN')
    const a = await pool.connect()
    await a.query('INSERT INTO t VALUES ($1)', [5])
    a.release()
    await pool.query('ROLLBACK')
    expect((await pool.query('SELECT count(*)::int AS n FROM t WHERE n = $1', [5])).rows).toEqual([{ n: 1 }])
    await pool.query('DELETE FROM t')
  })

  it('runs several statements without parameters (migrations) and reports affected rows', async () => {
    await pool.query('INSERT INTO t VALUES (10); INSERT INTO t VALUES (11), (12)')
    const updated = await pool.query('UPDATE t SET n = n + $1 WHERE n >= 10', [100])
    expect(updated).toMatchObject({ rowCount: 3, command: 'UPDATE' })
    await pool.query('DELETE FROM t')
  })

  it('hands back the database error with its code, constraint and detail, and the lease stays usable', async () => {
    await pool.query('CREATE TABLE u (k text CONSTRAINT u_k PRIMARY KEY)')
    await pool.query('INSERT INTO u VALUES ($1)', ['a'])
    const a = await pool.connect()
    await a.query('BEGIN')
    const error = await a.query('INSERT INTO u VALUES ($1)', ['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: '23505', constraint: 'u_k', message: expect.stringMatching(/duplicate key/) })
    // Rebuilt on this side with the caller's stack.
    if (crossesThreads) expect((error as Error).stack).toMatch(/pglite-pool\.test\.ts/)
    await expect(a.query('SELECT 1')).rejects.toMatchObject({ code: '25P02' })
    await a.query('ROLLBACK')
    expect((await a.query('SELECT k FROM u')).rows).toEqual([{ k: 'a' }])
    a.release()
  })

  it('keeps the JavaScript types of node-postgres only where the server sets them (dates, json, bytea cross as they are)', async () => {
    const { rows } = await pool.query(`SELECT $1::timestamptz AS at, $2::jsonb AS doc, $3::bytea AS raw, 'x' || $4::text AS s`, [
      new Date('2026-01-02T03:04:05Z'),
      JSON.stringify({ a: [1] }),
      new Uint8Array([1, 2, 3]),
      'y',
    ])
    expect(rows[0].at).toEqual(new Date('2026-01-02T03:04:05Z'))
    expect(rows[0].doc).toEqual({ a: [1] })
    expect(Array.from(rows[0].raw as Uint8Array)).toEqual([1, 2, 3])
    expect(rows[0].s).toBe('xy')
  })

  it('passes notifications on to listeners, and stops when told', async () => {
    const heard: string[] = []
    const stop = await pool.listen('news', (payload) => heard.push(payload))
    await pool.query(`SELECT pg_notify('news', 'one')`)
    const a = await pool.connect()
    await a.query('BEGIN')
    await a.query(`SELECT pg_notify('news', 'two')`)
    await a.query('COMMIT')
    a.release()
    await expect.poll(() => heard).toEqual(['one', 'two'])
    await stop()
    await pool.query(`SELECT pg_notify('news', 'three')`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(heard).toEqual(['one', 'two'])
  })

  it('dumps the data folder, which a new pool starts from', async () => {
    await pool.query('INSERT INTO t VALUES (42)')
    const dump = await pool.dumpDataDir()
    expect(dump.size).toBeGreaterThan(1000)
    const copy = await PGlitePool.start({ load: dump })
    try {
      expect((await copy.query('SELECT n FROM t')).rows).toEqual([{ n: 42 }])
    } finally {
      await copy.end()
    }
    await pool.query('DELETE FROM t')
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

it('refuses a data folder it cannot load, without leaving a thread behind', async () => {
  await expect(PGlitePool.start({ load: new Blob([new Uint8Array(10)]) })).rejects.toThrow()
})

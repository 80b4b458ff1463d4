import { createRoute } from '@hono/zod-openapi'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestPlatform } from '#tests/support/platform.ts'
import { createRouter } from './http.ts'
import { access, ProblemResponses } from './openapi.ts'
import { check, hit, pruneRateLimits, rateLimiter, resetRateLimit } from './rate-limit.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let clock = new Date('2026-05-01T10:00:05Z')

beforeAll(async () => {
  platform = await createTestPlatform({ now: () => clock })
  // A route of this test only, to see the 429 as a client does.
  platform.api.route(
    '/',
    createRouter().openapi(createRoute({ method: 'post', path: '/rate-probe', ...access('public'), responses: { 200: { description: 'OK' }, ...ProblemResponses } }), async (c) => {
      const result = await hit(c.get('deps').db, 'probe:http', 2, 60, c.get('deps').now())
      return c.json({ remaining: result.remaining }, 200)
    }),
  )
})
afterAll(() => platform?.close())

const at = (iso: string) => new Date(iso)

describe('hit', () => {
  it('counts attempts per key in fixed windows and refuses past the limit with the time left', async () => {
    const db = platform.db
    expect(await hit(db, 'a', 3, 60, at('2026-05-01T10:00:00Z'))).toEqual({ count: 1, remaining: 2, resetAt: at('2026-05-01T10:01:00Z') })
    expect((await hit(db, 'a', 3, 60, at('2026-05-01T10:00:10Z'))).remaining).toBe(1)
    expect((await hit(db, 'a', 3, 60, at('2026-05-01T10:00:20Z'))).remaining).toBe(0)
    const refused = await hit(db, 'a', 3, 60, at('2026-05-01T10:00:44.5Z')).catch((e) => e)
    expect(refused).toMatchObject({ status: 429, code: 'too-many-requests', headers: { 'Retry-After': '16' }, extra: { retry_after: 16 } })
    // Other keys have their own counts.
    expect((await hit(db, 'b', 3, 60, at('2026-05-01T10:00:45Z'))).count).toBe(1)
    // The next window starts afresh.
    expect((await hit(db, 'a', 3, 60, at('2026-05-01T10:01:00Z'))).count).toBe(1)
  })

  it('loses no attempt when many arrive at once', async () => {
    const now = at('2026-05-01T11:00:00Z')
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => hit(platform.db, 'burst', 5, 60, now)))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5)
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(7)
    const { rows } = await sql<{ count: number }>`SELECT count FROM rate_limits WHERE key = 'burst'`.execute(platform.db)
    expect(rows).toEqual([{ count: 12 }])
  })

  it('resets a key and prunes old windows', async () => {
    const limiter = rateLimiter(platform.db, () => at('2026-05-01T12:00:00Z'))
    await limiter.hit('reset-me', 1, 60)
    await expect(limiter.hit('reset-me', 1, 60)).rejects.toMatchObject({ status: 429 })
    await resetRateLimit(platform.db, 'reset-me')
    expect((await limiter.hit('reset-me', 1, 60)).count).toBe(1)
    const pruned = await pruneRateLimits(platform.db, at('2026-05-01T11:30:00Z'))
    expect(pruned).toBeGreaterThan(0)
    const { rows } = await sql<{ key: string }>`SELECT key FROM rate_limits`.execute(platform.db)
    expect(rows.map((r) => r.key)).toEqual(['reset-me'])
  })

  it('checks a limit without counting (for limits on failures)', async () => {
    const now = at('2026-05-01T09:00:10Z')
    await check(platform.db, 'failures', 2, 60, now)
    await hit(platform.db, 'failures', 2, 60, now)
    await check(platform.db, 'failures', 2, 60, now)
    await hit(platform.db, 'failures', 2, 60, now)
    await expect(check(platform.db, 'failures', 2, 60, now)).rejects.toMatchObject({ status: 429, headers: { 'Retry-After': '50' } })
    await check(platform.db, 'failures', 2, 60, at('2026-05-01T09:01:00Z'))
    const { rows } = await sql<{ count: number }>`SELECT count FROM rate_limits WHERE key = 'failures'`.execute(platform.db)
    expect(rows).toEqual([{ count: 2 }])
  })

  it('refuses a nonsense limit or window', async () => {
    await expect(hit(platform.db, 'x', 0, 60)).rejects.toThrow(/positive/)
    await expect(hit(platform.db, 'x', 1, 0.5)).rejects.toThrow(/window/)
  })
})

describe('through the API', () => {
  it('answers 429 problem+json with Retry-After', async () => {
    clock = at('2026-05-01T10:00:05Z')
    expect((await platform.call('POST', '/rate-probe')).json).toEqual({ remaining: 1 })
    expect((await platform.call('POST', '/rate-probe')).json).toEqual({ remaining: 0 })
    clock = at('2026-05-01T10:00:30Z')
    const refused = await platform.call('POST', '/rate-probe')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('30')
    expect(refused.headers.get('content-type')).toContain('application/problem+json')
    expect(refused.json).toMatchObject({ status: 429, code: 'too-many-requests', title: 'Too Many Requests', retry_after: 30 })
  })
})

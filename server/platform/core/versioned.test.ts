import { createRoute, z } from '@hono/zod-openapi'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { change } from './change.ts'
import { createRouter } from './http.ts'
import { access, jsonBody, ProblemResponses } from './openapi.ts'
import { systemScope } from './scope.ts'
import { etagOf, expectedVersion, updateVersioned } from './versioned.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>

beforeAll(async () => {
  platform = await createTestPlatform()
  // An edit route of this test only, written the way services are meant to use the helper.
  platform.api.route(
    '/',
    createRouter().openapi(
      createRoute({
        method: 'patch',
        path: '/versioned-probe/{id}',
        ...access('public'),
        request: {
          params: z.object({ id: z.string() }),
          body: jsonBody(z.object({ name: z.string().min(1), version: z.number().int().optional() }).strict()),
        },
        responses: { 200: { description: 'Updated' }, ...ProblemResponses },
      }),
      async (c) => {
        const { name, version } = c.req.valid('json')
        const expected = expectedVersion(c.req.header('if-match'), version)
        const id = c.req.valid('param').id
        const after = await change(c.get('deps').db, systemScope('probe', id), async (tx, audit) => {
          const result = await updateVersioned(tx, 'accounts', id, expected, { name }, { accountId: id, label: 'account' })
          await audit.record({ area: 'accounts', entityType: 'account', entityId: id, action: 'update', before: result.before, after: result.after })
          return result.after
        })
        c.header('ETag', etagOf(after.version))
        return c.json({ id: after.id, name: after.name, version: after.version }, 200)
      },
    ),
  )
})
afterAll(() => platform?.close())

const newAccount = (name: string) => createAccount(platform.db, systemScope('test'), { name })
const auditOf = (id: string) => platform.db.selectFrom('audit_entries').select(['action', 'changes']).where('entity_id', '=', id).orderBy('created_at').execute()

describe('updateVersioned', () => {
  it('applies an edit made from the current version, bumps the version, audits only what changed', async () => {
    const account = await newAccount('Versioned One')
    const res = await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'Versioned Uno', version: 1 } })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ id: account.id, name: 'Versioned Uno', version: 2 })
    expect(res.headers.get('etag')).toBe('"2"')
    const row = await platform.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow()
    expect(row.updated_at.getTime()).toBeGreaterThanOrEqual(account.updated_at.getTime())
    const entries = await auditOf(account.id)
    expect(entries.at(-1)).toEqual({ action: 'update', changes: { before: { name: 'Versioned One' }, after: { name: 'Versioned Uno' } } })
  })

  it('answers 409 problem+json with the current version when the edit started from an old one, and writes nothing', async () => {
    const account = await newAccount('Versioned Two')
    expect((await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'First edit' }, headers: { 'If-Match': '"1"' } })).status).toBe(200)
    const auditBefore = (await auditOf(account.id)).length
    const stale = await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'Stale edit', version: 1 } })
    expect(stale.status).toBe(409)
    expect(stale.headers.get('content-type')).toContain('application/problem+json')
    expect(stale.json).toMatchObject({ status: 409, code: 'version.conflict', current_version: 2 })
    expect(stale.json.detail).toMatch(/Someone else changed this account/)
    const row = await platform.db.selectFrom('accounts').select(['name', 'version']).where('id', '=', account.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ name: 'First edit', version: 2 })
    expect(await auditOf(account.id)).toHaveLength(auditBefore)
  })

  it('lets exactly one of two concurrent edits from the same version win', async () => {
    const account = await newAccount('Versioned Three')
    const results = await Promise.all(
      ['Left', 'Right'].map((name) =>
        change(platform.db, systemScope('test', account.id), (tx) => updateVersioned(tx, 'accounts', account.id, 1, { name })).then(
          (r) => r.after.name,
          (e) => e.status as number,
        ),
      ),
    )
    expect(results.filter((r) => r === 409)).toHaveLength(1)
    const winner = results.find((r) => typeof r === 'string')
    const row = await platform.db.selectFrom('accounts').select(['name', 'version']).where('id', '=', account.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ name: winner, version: 2 })
  })

  it('answers 404 for a row of another account or no row at all', async () => {
    const mine = await newAccount('Versioned Four')
    const other = await newAccount('Versioned Five')
    await expect(
      change(platform.db, systemScope('test', mine.id), (tx) => updateVersioned(tx, 'accounts', other.id, 1, { name: 'x' }, { accountId: mine.id, label: 'account' })),
    ).rejects.toMatchObject({ status: 404, message: 'Account not found' })
    await expect(change(platform.db, systemScope('test'), (tx) => updateVersioned(tx, 'accounts', '00000000-0000-4000-8000-000000000000', 1, { name: 'x' }))).rejects.toMatchObject({ status: 404 })
  })

  it('requires the version through If-Match or the body, and refuses malformed or disagreeing ones with 400', async () => {
    const account = await newAccount('Versioned Six')
    const missing = await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'No version' } })
    expect(missing.status).toBe(400)
    expect(missing.json.errors).toEqual([{ field: 'version', message: 'Required for edits' }])
    const malformed = await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'x' }, headers: { 'If-Match': '*' } })
    expect(malformed.json.errors[0].field).toBe('If-Match')
    const disagree = await platform.call('PATCH', `/versioned-probe/${account.id}`, { body: { name: 'x', version: 1 }, headers: { 'If-Match': '"2"' } })
    expect(disagree.status).toBe(400)
  })
})

describe('expectedVersion', () => {
  it('reads strong and weak ETags and body versions', () => {
    expect(expectedVersion('"7"', undefined)).toBe(7)
    expect(expectedVersion('W/"7"', undefined)).toBe(7)
    expect(expectedVersion(undefined, 3)).toBe(3)
    expect(expectedVersion('"3"', 3)).toBe(3)
    expect(() => expectedVersion(undefined, 0)).toThrow(/positive/)
    expect(() => expectedVersion(undefined, '3')).toThrow(/positive/)
    expect(etagOf(12)).toBe('"12"')
  })
})

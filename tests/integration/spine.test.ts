import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [40, 20] } })
})
afterAll(() => platform?.close())

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

describe('transactions and the audit trail', () => {
  it('writes nothing, audit entries included, when a multi-row change fails half way', async () => {
    const acme = await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
    const count = async () => ({
      domains: (
        await platform.db
          .selectFrom('domains')
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      audit: (
        await platform.db
          .selectFrom('audit_entries')
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    })
    const before = await count()
    // The second name is already managed: the unique index fails the insert after the first row.
    const existing = await platform.db.selectFrom('domains').select('name').where('account_id', '=', acme.id).executeTakeFirstOrThrow()
    await expect(
      addManagedDomains(platform.db, systemScope('test', acme.id), [
        { name: 'brand-new-name.com', expires_at: new Date() },
        { name: existing.name, expires_at: new Date() },
      ]),
    ).rejects.toThrow()
    expect(await count()).toEqual(before)

    await expect(
      change(platform.db, systemScope('test', acme.id), async (tx, audit) => {
        await audit.record({ area: 'domains', entityType: 'domain', entityId: 'x', action: 'probe', after: { a: 1 } })
        await tx.insertInto('domains').values({ account_id: acme.id, name: 'half-way.com', unicode_name: 'half-way.com', tld: 'com', expires_at: new Date() }).execute()
        throw new Error('boom in the middle')
      }),
    ).rejects.toThrow('boom in the middle')
    expect(await count()).toEqual(before)
  })

  it('refuses to update or delete audit entries', async () => {
    await expect(sql`UPDATE audit_entries SET action = 'tampered'`.execute(platform.db)).rejects.toThrow(/append-only/)
    await expect(sql`DELETE FROM audit_entries`.execute(platform.db)).rejects.toThrow(/append-only/)
  })
})

describe('Platform API basics', () => {
  it('answers problem+json for malformed JSON, unknown fields, wrong types and unknown routes', async () => {
    const malformed = await platform.call('POST', '/login', { body: '{"username":' })
    expect(malformed.status).toBe(400)
    expect(malformed.headers.get('content-type')).toContain('application/problem+json')
    expect(malformed.json.detail).toMatch(/not valid JSON/)

    const unknownField = await platform.call('POST', '/login', { body: { username: 'a@b.c', password: 'x', admin: true } })
    expect(unknownField.status).toBe(400)
    expect(unknownField.json.errors[0].field).toBe('admin')

    const wrongType = await platform.call('POST', '/login', { body: { username: 42, password: 'x' } })
    expect(wrongType.status).toBe(400)
    expect(wrongType.json.errors[0].field).toBe('username')

    const unknownRoute = await platform.call('GET', '/no-such-thing')
    expect(unknownRoute.status).toBe(404)
    expect(unknownRoute.json.code).toBe('not-found')
  })

  it('refuses oversized bodies with 413', async () => {
    const big = await platform.call('POST', '/login', { body: { username: 'x'.repeat(70_000), password: 'y' } })
    expect(big.status).toBe(413)
    expect(big.json.code).toBe('body-too-large')
  })

  it('keeps accounts apart: another account id answers 404, staff reach both', async () => {
    const token = await login('admin@acme.example')
    const me = await platform.call('GET', '/me', { token })
    expect(me.headers.get('env')).toBe('test')
    expect(JSON.parse(me.headers.get('roles')!)).toContain('domain-viewer')
    const globex = await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()
    const own = await platform.call('GET', `/groups/${me.json.group_id}/audit-entries`, { token })
    expect(own.status).toBe(200)
    const other = await platform.call('GET', `/groups/${globex.id}/audit-entries`, { token })
    expect(other.status).toBe(404)
    const staff = await login('staff@example.com')
    expect((await platform.call('GET', `/groups/${globex.id}/audit-entries`, { token: staff })).status).toBe(200)
    expect((await platform.call('GET', `/groups/${globex.id}/audit-entries`)).status).toBe(401)
  })

  it('serves an OpenAPI 3.1 document generated from the schemas', async () => {
    const doc = await platform.call('GET', '/openapi.json')
    expect(doc.status).toBe(200)
    expect(doc.json.openapi).toBe('3.1.0')
    expect(Object.keys(doc.json.paths)).toEqual(expect.arrayContaining(['/v1/login', '/v1/groups/{context}/audit-entries']))
  })
})

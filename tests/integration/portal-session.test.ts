import { RouterContextProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appServicesContext, type AppServices } from '#app/lib/app-context.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { createSession, getSession, getUser, replaceSessionTokens, requireUser, toSessionUser, updateSessionMeta, updateSessionUser } from '#app/lib/session.server.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const SECRET = 'integration-test-session-secret-0123456789'

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [5, 5] } })
})
afterAll(() => platform?.close())

/** The portal's services over the real Platform API and the same real database. */
function contextFor(): RouterContextProvider {
  const services: AppServices = {
    client: { ip: '127.0.0.1', userAgent: 'vitest' },
    requestId: 'test',
    platformFetch: async (request) => platform.api.fetch(request),
    env: { appEnv: 'test', supportEmail: 'support@registrar.example', sessionSecret: SECRET, publicUrl: undefined, oidc: null },
    sql: platform.database.pool,
    log: () => {},
  }
  const context = new RouterContextProvider()
  context.set(appServicesContext, services)
  return context
}

async function signIn(email: string) {
  const login = await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })
  expect(login.status).toBe(200)
  const me = await platform.call('GET', '/me', { token: login.json.access_token })
  const request = new Request('http://localhost/login', { method: 'POST' })
  const { cookie, key } = await createSession(request, contextFor(), {
    stage: 'active',
    accessToken: login.json.access_token,
    refreshToken: login.json.refresh_token,
    user: toSessionUser(me.json),
  })
  return { cookie: cookie.split(';')[0]!, key, user: me.json as { id: string } }
}

const requestWith = (cookie: string, path = '/domains?x=1') => new Request(`http://localhost${path}`, { headers: { cookie } })

describe('portal session against the real Platform API', () => {
  it('20 parallel calls with an expired access token cause exactly one refresh', async () => {
    const { cookie, user } = await signIn('admin@acme.example')
    // Expire the access token where the platform keeps it.
    await platform.database.pool.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1 AND kind = 'access'`, [user.id])
    // The platform's token cache hears of the change by notification: wait for it, as the next request after a commit would.
    await platform.settled()
    const refreshesBefore = await countRefreshes(user.id)

    const client = await getPlatform(requestWith(cookie), contextFor())
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.get('/me')))
    expect(answers.every((a) => a.id === user.id)).toBe(true)
    expect((await countRefreshes(user.id)) - refreshesBefore).toBe(1)

    // The session kept the rotated pair: the next request's client needs no refresh.
    const again = await getPlatform(requestWith(cookie), contextFor())
    await again.get('/me')
    expect((await countRefreshes(user.id)) - refreshesBefore).toBe(1)
  })

  it('one request reads the session row once and builds one client, and a refresh updates that session', async () => {
    const { cookie, user } = await signIn('admin@acme.example')
    const context = contextFor()
    const services = context.get(appServicesContext)
    let sessionReads = 0
    const pool = services.sql
    context.set(appServicesContext, {
      ...services,
      sql: { query: (text: string, params?: unknown[]) => ((sessionReads += /FROM portal_sessions/.test(text) ? 1 : 0), pool.query(text, params)) } as AppServices['sql'],
    })
    const request = requestWith(cookie)
    await requireUser(request, context)
    const client = await getPlatform(request, context)
    expect(await getPlatform(request, context)).toBe(client)
    for (let i = 0; i < 5; i++) await client.get('/me')
    expect(sessionReads).toBe(1)

    // A refresh within the request: the request's session (and its later calls) carry the new pair.
    const before = (await getSession(request, context))!.tokens.accessToken
    await platform.database.pool.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1 AND kind = 'access'`, [user.id])
    await platform.settled()
    await client.get('/me')
    const after = (await getSession(request, context))!.tokens.accessToken
    expect(after).not.toBe(before)
    const { rows } = await platform.database.pool.query('SELECT access_token FROM portal_sessions WHERE id = $1', [client.session!.key])
    expect(rows[0].access_token).toBe(after)
    const refreshes = await countRefreshes(user.id)
    await client.get('/me')
    expect(await countRefreshes(user.id)).toBe(refreshes)
  })

  it('a refused refresh ends the session and sends the user to /login keeping the address', async () => {
    const { cookie, key, user } = await signIn('viewer@acme.example')
    await platform.database.pool.query(`UPDATE auth_tokens SET revoked_at = now() WHERE user_id = $1`, [user.id])
    await platform.settled()
    const client = await getPlatform(requestWith(cookie, '/domains?page=2'), contextFor())
    const outcome = await client.get('/me').catch((e: unknown) => e)
    expect(outcome).toBeInstanceOf(Response)
    expect((outcome as Response).headers.get('location')).toBe('/login?redirectTo=%2Fdomains%3Fpage%3D2')
    const { rows } = await platform.database.pool.query('SELECT 1 FROM portal_sessions WHERE id = $1', [key])
    expect(rows).toHaveLength(0)
  })

  it('reading the session notes last_seen_at at most once a minute, in the same one statement', async () => {
    const { cookie, key } = await signIn('admin@acme.example')
    const seen = async () => new Date((await platform.database.pool.query('SELECT last_seen_at FROM portal_sessions WHERE id = $1', [key])).rows[0].last_seen_at).getTime()
    const readOnce = async () => {
      const context = contextFor()
      const services = context.get(appServicesContext)
      let statements = 0
      context.set(appServicesContext, { ...services, sql: { query: (text: string, params?: unknown[]) => ((statements += 1), services.sql.query(text, params)) } as AppServices['sql'] })
      expect(await getUser(requestWith(cookie), context)).not.toBeNull()
      return statements
    }
    await platform.database.pool.query(`UPDATE portal_sessions SET last_seen_at = now() - interval '5 minutes' WHERE id = $1`, [key])
    const stale = await seen()
    expect(await readOnce()).toBe(1)
    const noted = await seen()
    expect(noted - stale).toBeGreaterThan(4 * 60_000)
    // Within the minute: the same single read, and the time stays.
    expect(await readOnce()).toBe(1)
    expect(await seen()).toBe(noted)
  })

  it('an expired session is logged out and the address kept; a tampered cookie is no session', async () => {
    const { cookie, key } = await signIn('staff@example.com')
    expect(await getUser(requestWith(cookie), contextFor())).not.toBeNull()
    const tampered = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))
    expect(await getUser(requestWith(tampered), contextFor())).toBeNull()

    await platform.database.pool.query(`UPDATE portal_sessions SET expires = '2000-01-01 00:00:00' WHERE id = $1`, [key])
    const refused = await requireUser(requestWith(cookie, '/domains?sort=name'), contextFor()).catch((e: unknown) => e)
    expect((refused as Response).status).toBe(302)
    expect((refused as Response).headers.get('location')).toBe('/login?redirectTo=%2Fdomains%3Fsort%3Dname')
    expect((refused as Response).headers.get('set-cookie')).toMatch(/__session=; .*Max-Age=0/)
  })
  it('a user disabled on the platform is signed out by their next portal call (address kept)', async () => {
    const { cookie, key, user } = await signIn('admin@globex.example')
    // The platform's own path: the status change revokes every token (users_revoke_tokens trigger).
    await platform.database.pool.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [user.id])
    await platform.settled()
    const outcome = await (await getPlatform(requestWith(cookie, '/domains'), contextFor())).get('/me').catch((e: unknown) => e)
    expect((outcome as Response).status).toBe(302)
    expect((outcome as Response).headers.get('location')).toBe('/login?redirectTo=%2Fdomains')
    expect((await platform.database.pool.query('SELECT 1 FROM portal_sessions WHERE id = $1', [key])).rows).toHaveLength(0)
    await platform.database.pool.query(`UPDATE users SET status = 'active' WHERE id = $1`, [user.id])
    await platform.settled()
  })

  it('a password change keeps the changing session through replaceSessionTokens and ends the others', async () => {
    const mine = await signIn('admin@globex.example')
    const other = await signIn('admin@globex.example')
    const fresh = 'a long and quiet afternoon 2026'
    const client = await getPlatform(requestWith(mine.cookie), contextFor())
    const tokens = await client.put('/profile/password', { body: { current_password: DEMO_PASSWORD, new_password: fresh } })
    const context = contextFor()
    await replaceSessionTokens(requestWith(mine.cookie), context, tokens)
    expect((await getSession(requestWith(mine.cookie), context))?.tokens.accessToken).toBe(tokens.access_token)
    expect(await (await getPlatform(requestWith(mine.cookie), contextFor())).get('/me')).toMatchObject({ id: mine.user.id })

    const refused = await (await getPlatform(requestWith(other.cookie), contextFor())).get('/me').catch((e: unknown) => e)
    expect((refused as Response).headers.get('location')).toMatch(/^\/login/)
    expect((await platform.database.pool.query('SELECT 1 FROM portal_sessions WHERE id = $1', [other.key])).rows).toHaveLength(0)
  })

  it('updateSessionUser changes only user fields, never the portal-side meta', async () => {
    const { cookie, key } = await signIn('staff@example.com')
    await updateSessionMeta(contextFor(), key, { context: 'kept' })
    await updateSessionUser(requestWith(cookie), contextFor(), { language: 'ja', dark_theme: true, meta: { context: 'lost' } } as never)
    const after = await getSession(requestWith(cookie), contextFor())
    expect(after?.user).toMatchObject({ language: 'ja', dark_theme: true })
    expect(after?.meta.context).toBe('kept')
  })
})

/** Refreshes recorded by the platform: its authentication log. */
async function countRefreshes(userId: string): Promise<number> {
  const { rows } = await platform.database.pool.query(`SELECT count(*)::int AS n FROM auth_events WHERE user_id = $1 AND kind = 'refresh' AND outcome = 'success'`, [userId])
  return rows[0].n as number
}

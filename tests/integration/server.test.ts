import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { createRoute } from '@hono/zod-openapi'
import pg from 'pg'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, type Config } from '#server/config.ts'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createServerApp, platformFetcher } from '#server/http/app.ts'
import { answerClientErrors } from '#server/http/client-error.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { issueTokenPair } from '#server/platform/auth/tokens.ts'
import { createRouter } from '#server/platform/core/http.ts'
import { access } from '#server/platform/core/openapi.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The one-process server app over a real database and the real Platform API (no portal build:
// the API, probes and request plumbing are what is under test here).

const DATABASE_URL = process.env.DATABASE_URL
const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-server-'))
const config: Config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test', APP_ENV: 'test', LOG_LEVEL: 'info' })
const lines: Record<string, any>[] = []
const logger = createLogger('info', { service: 'test' }, (line) => lines.push(JSON.parse(line)))

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let app: ReturnType<typeof createServerApp>
const cleanups: (() => Promise<void>)[] = []

beforeAll(async () => {
  platform = await createTestPlatform({ logger })
  // A failing route of this test only, to see what a 500 lets out.
  platform.api.route(
    '/',
    createRouter().openapi(createRoute({ method: 'get', path: '/explode', ...access('public'), responses: { 200: { description: 'never' } } }), () => {
      throw new Error('connect ECONNREFUSED 10.1.2.3:5432 password=hunter2 at /srv/secret/config.ts')
    }),
  )
  app = createServerApp({ config, database: platform.database, logger, platformApi: platform.api })
})
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await platform?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const get = (target: ReturnType<typeof createServerApp>, url: string, headers: Record<string, string> = {}) => target.fetch(new Request(`http://portal.test${url}`, { headers }))

/** A new database without any migration applied, closed (and dropped) after the file. */
async function unmigratedDatabase(): Promise<Database> {
  if (!DATABASE_URL) {
    const database = await openDatabase({ kind: 'pglite' })
    cleanups.push(() => database.close())
    return database
  }
  const name = `rp_server_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 2 })
  cleanups.push(async () => {
    await database.close().catch(() => {})
    const dropper = new pg.Client({ connectionString: DATABASE_URL })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await dropper.end()
  })
  return database
}

describe('probes', () => {
  it('/healthz answers while the process is up', async () => {
    const res = await get(app, '/healthz')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('/readyz is 503 until the migrations are applied, then 200; 503 again when the database is gone', async () => {
    const database = await unmigratedDatabase()
    const fresh = createServerApp({ config, database, logger, platformApi: platform.api })
    const before = await get(fresh, '/readyz')
    expect(before.status).toBe(503)
    expect(await before.json()).toEqual({ status: 'migrating' })
    await migrate(database)
    const after = await get(fresh, '/readyz')
    expect(after.status).toBe(200)
    expect(await after.json()).toEqual({ status: 'ready' })
    await database.close()
    const gone = await get(fresh, '/readyz')
    expect(gone.status).toBe(503)
    expect(await gone.json()).toEqual({ status: 'database unreachable' })
    // Every migration from nothing, on PGlite beside the other files of the pass: more than the default time-out on a busy machine.
  }, 120_000)
})

describe('request ids and logs', () => {
  it('sends back a new request id, logs it, and hands it to the Platform API', async () => {
    const res = await get(app, '/v1/no-such-route')
    const id = res.headers.get('x-request-id')
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await res.json()).request_id).toBe(id)
    const line = lines.find((l) => l.msg === 'request' && l.request_id === id)
    expect(line).toMatchObject({ level: 'info', service: 'test', method: 'GET', path: '/v1/no-such-route', status: 404 })
    expect(typeof line!.ms).toBe('number')
    expect(() => new Date(line!.time).toISOString()).not.toThrow()
  })

  it('keeps a safe incoming request id and replaces an unsafe one', async () => {
    const kept = await get(app, '/healthz', { 'X-Request-Id': 'edge-proxy:abc.123_XYZ' })
    expect(kept.headers.get('x-request-id')).toBe('edge-proxy:abc.123_XYZ')
    expect(lines.some((l) => l.msg === 'request' && l.request_id === 'edge-proxy:abc.123_XYZ')).toBe(true)
    for (const unsafe of ['short', 'has spaces in it', 'x'.repeat(129), 'inject"\n{"level":"error"}']) {
      const res = await get(app, '/healthz', { 'X-Request-Id': unsafe.replace(/\n/g, ' ') })
      const id = res.headers.get('x-request-id')!
      expect(id).not.toBe(unsafe)
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
    }
  })
})

describe('errors', () => {
  it('answers unknown /v1 routes with problem+json 404', async () => {
    const res = await get(app, '/v1/nope/nothing?x=1')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/problem+json')
    expect(await res.json()).toMatchObject({ status: 404, code: 'not-found', title: 'Not Found', detail: 'No route GET /v1/nope/nothing' })
  })

  it('answers a failure with 500 problem+json without internals, and logs the details for operators', async () => {
    const res = await get(app, '/v1/explode', { 'X-Request-Id': 'explode-request-1' })
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toContain('application/problem+json')
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({
      type: 'https://registrar.example/problems/internal',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred',
      code: 'internal',
      request_id: 'explode-request-1',
    })
    for (const secret of ['hunter2', 'ECONNREFUSED', '10.1.2.3', '/srv/secret', 'stack']) expect(text).not.toContain(secret)
    const logged = lines.find((l) => l.msg === 'platform error' && l.request_id === 'explode-request-1')
    expect(logged?.error.message).toContain('ECONNREFUSED')
  })

  it('serves the client build but not the Vite manifest kept beside it', async () => {
    const clientDir = mkdtempSync(path.join(tmpdir(), 'rp-client-'))
    cleanups.push(async () => rmSync(clientDir, { recursive: true, force: true }))
    mkdirSync(path.join(clientDir, '.vite'))
    mkdirSync(path.join(clientDir, 'assets'))
    writeFileSync(path.join(clientDir, '.vite/manifest.json'), '{"app/root.tsx":{"file":"assets/root.js"}}')
    writeFileSync(path.join(clientDir, 'assets/root.js'), 'export {}')
    writeFileSync(path.join(clientDir, 'favicon.ico'), 'icon')
    // Only static files are asked for: a request reaching the portal would fail on this empty build.
    const withBuild = createServerApp({ config, database: platform.database, logger, platformApi: platform.api, build: {} as ServerBuild, clientDir })
    expect((await get(withBuild, '/assets/root.js')).status).toBe(200)
    expect((await get(withBuild, '/favicon.ico')).status).toBe(200)
    // The build's precompressed copy goes to a browser that takes it (issue 28: the framework bundle went uncompressed).
    writeFileSync(path.join(clientDir, 'assets/big.js'), 'export const a = 1')
    writeFileSync(path.join(clientDir, 'assets/big.js.br'), 'brotli bytes')
    const compressed = await get(withBuild, '/assets/big.js', { 'Accept-Encoding': 'gzip, deflate, br' })
    expect(compressed.headers.get('content-encoding')).toBe('br')
    expect((await get(withBuild, '/assets/big.js')).headers.get('content-encoding')).toBeNull()
    for (const hidden of ['/.vite/manifest.json', '/.vite/', '/%2Evite/manifest.json', '/assets/../.vite/manifest.json']) {
      const res = await get(withBuild, hidden)
      expect(res.status, hidden).toBe(404)
      expect(await res.text(), hidden).not.toContain('root.js')
    }
  })

  it('without a portal build, other paths are plain 404s, not the portal', async () => {
    expect((await get(app, '/domains')).status).toBe(404)
    const redirect = await get(app, '/v1')
    expect(redirect.status).toBe(302)
    expect(redirect.headers.get('location')).toBe('/v1/openapi.json')
  })
})

describe('who the client is (TRUST_PROXY, decision 012)', () => {
  /** The server app on a real socket, as `npm start` serves it. */
  async function listening(trustProxy?: string) {
    const served = createServerApp({ config: { ...config, TRUST_PROXY: trustProxy }, database: platform.database, logger, platformApi: platform.api })
    const server = serve({ fetch: served.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return (username: string, password: string, forwardedFor: string) =>
      fetch(`${base}/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor, 'user-agent': 'attack-tool/1.0' },
        body: JSON.stringify({ username, password }),
      })
  }

  it('counts a client by its socket whatever X-Forwarded-For it sends, and logs the real address', async () => {
    const account = await createAccount(platform.db, systemScope('test'), { name: 'Proxy Co' })
    await createUser(platform.db, systemScope('test'), { account_id: account.id, email: 'victim@proxy.example', password: 'the right passphrase' })
    const login = await listening()
    for (let i = 0; i < 20; i++) expect((await login(`guess${i}@proxy.example`, 'wrong', `198.51.100.${i + 1}`)).status).toBe(401)
    // Rotating the header bought nothing: the 21st attempt from this socket is refused, right password or not.
    const blocked = await login('victim@proxy.example', 'the right passphrase', '198.51.100.99')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    const logged = await platform.db.selectFrom('auth_events').select(['ip', 'user_agent']).where('email', 'like', 'guess%@proxy.example').execute()
    expect(logged).toHaveLength(20)
    expect(new Set(logged.map((e) => e.ip))).toEqual(new Set(['127.0.0.1']))
    expect(logged[0]!.user_agent).toBe('attack-tool/1.0')
  })

  it('believes X-Forwarded-For from a trusted proxy only: one client failing does not lock out the others behind it', async () => {
    const account = await createAccount(platform.db, systemScope('test'), { name: 'Behind Proxy Co' })
    await createUser(platform.db, systemScope('test'), { account_id: account.id, email: 'colleague@proxy.example', password: 'the right passphrase' })
    const login = await listening('loopback')
    for (let i = 0; i < 20; i++) expect((await login(`other${i}@proxy.example`, 'wrong', `6.6.6.6, 203.0.113.66`)).status).toBe(401)
    expect((await login('colleague@proxy.example', 'the right passphrase', '203.0.113.66')).status).toBe(429)
    // Another client behind the same proxy signs in; the log names each client's own address.
    expect((await login('colleague@proxy.example', 'the right passphrase', '203.0.113.67')).status).toBe(200)
    const ips = (await platform.db.selectFrom('auth_events').select('ip').where('email', 'in', ['other0@proxy.example', 'colleague@proxy.example']).execute()).map((e) => e.ip)
    expect(new Set(ips)).toEqual(new Set(['203.0.113.66', '203.0.113.67']))
  })
})

describe('requests Node refuses before any handler', () => {
  it('answers a ~100 KB query string and malformed HTTP with problem+json, not a bare status line', async () => {
    const server = serve({ fetch: platform.api.fetch, port: 0, hostname: '127.0.0.1' })
    answerClientErrors(server)
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const port = (server.address() as AddressInfo).port
    const huge = await fetch(`http://127.0.0.1:${port}/v1/openapi.json?pql=${'a'.repeat(100_000)}`)
    expect(huge.status).toBe(431)
    expect(huge.headers.get('content-type')).toBe('application/problem+json')
    expect(await huge.json()).toMatchObject({ status: 431, code: 'headers-too-large', detail: expect.stringContaining('16 KB') })

    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'))
      let answer = ''
      socket.on('data', (chunk) => (answer += chunk))
      socket.on('end', () => resolve(answer))
      socket.on('error', reject)
    })
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(raw).toContain('application/problem+json')
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'bad-http' })
  })
})

describe('platformFetch', () => {
  it('calls the in-process API by default and PLATFORM_URL when set, with the same answers', async () => {
    // The Platform API served on its own port, as a separate deployment would.
    const server = serve({ fetch: platform.api.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise<void>((resolve) => server.once('listening', () => resolve()))
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const port = (server.address() as AddressInfo).port

    const refuse = {
      fetch: (): Response => {
        throw new Error('the in-process API must not be called when PLATFORM_URL is set')
      },
    }
    const remote = platformFetcher({ PLATFORM_URL: `http://127.0.0.1:${port}/` }, refuse, 'remote-request-1')
    const local = platformFetcher({ PLATFORM_URL: undefined }, platform.api, 'local-request-1')

    for (const [fetcher, id] of [
      [remote, 'remote-request-1'],
      [local, 'local-request-1'],
    ] as const) {
      const doc = await fetcher(new Request('http://portal.test/v1/openapi.json'))
      expect(doc.status).toBe(200)
      expect((await doc.json()).openapi).toBe('3.1.0')
      const missing = await fetcher(new Request('http://portal.test/v1/nothing-here?a=1'))
      expect(missing.status).toBe(404)
      expect(await missing.json()).toMatchObject({ detail: 'No route GET /v1/nothing-here', request_id: id })
      const login = await fetcher(
        new Request('http://portal.test/v1/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'nobody@x.example', password: 'wrong-password' }),
        }),
      )
      expect(login.status).toBe(401)
      expect((await login.json()).request_id).toBe(id)
    }
  })

  it('shares one token verification among the calls of a request that changes nothing, and only there', async () => {
    const scope = systemScope('test')
    const account = await createAccount(platform.db, scope, { name: 'Shared Verification Co' })
    const user = await createUser(platform.db, scope, { account_id: account.id, email: 'shared.verification@server.example' })
    const me = (fetcher: ReturnType<typeof platformFetcher>, token: string) => fetcher(new Request('http://portal.test/v1/me', { headers: { authorization: `Bearer ${token}` } })).then((r) => r.status)
    const revoke = async (token: string) => {
      await platform.db.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('token_hash', '=', createHash('sha256').update(token).digest('base64url')).execute()
      await platform.settled()
    }

    // A GET render: the first call verifies; a token revoked after it still serves that render's
    // other calls (one request, one verification), and never the next request.
    const render = platformFetcher({ PLATFORM_URL: undefined }, platform.api, 'render-1', { changesNothing: true })
    const first = (await issueTokenPair(platform.db, user.id)).access_token
    expect(await me(render, first)).toBe(200)
    await revoke(first)
    expect(await me(render, first)).toBe(200)
    const nextRender = platformFetcher({ PLATFORM_URL: undefined }, platform.api, 'render-2', { changesNothing: true })
    expect(await me(nextRender, first)).toBe(401)

    // An action (may change data, e.g. a password change that revokes every token): every call verifies.
    const action = platformFetcher({ PLATFORM_URL: undefined }, platform.api, 'action-1', { changesNothing: false })
    const second = (await issueTokenPair(platform.db, user.id)).access_token
    expect(await me(action, second)).toBe(200)
    await revoke(second)
    expect(await me(action, second)).toBe(401)

    // Over HTTP nobody can hand the API a verification: the same GET twice, revoked in between.
    const third = (await issueTokenPair(platform.db, user.id)).access_token
    const viaServer = async (token: string) => (await get(app, '/v1/me', { authorization: `Bearer ${token}` })).status
    expect(await viaServer(third)).toBe(200)
    await revoke(third)
    expect(await viaServer(third)).toBe(401)
  })
})

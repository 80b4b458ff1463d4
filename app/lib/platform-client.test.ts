import { describe, expect, it } from 'vitest'
import {
  Limiter,
  SessionChannel,
  SessionEndedError,
  fetchAllPages,
  formatExpiry,
  handlePlatformCallAnswer,
  isNoRetryPath,
  isNotFoundPassthroughPath,
  type Permissions,
  type SessionStore,
  type Tokens,
} from './platform-client.ts'

// The fake `fetch` below stands in for the network only in these unit tests; the integration test
// (tests/integration/portal-session.test.ts) runs the same client against the real Platform API.

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

function memoryStore(initial: Tokens, permissions: Permissions = { roles: ['domain-admin'], abilities: [] }) {
  const state = { tokens: initial as Tokens | null, permissions, endedWith: null as string | null, replaced: 0 }
  const store: SessionStore = {
    tokens: async () => state.tokens,
    refresh: async (stale, refresh) => {
      if (!state.tokens) throw new SessionEndedError('gone')
      if (state.tokens.accessToken !== stale) return state.tokens
      const next = await refresh(state.tokens)
      state.tokens = { ...state.tokens, ...next }
      return state.tokens
    },
    end: async (reason) => {
      state.endedWith = reason
      state.tokens = null
    },
    permissions: async () => state.permissions,
    replacePermissions: async (next) => {
      state.permissions = next
      state.replaced++
    },
  }
  return { store, state }
}

const future = formatExpiry(new Date(Date.now() + 3_600_000))
const baseTokens: Tokens = { accessToken: 'old', refreshToken: 'r1', expires: future, ssoToken: null, userId: 'u1' }

/** A fake Platform API: accepts the bearer in `valid`, refreshes on /refresh. */
function fakeApi(options: { refreshOk?: boolean; gate?: Promise<void> } = {}) {
  const log = { calls: [] as string[], refreshes: 0, inFlight: 0, maxInFlight: 0 }
  let valid = 'new'
  const fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname
    const bearer = request.headers.get('authorization')?.slice(7) ?? null
    log.calls.push(`${path} ${bearer}`)
    if (path === '/v1/refresh') {
      log.refreshes++
      if (options.refreshOk === false) return Response.json({ detail: 'no' }, { status: 401 })
      valid = `new${log.refreshes}`
      return Response.json({ data: { access_token: valid, refresh_token: `r${log.refreshes + 1}` } })
    }
    log.inFlight++
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight)
    try {
      if (options.gate) await options.gate
      if (bearer !== valid) return Response.json({ detail: 'expired' }, { status: 401 })
      return Response.json({ ok: path }, { headers: { roles: '["domain-admin"]', abilities: '[]' } })
    } finally {
      log.inFlight--
    }
  }
  return { fetch, log }
}

describe('SessionChannel', () => {
  it('runs exactly one refresh for 20 parallel calls that meet a 401, then replays them all', async () => {
    const api = fakeApi()
    const { store, state } = memoryStore(baseTokens)
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => channel.send(`/things/${i}`)))
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(api.log.refreshes).toBe(1)
    expect(state.tokens?.accessToken).toBe('new1')
    expect(state.tokens?.refreshToken).toBe('r2')
  })

  it('keeps at most 16 calls in flight and lets priority calls out of the queue first', async () => {
    const gate = deferred()
    const api = fakeApi({ gate: gate.promise })
    const { store } = memoryStore({ ...baseTokens, accessToken: 'new' })
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    const ordinary = Array.from({ length: 18 }, (_, i) => channel.send(`/o/${i}`))
    await expect.poll(() => channel.limiter.inFlight).toBe(16)
    const urgent = channel.send('/urgent', { priority: true })
    await expect.poll(() => channel.limiter.queued).toBe(3)
    gate.resolve()
    await Promise.all([...ordinary, urgent])
    expect(api.log.maxInFlight).toBe(16)
    const order = api.log.calls.map((c) => c.split(' ')[0])
    expect(order.indexOf('/v1/urgent')).toBe(16)
  })

  it('ends the session when the refresh fails and fails every waiting call', async () => {
    const api = fakeApi({ refreshOk: false })
    const { store, state } = memoryStore(baseTokens)
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => channel.send(`/x/${i}`)))
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof SessionEndedError)).toBe(true)
    expect(api.log.refreshes).toBe(1)
    expect(state.endedWith).toMatch(/refresh refused/)
    await expect(channel.send('/later')).rejects.toBeInstanceOf(SessionEndedError)
  })

  it('holds calls back after the expiry except userinfo and logout', async () => {
    const api = fakeApi()
    const { store } = memoryStore({ ...baseTokens, accessToken: 'new', expires: formatExpiry(new Date(Date.now() - 1000)) })
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    await expect(channel.send('/me')).rejects.toBeInstanceOf(SessionEndedError)
    expect(api.log.calls).toEqual([])
    await channel.send('/logout', { method: 'POST' })
    await channel.send('http://idp.test/oauth2/userinfo')
    expect(api.log.calls).toEqual(['/v1/logout new', '/oauth2/userinfo null'])
  })

  it('does not retry a 401 of login, refresh, logout, login_sso or password_resets', async () => {
    const api = fakeApi()
    const { store } = memoryStore(baseTokens)
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    const response = await channel.send('/login', { method: 'POST', body: {} })
    expect(response.status).toBe(401)
    expect(api.log.refreshes).toBe(0)
    expect(['/refresh', '/login', '/logout', '/login_sso', '/password_resets/abc'].every(isNoRetryPath)).toBe(true)
    expect(isNoRetryPath('/groups/x/domains')).toBe(false)
  })

  it('replaces the stored roles and abilities when the headers differ, except on login answers', async () => {
    const api = fakeApi()
    const { store, state } = memoryStore({ ...baseTokens, accessToken: 'new' }, { roles: ['domain-viewer'], abilities: [] })
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store })
    await channel.send('/two_factor_codes', { method: 'POST' })
    expect(state.replaced).toBe(0)
    await channel.send('/me')
    expect(state.permissions.roles.sort()).toEqual(['domain-admin', 'domain-manager', 'domain-viewer'])
    await channel.send('/me')
    expect(state.replaced).toBe(1)
  })

  it('cancels a queued call when its signal aborts', async () => {
    const gate = deferred()
    const api = fakeApi({ gate: gate.promise })
    const { store } = memoryStore({ ...baseTokens, accessToken: 'new' })
    const channel = new SessionChannel({ fetch: api.fetch, baseUrl: 'http://api.test/v1', store, limit: 1 })
    const first = channel.send('/first')
    const controller = new AbortController()
    const second = channel.send('/second', { signal: controller.signal })
    await expect.poll(() => channel.limiter.queued).toBe(1)
    controller.abort(new Error('navigation abandoned'))
    await expect(second).rejects.toThrow('navigation abandoned')
    expect(channel.limiter.queued).toBe(0)
    gate.resolve()
    await first
    expect(api.log.calls.map((c) => c.split(' ')[0])).toEqual(['/v1/first'])
  })
})

describe('Limiter', () => {
  it('hands slots back in order', async () => {
    const limiter = new Limiter(1)
    const release = await limiter.acquire(false)
    const seen: string[] = []
    const a = limiter.acquire(false).then((r) => (seen.push('a'), r()))
    const b = limiter.acquire(true).then((r) => (seen.push('b'), r()))
    release()
    await Promise.all([a, b])
    expect(seen).toEqual(['b', 'a'])
  })
})

describe('helpers', () => {
  it('loops pages of 1000 while a full page returns', async () => {
    const pages: number[] = []
    const rows = await fetchAllPages<number>(async ({ page, limit }) => {
      pages.push(page)
      return { data: Array.from({ length: page < 3 ? limit : 7 }, (_, i) => i) }
    })
    expect(pages).toEqual([1, 2, 3])
    expect(rows).toHaveLength(2007)
  })

  it('handles platform call answers as spec §7 says', () => {
    expect(handlePlatformCallAnswer({ platform: { result: { actionResult: true, code: 200, message: 'Done', result: { id: 1 } } } })).toEqual({
      value: { id: 1 },
      snackbar: { content: 'Done', color: 'green', code: 200 },
    })
    expect(handlePlatformCallAnswer({ platform: { result: { actionResult: true, code: 500, message: 'Bad' } } }).snackbar?.color).toBe('error')
    expect(handlePlatformCallAnswer({ platform: { status: 2000, result: { a: 1 } } }).value).toEqual({ a: 1 })
    expect(handlePlatformCallAnswer({ platform: { status: 4000, result: { a: 1 } } }).value).toEqual({ status: 4000, result: { a: 1 } })
  })

  it('knows the 404 pass-through paths', () => {
    expect(isNotFoundPassthroughPath('/password_resets/abc')).toBe(true)
    expect(isNotFoundPassthroughPath('/approvals/1')).toBe(true)
    expect(isNotFoundPassthroughPath('/groups/g/zones/z/records')).toBe(true)
    expect(isNotFoundPassthroughPath('/groups/g/gap_analysis')).toBe(true)
    expect(isNotFoundPassthroughPath('/groups/g/domains/1')).toBe(false)
  })

  it('formats the expiry as UTC YYYY-MM-DD HH:mm:ss', () => {
    expect(formatExpiry(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe('2026-01-02 03:04:05')
  })
})

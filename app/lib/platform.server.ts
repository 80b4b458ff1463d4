/**
 * The one platform client under every loader and action. It binds the session channel of
 * `platform-client.ts` to the database session and turns answers into what React Router expects
 * (spec §8): a session that ends becomes a redirect to /login keeping the address; 403, 404, 429
 * and 500 become error responses for the root error screen.
 */
import { data, redirect, type RouterContextProvider } from 'react-router'
import type { AppServices } from './app-context.ts'
import { fillPath, type Answer, type BarePath, type ApiPath, type Init, type InitArgs, type ListPage, type Operation, type Projected, type ProjectedRow, type RequestBody } from './platform-api.ts'
import {
  PlatformError,
  SessionChannel,
  SessionEndedError,
  fetchAllPages,
  handlePlatformCallAnswer,
  isNotFoundPassthroughPath,
  readBody,
  type CallOptions,
  type PlatformCallAnswer,
  type SessionStore,
  type Tokens,
} from './platform-client.ts'
import { clearSessionCookie, getSession, loginRedirect, readSessionRow, services, updateSessionMeta, type PortalSession } from './session.server.ts'

export { PlatformError, SessionEndedError } from './platform-client.ts'

type Context = Readonly<RouterContextProvider>

/** Where the Platform API lives as seen by the portal; the host matters only when split. */
export function platformBaseUrl(request: Request, env: AppServices['env']): string {
  return `${(env.publicUrl ?? new URL(request.url).origin).replace(/\/$/, '')}/v1`
}

const REFRESH_CLAIM_SECONDS = 30

/**
 * The session store over portal_sessions, safe when several server processes share the table.
 * Given the session the request already loaded, tokens and permissions are answered from it instead
 * of reading the row before every call (one render made ~2 reads per API call); a token refreshed
 * elsewhere since is found by the 401 it earns, whose refresh path reads the row. Every write here
 * also updates that session, so later calls of the request see the new pair.
 */
export function databaseStore(services: Pick<AppServices, 'sql' | 'log'>, key: string, loaded?: PortalSession): SessionStore {
  const { sql, log } = services
  let known = loaded?.key === key ? loaded : undefined
  const read = async () => {
    const row = await readSessionRow(sql, key)
    if (known && row) known.tokens = row.tokens
    return row
  }
  return {
    async tokens() {
      if (known) return known.tokens
      return (await read())?.tokens ?? null
    },
    async refresh(stale, refresh) {
      // Claim the refresh in the row: another process that already claimed it (or finished it)
      // makes us wait for its tokens instead of using the refresh token a second time.
      const claimed = await sql.query(
        `UPDATE portal_sessions SET refreshing_until = now() + interval '${REFRESH_CLAIM_SECONDS} seconds'
         WHERE id = $1 AND access_token = $2 AND (refreshing_until IS NULL OR refreshing_until < now())`,
        [key, stale],
      )
      if (claimed.rowCount === 1) {
        const current = await read()
        if (!current) throw new SessionEndedError('session removed')
        const next = await refresh(current.tokens)
        await sql.query('UPDATE portal_sessions SET access_token = $2, refresh_token = $3, refreshing_until = NULL WHERE id = $1', [key, next.accessToken, next.refreshToken])
        log('info', 'session tokens refreshed', { user_id: current.userId })
        const tokens = { ...current.tokens, ...next }
        if (known) known.tokens = tokens
        return tokens
      }
      const deadline = Date.now() + REFRESH_CLAIM_SECONDS * 1000
      for (;;) {
        const current = await read()
        if (!current) throw new SessionEndedError('session ended elsewhere')
        if (current.tokens.accessToken !== stale) return current.tokens
        if (Date.now() > deadline) throw new SessionEndedError('refresh elsewhere did not finish')
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async end(reason) {
      known = undefined
      await sql.query('DELETE FROM portal_sessions WHERE id = $1', [key])
      log('warn', 'session ended', { reason })
    },
    async permissions() {
      const session = known ?? (await read())
      return session?.user ? { roles: session.user.roles, abilities: session.user.abilities } : null
    },
    async replacePermissions(next) {
      await sql.query(`UPDATE portal_sessions SET user_data = user_data || $2::jsonb WHERE id = $1`, [key, JSON.stringify(next)])
      if (known?.user) Object.assign(known.user, next)
      log('info', 'session permissions replaced from the platform headers', { roles: next.roles, abilities: next.abilities })
    },
  }
}

// One channel per session in this process, kept only while calls of that session are running.
const channels = new Map<string, { channel: SessionChannel; users: number }>()

async function withChannel<T>(key: string, make: () => SessionChannel, run: (channel: SessionChannel) => Promise<T>): Promise<T> {
  let entry = channels.get(key)
  if (!entry) {
    entry = { channel: make(), users: 0 }
    channels.set(key, entry)
  }
  entry.users++
  try {
    return await run(entry.channel)
  } finally {
    entry.users--
    if (entry.users === 0 && channels.get(key) === entry) channels.delete(key)
  }
}

/** The channel of a session while `run` lasts (also used by the integration test). */
export function sessionChannel<T>(services: Pick<AppServices, 'sql' | 'log' | 'platformFetch'>, key: string, baseUrl: string, run: (channel: SessionChannel) => Promise<T>, loaded?: PortalSession) {
  return withChannel(key, () => new SessionChannel({ fetch: services.platformFetch, baseUrl, store: databaseStore(services, key, loaded) }), run)
}

export type RequestOptions = Omit<CallOptions, 'method' | 'body' | 'fetch'>

/** The platform client of one request. */
export class PlatformClient {
  readonly session: PortalSession | null
  private readonly request: Request
  private readonly services: AppServices
  private readonly context: Context

  constructor(request: Request, context: Context, session: PortalSession | null) {
    this.request = request
    this.context = context
    this.services = services(context)
    this.session = session
  }

  /** One call under the session's rules (limit, refresh, expiry, permissions), answer untouched. */
  async raw(path: string, options: CallOptions = {}): Promise<Response> {
    const baseUrl = platformBaseUrl(this.request, this.services.env)
    const call = { signal: this.request.signal, ...options, fetch: this.services.platformFetch }
    try {
      if (!this.session) {
        const anonymous = new SessionChannel({ fetch: this.services.platformFetch, baseUrl, store: nullStore })
        return await anonymous.send(path, call)
      }
      return await sessionChannel(this.services, this.session.key, baseUrl, (channel) => channel.send(path, call), this.session)
    } catch (error) {
      if (error instanceof SessionEndedError) {
        this.services.log('info', 'platform call refused: session over', { reason: error.reason, path })
        throw loginRedirect(this.request, { 'Set-Cookie': clearSessionCookie(this.request) })
      }
      throw error
    }
  }

  /** A call with the answer handling of spec §8; returns the parsed body (typed by the methods below). */
  private async send(method: string, template: string, init: object | undefined): Promise<unknown> {
    const { path: params, body, ...options } = (init ?? {}) as Omit<Init<unknown>, 'path' | 'body'> & { path?: Record<string, string | number>; body?: unknown }
    const path = fillPath(template, params)
    const response = await this.raw(path, { ...options, query: options.query as CallOptions['query'], method, body })
    return this.handle(response, path)
  }

  /**
   * The operations of the Platform API's OpenAPI document (decision 023), by path template and
   * method: `platform.get('/groups/{context}/domains/{id}', { path: { context, id } })` answers that
   * operation's success body as the document types it.
   */
  get<P extends BarePath<'get'>>(path: P): Promise<Projected<Answer<P, 'get'>, never>>
  get<P extends ApiPath<'get'>, const F extends string = never>(path: P, init: Init<Operation<P, 'get'>, F>): Promise<Projected<Answer<P, 'get'>, F>>
  get(path: string, init?: object): Promise<unknown> {
    return this.send('GET', path, init)
  }
  post<P extends ApiPath<'post'>>(path: P, ...[init]: InitArgs<Operation<P, 'post'>>) {
    return this.send('POST', path, init) as Promise<Answer<P, 'post'>>
  }
  put<P extends ApiPath<'put'>>(path: P, ...[init]: InitArgs<Operation<P, 'put'>>) {
    return this.send('PUT', path, init) as Promise<Answer<P, 'put'>>
  }
  patch<P extends ApiPath<'patch'>>(path: P, ...[init]: InitArgs<Operation<P, 'patch'>>) {
    return this.send('PATCH', path, init) as Promise<Answer<P, 'patch'>>
  }
  delete<P extends ApiPath<'delete'>>(path: P, ...[init]: InitArgs<Operation<P, 'delete'>>) {
    return this.send('DELETE', path, init) as Promise<Answer<P, 'delete'>>
  }

  /** Every row of a list operation: the paged loop of spec §7 (page size 1000 while a full page returns). */
  all<P extends ApiPath<'get'>, const F extends string = never>(path: P, init: Init<Operation<P, 'get'>, F>): Promise<ProjectedRow<Answer<P, 'get'>, F>[]> {
    const base: { query?: object } = init ?? {}
    return fetchAllPages<ProjectedRow<Answer<P, 'get'>, F>>((page) => this.send('GET', path, { ...base, query: { ...base.query, ...page } }))
  }

  /**
   * A page of a list resource for the list engine, whose definitions name their resource's address
   * (app/lib/lists.ts) and project rows by `fields`: the rows are records, the meta the document's.
   */
  list(path: string, options: Pick<CallOptions, 'query' | 'signal'> = {}): Promise<ListPage> {
    return this.raw(path, { ...options, method: 'GET' }).then((response) => this.handle(response, path) as Promise<ListPage>)
  }

  /** POST /groups/{context}/platform_calls with the answer handling of spec §7. */
  async platformCall(groupContext: string, operation: string, fields: Record<string, unknown> = {}) {
    const answer = (await this.post('/groups/{context}/platform_calls', {
      path: { context: groupContext },
      body: { operation, ...fields } as RequestBody<'/groups/{context}/platform_calls', 'post'>,
    })) as PlatformCallAnswer
    return handlePlatformCallAnswer(answer)
  }

  private async handle(response: Response, path: string): Promise<unknown> {
    const body = await readBody(response)
    if (response.ok) return body
    const status = response.status
    if (status === 401 && this.session) {
      throw loginRedirect(this.request, { 'Set-Cookie': clearSessionCookie(this.request) })
    }
    if (status === 403) throw data(body ?? { title: 'Forbidden' }, { status: 403 })
    if (status === 404) {
      if (isNotFoundPassthroughPath(path)) throw new PlatformError(404, body, path)
      // Spec §4 Context: the first 404 after a context change sends the user to / once.
      if (this.session?.meta.contextChanged) {
        await updateSessionMeta(this.context, this.session.key, { contextChanged: false })
        throw redirect('/')
      }
      throw data('404 Not Found', { status: 404, statusText: 'Not Found' })
    }
    if (status === 429) throw data(body, { status: 429, headers: retryAfter(response) })
    if (status >= 500) throw data(body, { status: 500 })
    throw new PlatformError(status, body, path)
  }
}

const retryAfter = (response: Response): HeadersInit => {
  const value = response.headers.get('retry-after')
  return value ? { 'Retry-After': value } : {}
}

const nullStore: SessionStore = {
  tokens: async () => null,
  refresh: async () => {
    throw new SessionEndedError('no session')
  },
  end: async () => {},
  permissions: async () => null,
  replacePermissions: async () => {},
}

/**
 * The platform client of this request: the session's when signed in (remembering context changes
 * for spec §4), anonymous otherwise.
 */
export async function getPlatform(request: Request, context: Context): Promise<PlatformClient> {
  // One client per request (the layout, the screen and the list loader all ask for it), rebuilt
  // only when the request's session changed (sign-in or sign-out within the request).
  const session = await getSession(request, context)
  const cached = clientByContext.get(context)
  if (cached && cached.session === session) return cached.client
  const client = makePlatform(request, context, session)
  clientByContext.set(context, { session, client })
  // A failed build (e.g. the database was down) must not stick to the request.
  client.catch(() => clientByContext.delete(context))
  return client
}

const clientByContext = new WeakMap<object, { session: PortalSession | null; client: Promise<PlatformClient> }>()

async function makePlatform(request: Request, context: Context, session: PortalSession | null): Promise<PlatformClient> {
  if (session?.stage === 'active') {
    const groupContext = new URL(request.url).searchParams.get('context')
    const current = groupContext && groupContext.length === 36 ? groupContext : null
    if (current !== (session.meta.context ?? null)) {
      const changed = session.meta.context !== undefined
      await updateSessionMeta(context, session.key, { context: current, contextChanged: changed })
      session.meta = { ...session.meta, context: current, contextChanged: changed }
    }
  }
  return new PlatformClient(request, context, session?.stage === 'active' ? session : null)
}

/** The client for a session that is not the request's cookie yet (just created at sign-in). */
export function platformForSession(request: Request, context: Context, session: PortalSession | null): PlatformClient {
  return new PlatformClient(request, context, session)
}

export type { Tokens }

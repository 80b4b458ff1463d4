/**
 * The browser-agnostic core of the platform client (spec §4 Token refresh, §6, §7 Client behaviour,
 * §8): one channel per session limits calls in flight, runs a single token refresh while the other
 * calls wait, replays them, holds calls back after the 12-hour expiry, and reports permission
 * changes. It knows nothing about cookies, databases or React Router; `platform.server.ts` binds it.
 */
import { expandRoles } from '#common/permissions.ts'

export const MAX_IN_FLIGHT = 16
export const PAGE_SIZE = 1000
export const SESSION_HOURS = 12

export type Tokens = {
  accessToken: string
  refreshToken: string
  /** UTC 'YYYY-MM-DD HH:mm:ss'. */
  expires: string
  ssoToken: string | null
  userId: string | null
}

export type Permissions = { roles: string[]; abilities: string[] }

/** What the channel needs from wherever the session is kept. */
export type SessionStore = {
  /** The tokens as currently stored (re-read after a refresh elsewhere). */
  tokens(): Promise<Tokens | null>
  /**
   * Performs the refresh. `staleAccessToken` is the token that failed: a store shared by several
   * processes returns the stored pair unchanged when another process already replaced it.
   */
  refresh(staleAccessToken: string, refresh: (tokens: Tokens) => Promise<Pick<Tokens, 'accessToken' | 'refreshToken'>>): Promise<Tokens>
  /** The refresh failed: the session is over. */
  end(reason: string): Promise<void>
  permissions(): Promise<Permissions | null>
  replacePermissions(next: Permissions): Promise<void>
}

export type CallOptions = {
  method?: string
  /** JSON body (objects are serialised) or a ready body (text, form, or a Blob/File sent as it is, streamed). */
  body?: unknown
  query?: Record<string, string | number | boolean | undefined | null | readonly (string | number)[]>
  headers?: HeadersInit
  /** Queued ahead of ordinary calls when the channel is full. */
  priority?: boolean
  signal?: AbortSignal
  /** The transport of this call (the request's own, so logs carry its request id). */
  fetch?: (request: Request) => Promise<Response>
}

/** The session is over (expired, refresh refused or ended): the caller sends the user to /login. */
export class SessionEndedError extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(`session ended: ${reason}`)
    this.name = 'SessionEndedError'
    this.reason = reason
  }
}

/** A non-success answer of the Platform API, with its parsed body (spec §8 "an error with data, status and message"). */
export class PlatformError extends Error {
  readonly status: number
  readonly data: unknown
  readonly path: string
  constructor(status: number, data: unknown, path: string) {
    const detail = data && typeof data === 'object' && 'detail' in data ? String((data as { detail: unknown }).detail) : ''
    super(detail || `${status} from ${path}`)
    this.name = 'PlatformError'
    this.status = status
    this.data = data
    this.path = path
  }
}

const lastSegment = (path: string) => path.split('?')[0]!.replace(/\/+$/, '')
export const isUserinfoPath = (path: string) => lastSegment(path).endsWith('/oauth2/userinfo')
const endsWithName = (path: string, name: string) => new RegExp(`(^|/)${name}$`).test(lastSegment(path))
const isLogoutPath = (path: string) => endsWithName(path, 'logout')
/** Spec §8: these fail directly on 401 instead of refreshing. */
export const isNoRetryPath = (path: string) => ['refresh', 'login', 'logout', 'login_sso'].some((name) => endsWithName(path, name)) || /(^|\/)password_resets(\/|$)/.test(lastSegment(path))
/** Spec §6: the permission headers of these answers are not compared. */
export const isPermissionExemptPath = (path: string) => ['login', 'two_factor_codes', 'login_sso'].some((name) => endsWithName(path, name))
/** Spec §8: a 404 from these paths is the caller's to handle. */
export const isNotFoundPassthroughPath = (path: string) => {
  const p = lastSegment(path)
  return /(^|\/)password_resets(\/|$)/.test(p) || /gap_analysis/.test(p) || /(^|\/)approvals(\/|$)/.test(p) || /\/groups\/[^/]+\/zones\/[^/]+\/records(\/|$)/.test(p)
}

/** UTC 'YYYY-MM-DD HH:mm:ss' for a date (spec §9 expiry format). */
export function formatExpiry(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}
export const expiryAfterLogin = (now: Date) => formatExpiry(new Date(now.getTime() + SESSION_HOURS * 3_600_000))
export const isExpired = (expires: string, now: Date) => expires <= formatExpiry(now)

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a)
  const right = new Set(b)
  return left.size === right.size && [...left].every((x) => right.has(x))
}

function parseList(value: string | null): string[] | null {
  if (value === null) return null
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) && parsed.every((x) => typeof x === 'string') ? parsed : null
  } catch {
    return null
  }
}

type Waiter = { priority: boolean; start: () => void; cancel: (reason: unknown) => void }

/** A counting gate: at most `limit` holders; waiters leave priority first, then in arrival order. */
export class Limiter {
  readonly limit: number
  private active = 0
  private queue: Waiter[] = []
  constructor(limit = MAX_IN_FLIGHT) {
    this.limit = limit
  }
  get inFlight() {
    return this.active
  }
  get queued() {
    return this.queue.length
  }
  acquire(priority: boolean, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted()
    let released = false
    const release = () => {
      if (released) return
      released = true
      this.active--
      this.next()
    }
    if (this.active < this.limit) {
      this.active++
      return Promise.resolve(release)
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        start: () => {
          signal?.removeEventListener('abort', onAbort)
          this.active++
          resolve(release)
        },
        cancel: reject,
      }
      const onAbort = () => {
        this.queue = this.queue.filter((w) => w !== waiter)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      // Priority calls go after the other priority calls and before every ordinary one.
      const at = priority ? this.queue.findIndex((w) => !w.priority) : -1
      if (at === -1) this.queue.push(waiter)
      else this.queue.splice(at, 0, waiter)
    })
  }
  private next() {
    const waiter = this.queue.shift()
    waiter?.start()
  }
}

export type ChannelOptions = {
  fetch: (request: Request) => Promise<Response>
  /** Base of the Platform API, e.g. http://localhost/v1 (paths are appended). */
  baseUrl: string
  store: SessionStore
  now?: () => Date
  limit?: number
}

/**
 * One per session: the limiter and the refresh in progress are shared by every call of that
 * session, whichever request made it.
 */
export class SessionChannel {
  readonly limiter: Limiter
  private refreshing: Promise<Tokens> | null = null
  private ended: string | null = null
  private readonly options: ChannelOptions
  /** Counts refreshes sent by this channel (exposed for diagnostics and tests). */
  refreshCount = 0

  constructor(options: ChannelOptions) {
    this.options = options
    this.limiter = new Limiter(options.limit ?? MAX_IN_FLIGHT)
  }

  private now() {
    return this.options.now?.() ?? new Date()
  }

  /** Builds the Request of a call with the given bearer. */
  private request(path: string, options: CallOptions, accessToken: string | null): Request {
    const url = new URL(path.startsWith('http') ? path : `${this.options.baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`)
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value === undefined || value === null) continue
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v))
      else url.searchParams.set(key, String(value))
    }
    const headers = new Headers(options.headers)
    headers.set('accept', 'application/json')
    if (accessToken && !isUserinfoPath(path)) headers.set('authorization', `Bearer ${accessToken}`)
    let body: BodyInit | undefined
    if (options.body !== undefined && options.body !== null) {
      if (typeof options.body === 'string' || options.body instanceof URLSearchParams || options.body instanceof FormData || options.body instanceof Blob) body = options.body
      else {
        headers.set('content-type', 'application/json')
        body = JSON.stringify(options.body)
      }
    }
    return new Request(url, { method: (options.method ?? 'GET').toUpperCase(), headers, body, signal: options.signal })
  }

  /**
   * Sends one call under the session's rules and returns the raw answer (after at most one
   * refresh and replay). Throws SessionEndedError when the session is over.
   */
  async send(path: string, options: CallOptions = {}): Promise<Response> {
    const release = await this.limiter.acquire(options.priority ?? false, options.signal)
    try {
      let tokens = await this.checkedTokens(path)
      const fetch = options.fetch ?? this.options.fetch
      let response = await fetch(this.request(path, options, tokens?.accessToken ?? null))
      if (response.status === 401 && tokens && !isNoRetryPath(path) && !isUserinfoPath(path)) {
        // Drain the refused answer so its connection is freed before the replay.
        await response.body?.cancel().catch(() => {})
        tokens = await this.refreshOnce(tokens.accessToken, fetch)
        options.signal?.throwIfAborted()
        response = await fetch(this.request(path, options, tokens.accessToken))
      }
      if (!isPermissionExemptPath(path)) await this.comparePermissions(response)
      return response
    } finally {
      release()
    }
  }

  private async checkedTokens(path: string): Promise<Tokens | null> {
    if (this.ended && !isLogoutPath(path)) throw new SessionEndedError(this.ended)
    const tokens = await this.options.store.tokens()
    if (!tokens) return null
    // Spec §4: nothing leaves after the expiry except userinfo and logout.
    if (isExpired(tokens.expires, this.now()) && !isUserinfoPath(path) && !isLogoutPath(path)) {
      throw new SessionEndedError('expired')
    }
    return tokens
  }

  /** The single refresh of this session: concurrent callers share one promise. */
  refreshOnce(staleAccessToken: string, fetch = this.options.fetch): Promise<Tokens> {
    if (!this.refreshing) {
      this.refreshing = this.runRefresh(staleAccessToken, fetch).finally(() => {
        this.refreshing = null
      })
    }
    return this.refreshing
  }

  private async runRefresh(staleAccessToken: string, fetch: (request: Request) => Promise<Response>): Promise<Tokens> {
    const current = await this.options.store.tokens()
    if (!current) throw new SessionEndedError('no session')
    // A call that failed with a token already replaced only needs the replay.
    if (current.accessToken !== staleAccessToken) return current
    try {
      return await this.options.store.refresh(staleAccessToken, async (tokens) => {
        this.refreshCount++
        const body: Record<string, string> = { refresh_token: tokens.refreshToken }
        if (tokens.userId && tokens.ssoToken) body.sso_token = tokens.ssoToken
        // The refresh bypasses the limiter: the calls holding its slots are the ones waiting for it.
        const response = await fetch(this.request('/refresh', { method: 'POST', body }, null))
        if (!response.ok) throw new SessionEndedError(`refresh refused (${response.status})`)
        const json = (await response.json()) as { data?: { access_token?: string; refresh_token?: string } }
        if (!json.data?.access_token || !json.data.refresh_token) throw new SessionEndedError('refresh answer without tokens')
        return { accessToken: json.data.access_token, refreshToken: json.data.refresh_token }
      })
    } catch (error) {
      const reason = error instanceof SessionEndedError ? error.reason : `refresh failed: ${(error as Error).message}`
      this.ended = reason
      await this.options.store.end(reason)
      throw error instanceof SessionEndedError ? error : new SessionEndedError(reason)
    }
  }

  private async comparePermissions(response: Response) {
    const roles = parseList(response.headers.get('roles'))
    const abilities = parseList(response.headers.get('abilities'))
    if (!roles || !abilities) return
    const stored = await this.options.store.permissions()
    if (!stored) return
    const serverRoles = expandRoles(roles)
    if (sameSet(expandRoles(stored.roles), serverRoles) && sameSet(stored.abilities, abilities)) return
    await this.options.store.replacePermissions({ roles: serverRoles, abilities })
  }
}

/** Parses a JSON answer body, or null for an empty one. */
export async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null
  const text = await response.text()
  if (!text) return null
  if (/json/.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

/**
 * The paged loop of spec §7: pages of 1000 while a full page returns. `fetchPage` answers a list
 * body ({ data: [...] }) or an array.
 */
export async function fetchAllPages<T>(fetchPage: (query: { page: number; limit: number }) => Promise<unknown>, pageSize = PAGE_SIZE): Promise<T[]> {
  const all: T[] = []
  for (let page = 1; ; page++) {
    const body = await fetchPage({ page, limit: pageSize })
    const rows = (Array.isArray(body) ? body : ((body as { data?: unknown[] } | null)?.data ?? [])) as T[]
    all.push(...rows)
    if (rows.length < pageSize) return all
  }
}

export type Snackbar = { content: string; color: 'green' | 'error'; code: number | string | undefined }

export type PlatformCallAnswer = {
  platform?: {
    status?: number
    result?: { actionResult?: boolean; message?: string; code?: number | string; result?: unknown } & Record<string, unknown>
  } & Record<string, unknown>
}

/**
 * Spec §7 "Platform call answer handling": an actionResult gives a snackbar (green on code 200)
 * and result.result when present; status 2000 gives the result; otherwise the platform object.
 */
export function handlePlatformCallAnswer(answer: PlatformCallAnswer): { value: unknown; snackbar: Snackbar | null } {
  const platform = answer.platform ?? {}
  const result = platform.result
  if (result?.actionResult === true) {
    const snackbar: Snackbar = { content: String(result.message ?? ''), color: Number(result.code) === 200 ? 'green' : 'error', code: result.code }
    return { value: 'result' in result ? result.result : undefined, snackbar }
  }
  if (platform.status === 2000) return { value: result, snackbar: null }
  return { value: platform, snackbar: null }
}

/**
 * The portal's server-side session (spec §3 Tokens, §4 Session). The browser holds only
 * `__session`: a 256-bit random id signed with HMAC-SHA-256; the row keyed by the SHA-256 of that
 * id holds the tokens, the 12-hour expiry and the user. Tokens never reach the browser.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { readCookie } from './cookies.server.ts'
import { redirect, type RouterContextProvider } from 'react-router'
import { appServicesContext, type AppServices } from './app-context.ts'
import { expandRoles } from '#common/permissions.ts'
import { expiryAfterLogin, formatExpiry, isExpired, type Tokens } from './platform-client.ts'

/** The signed-in user as the portal knows it (spec §3 User, plus display fields). */
export type SessionUser = {
  id: string
  group_id: string
  email: string
  name: string
  roles: string[]
  abilities: string[]
  language: string
  dark_theme: boolean
}

export const SESSION_COOKIE = '__session'
/** Set at sign-in without Max-Age, so it dies with the browser (cross-tab rules, spec §4). */
export const TAB_MARKER_COOKIE = 'portal_tab_session'

export type PortalSession = {
  /** SHA-256 of the cookie's id: the row key (never the id itself). */
  key: string
  stage: 'two_factor' | 'active'
  userId: string | null
  tokens: Tokens
  applicationId: string | null
  user: SessionUser | null
  /** Portal-side state kept with the session (e.g. the last context, for spec §4 Context). */
  meta: Record<string, unknown>
}

type Context = Readonly<RouterContextProvider>

export const services = (context: Context): AppServices => context.get(appServicesContext)

const hashId = (id: string) => createHash('sha256').update(id).digest('hex')

function sign(id: string, secret: string): string {
  return `${id}.${createHmac('sha256', secret).update(id).digest('base64url')}`
}

/** The id inside a signed cookie value, or null when the signature does not match. */
export function unsign(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.')
  if (dot <= 0) return null
  const id = value.slice(0, dot)
  const expected = Buffer.from(sign(id, secret).slice(dot + 1))
  const given = Buffer.from(value.slice(dot + 1))
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : null
}

/** Secure everywhere except plain http on localhost, where the tests and local development run. */
export function isSecureRequest(request: Request): boolean {
  const url = new URL(request.url)
  return !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
}

function sessionCookie(request: Request, value: string, maxAge?: number): string {
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`)
  if (isSecureRequest(request)) parts.push('Secure')
  return parts.join('; ')
}

/** A Set-Cookie value that removes the session cookie. */
export const clearSessionCookie = (request: Request) => sessionCookie(request, '', 0)

type Row = {
  id: string
  stage: 'two_factor' | 'active'
  user_id: string | null
  access_token: string
  refresh_token: string
  expires: string
  sso_token: string | null
  application_id: string | null
  user_data: Record<string, unknown> | string
  last_seen_at: Date | string
}

export function rowToSession(row: Row): PortalSession {
  const data = (typeof row.user_data === 'string' ? JSON.parse(row.user_data) : row.user_data) as Record<string, unknown>
  const { meta, ...user } = data as { meta?: Record<string, unknown> } & Record<string, unknown>
  return {
    key: row.id,
    stage: row.stage,
    userId: row.user_id,
    tokens: { accessToken: row.access_token, refreshToken: row.refresh_token, expires: row.expires, ssoToken: row.sso_token, userId: row.user_id },
    applicationId: row.application_id,
    user: row.stage === 'active' && typeof user.id === 'string' ? (user as unknown as SessionUser) : null,
    meta: meta ?? {},
  }
}

export const SESSION_COLUMNS = 'id, stage, user_id, access_token, refresh_token, expires, sso_token, application_id, user_data, last_seen_at'

/** Reads a session row by key (used by the platform client's store after a refresh elsewhere). */
export async function readSessionRow(sql: AppServices['sql'], key: string): Promise<PortalSession | null> {
  const { rows } = await sql.query(`SELECT ${SESSION_COLUMNS} FROM portal_sessions WHERE id = $1`, [key])
  return rows[0] ? rowToSession(rows[0] as Row) : null
}

type Loaded = { session: PortalSession | null; hadCookie: boolean; expired: boolean }
// One lookup per request, however many loaders ask.
const loadedByContext = new WeakMap<object, Promise<Loaded>>()

async function load(request: Request, context: Context): Promise<Loaded> {
  const { env, sql, log } = services(context)
  const raw = readCookie(request, SESSION_COOKIE)
  if (!raw) return { session: null, hadCookie: false, expired: false }
  const id = unsign(raw, env.sessionSecret)
  if (!id) {
    log('warn', 'tampered session cookie refused', { path: new URL(request.url).pathname })
    return { session: null, hadCookie: true, expired: false }
  }
  // One round trip: the row as it was, and last_seen_at (for operators) written at most once a
  // minute by the same statement. The SELECT sees the snapshot before the UPDATE.
  const { rows } = await sql.query(
    `WITH seen AS (UPDATE portal_sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - interval '1 minute')
     SELECT ${SESSION_COLUMNS} FROM portal_sessions WHERE id = $1`,
    [hashId(id)],
  )
  const session = rows[0] ? rowToSession(rows[0] as Row) : null
  if (!session) return { session: null, hadCookie: true, expired: false }
  if (isExpired(session.tokens.expires, new Date())) {
    // Spec §4: a past expiry logs the user out; the address is kept by requireUser's redirect.
    await sql.query('DELETE FROM portal_sessions WHERE id = $1', [session.key])
    log('info', 'session expired', { user_id: session.userId })
    return { session: null, hadCookie: true, expired: true }
  }
  return { session, hadCookie: true, expired: false }
}

function loaded(request: Request, context: Context): Promise<Loaded> {
  let entry = loadedByContext.get(context)
  if (!entry) {
    entry = load(request, context)
    loadedByContext.set(context, entry)
  }
  return entry
}

/** Forgets the cached lookup of this request (after the session changed within it). */
export function forgetLoadedSession(context: Context) {
  loadedByContext.delete(context)
}

/** The session of this request (active or waiting for the two-factor code), or null. */
export async function getSession(request: Request, context: Context): Promise<PortalSession | null> {
  return (await loaded(request, context)).session
}

/** The signed-in user of this request, or null. */
export async function getUser(request: Request, context: Context): Promise<SessionUser | null> {
  const session = await getSession(request, context)
  return session?.stage === 'active' ? session.user : null
}

/** The address to come back to after login: path and query of this request. */
export const keptAddress = (request: Request) => {
  const url = new URL(request.url)
  return url.pathname + url.search
}

/** The login address that keeps `request`'s address (spec §4). */
export function loginRedirect(request: Request, extraHeaders?: HeadersInit): Response {
  const url = new URL(request.url)
  const to = url.pathname === '/' && !url.search ? '/login' : `/login?redirectTo=${encodeURIComponent(keptAddress(request))}`
  return redirect(to, { headers: extraHeaders })
}

/** The signed-in user, or a redirect to /login that keeps the requested address. */
export async function requireUser(request: Request, context: Context): Promise<SessionUser> {
  const state = await loaded(request, context)
  const user = state.session?.stage === 'active' ? state.session.user : null
  if (!user) {
    const headers = new Headers()
    if (state.hadCookie) headers.append('Set-Cookie', clearSessionCookie(request))
    throw loginRedirect(request, headers)
  }
  return user
}

/** Normalises a user from /v1/me (or the session) to what the session keeps; roles are expanded. */
export function toSessionUser(input: Record<string, unknown>): SessionUser {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
  return {
    id: String(input.id ?? ''),
    group_id: String(input.group_id ?? ''),
    email: String(input.email ?? ''),
    name: String(input.name ?? ''),
    roles: expandRoles(list(input.roles)),
    abilities: list(input.abilities),
    language: typeof input.language === 'string' && input.language ? input.language : 'en',
    dark_theme: input.dark_theme === true,
  }
}

export type NewSession = {
  stage: 'two_factor' | 'active'
  accessToken: string
  refreshToken?: string
  user?: SessionUser | null
  ssoToken?: string | null
  applicationId?: string | null
  /** Keeps the expiry of the password step when the two-factor step completes. */
  expires?: string
}

/**
 * Starts a session with a NEW random id (never reusing the request's), removing the request's
 * previous row. Returns the Set-Cookie value.
 */
export async function createSession(request: Request, context: Context, input: NewSession): Promise<{ cookie: string; key: string }> {
  const { env, sql } = services(context)
  const previous = await getSession(request, context)
  if (previous) await sql.query('DELETE FROM portal_sessions WHERE id = $1', [previous.key])
  // Expired rows are of no use to anyone; clear them while we are here.
  await sql.query('DELETE FROM portal_sessions WHERE expires < $1', [formatExpiry(new Date())])
  const id = randomBytes(32).toString('base64url')
  const key = hashId(id)
  const now = new Date()
  await sql.query(
    `INSERT INTO portal_sessions (id, stage, user_id, access_token, refresh_token, expires, sso_token, application_id, user_data)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [
      key,
      input.stage,
      input.user?.id ?? null,
      input.accessToken,
      input.refreshToken ?? '',
      input.expires ?? expiryAfterLogin(now),
      input.ssoToken ?? null,
      input.applicationId ?? null,
      JSON.stringify(input.user ?? {}),
    ],
  )
  forgetLoadedSession(context)
  return { cookie: sessionCookie(request, sign(id, env.sessionSecret)), key }
}

/** Deletes this request's session row; returns the Set-Cookie value that clears the cookie. */
export async function destroySession(request: Request, context: Context): Promise<string> {
  const session = await getSession(request, context)
  if (session) await services(context).sql.query('DELETE FROM portal_sessions WHERE id = $1', [session.key])
  forgetLoadedSession(context)
  return clearSessionCookie(request)
}

/** Stores portal-side state with the session (merged into its meta). */
export async function updateSessionMeta(context: Context, key: string, patch: Record<string, unknown>): Promise<void> {
  await services(context).sql.query(`UPDATE portal_sessions SET user_data = jsonb_set(user_data, '{meta}', COALESCE(user_data->'meta', '{}'::jsonb) || $2::jsonb) WHERE id = $1`, [
    key,
    JSON.stringify(patch),
  ])
}

/** What a profile change may alter in the session's copy of the user; id and group never change. */
export type SessionUserPatch = Partial<Omit<SessionUser, 'id' | 'group_id'>>

/** Merges a patch into the stored user of the session `key` (roles expanded as everywhere else). */
export async function updateSessionUserByKey(context: Context, key: string, patch: SessionUserPatch): Promise<void> {
  // Only user fields: a patch must never reach the portal-side meta kept in the same column.
  const allowed: (keyof SessionUserPatch)[] = ['email', 'name', 'roles', 'abilities', 'language', 'dark_theme']
  const clean: Record<string, unknown> = {}
  for (const field of allowed) if (patch[field] !== undefined) clean[field] = field === 'roles' ? expandRoles(patch.roles!) : patch[field]
  if (!Object.keys(clean).length) return
  await services(context).sql.query(`UPDATE portal_sessions SET user_data = user_data || $2::jsonb WHERE id = $1 AND stage = 'active'`, [key, JSON.stringify(clean)])
}

/** Keeps this request's session copy of the user in step after a profile change (language, theme…). */
export async function updateSessionUser(request: Request, context: Context, patch: SessionUserPatch): Promise<void> {
  const session = await getSession(request, context)
  if (session?.stage !== 'active') return
  await updateSessionUserByKey(context, session.key, patch)
  if (session.user) Object.assign(session.user, patch.roles ? { ...patch, roles: expandRoles(patch.roles) } : patch)
}

/**
 * Stores a new token pair for this request's session. PUT /v1/profile/password ends every session
 * of the user and answers a fresh pair for the one that asked; without this the next call would
 * go out with a revoked token and end the session. Any refresh claim of the old pair is void.
 */
export async function replaceSessionTokens(request: Request, context: Context, tokens: { access_token: string; refresh_token: string }): Promise<void> {
  const session = await getSession(request, context)
  if (session?.stage !== 'active') return
  await services(context).sql.query('UPDATE portal_sessions SET access_token = $2, refresh_token = $3, refreshing_until = NULL WHERE id = $1', [session.key, tokens.access_token, tokens.refresh_token])
  session.tokens = { ...session.tokens, accessToken: tokens.access_token, refreshToken: tokens.refresh_token }
}

import { parseCookies } from './cookies.ts'

/**
 * Plain preference cookies shared with sign-in: `lng` (language code) and `theme` (light|dark)
 * hold bare values; the portal's own state cookies hold base64url JSON. None of them carries a
 * credential, so none is signed; every value read is validated before use.
 */
export const YEAR_SECONDS = 365 * 24 * 60 * 60

export const readCookies = (request: Request): Map<string, string> => parseCookies(request.headers.get('cookie'))

export const readCookie = (request: Request, name: string): string | null => readCookies(request).get(name) ?? null

export function serializeCookie(name: string, value: string, options: { maxAge?: number; httpOnly?: boolean; secure?: boolean } = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'SameSite=Lax']
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`)
  if (options.httpOnly) parts.push('HttpOnly')
  if (options.secure) parts.push('Secure')
  return parts.join('; ')
}

export const clearCookie = (name: string) => `${name}=; Path=/; SameSite=Lax; Max-Age=0`

export function readJsonCookie<T>(request: Request, name: string, parse: (value: unknown) => T | null): T | null {
  const raw = readCookie(request, name)
  if (!raw) return null
  try {
    return parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')))
  } catch {
    return null
  }
}

export const serializeJsonCookie = (name: string, value: unknown, options: { maxAge?: number } = {}) =>
  serializeCookie(name, Buffer.from(JSON.stringify(value), 'utf8').toString('base64url'), { httpOnly: true, ...options })

/** The `context` query parameter selects the account; honoured only at exactly 36 characters (spec §4, §9). */
export const CONTEXT_PARAM = 'context'
export const CONTEXT_ID_LENGTH = 36

export const isContextId = (value: unknown): value is string => typeof value === 'string' && value.length === CONTEXT_ID_LENGTH

/** The account a request acts in: a valid `context` parameter, else the user's own group. */
export function activeContext(url: URL | URLSearchParams, ownGroup: string): string {
  const params = url instanceof URL ? url.searchParams : url
  const value = params.get(CONTEXT_PARAM)
  return isContextId(value) ? value : ownGroup
}

/** Routes that never receive the carried context (spec §2: except on logout). */
const NO_CARRY = /^\/(logout)(\/|$)/

/**
 * Adds the context of the current address to `to` when `to` lacks one (spec §2: navigation
 * carries the context from the previous route). `to` may be a path with a query and hash.
 */
export function carryContext(to: string, current: URLSearchParams | string | null | undefined): string {
  const context = typeof current === 'string' ? current : current?.get(CONTEXT_PARAM)
  if (!isContextId(context)) return to
  if (!to.startsWith('/') || to.startsWith('//')) return to
  const url = new URL(to, 'http://portal.invalid')
  if (NO_CARRY.test(url.pathname) || url.searchParams.has(CONTEXT_PARAM)) return to
  url.searchParams.set(CONTEXT_PARAM, context)
  return url.pathname + url.search + url.hash
}

/**
 * The link of a list row: in the row's own account when the row names it (`group_id`: a list over
 * every account, read by staff in their own group, whose rows open in their account), else in the
 * current context (`href`, from useContextHref).
 */
export function rowAccountHref(to: string, row: Record<string, unknown>, href: (to: string) => string): string {
  return isContextId(row.group_id) ? carryContext(to, row.group_id) : href(to)
}

// The API's rule (zod's uuid: RFC 9562 version and variant, or the nil and max ids): an id it would
// refuse as malformed is the screen's 404 here, never a 400 the screen passes on as a 502 (issue 26).
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)

/**
 * API tokens (issue 20): the rules both sides state — the portal's form and the Platform API's
 * refusal say the same limits.
 */

/** Every API token starts so, which lets secret scanners find a leaked one. */
export const API_TOKEN_PREFIX = 'rp_'
/** Expiry: at most a year, 90 days unless the creator says otherwise. */
export const API_TOKEN_MAX_DAYS = 365
export const API_TOKEN_DEFAULT_DAYS = 90
export const API_TOKEN_NAME_MAX = 100
/** At most so many address ranges and domain tags per token. */
export const API_TOKEN_MAX_CIDRS = 20
export const API_TOKEN_MAX_TAGS = 20
/** A domain tag as tokens name it: lowercase letters, digits, dot, dash, underscore. */
export const DOMAIN_TAG_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,62}$/
/** Requests per token per minute, unless the server is configured otherwise. */
export const API_TOKEN_RATE_LIMIT = 600
export const API_TOKEN_RATE_WINDOW_SECONDS = 60

/** An API token as the API lists it (never its secret). */
export type ApiTokenView = {
  id: string
  number: number
  name: string
  hint: string
  user_id: string
  permissions: string[]
  account_id: string | null
  domain_tags: string[]
  cidrs: string[]
  expires_at: string
  revoked_at: string | null
  created_at: string
  created_by: string | null
  last_used_at: string | null
  last_used_address: string | null
}

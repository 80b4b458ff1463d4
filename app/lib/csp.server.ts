import { randomBytes } from 'node:crypto'

// Random bytes are drawn 4 KB at a time (one system call per 256 documents instead of one each).
const NONCE_BYTES = 16
let pool = Buffer.alloc(0)
let used = 0

/** A fresh nonce per document: 128 random bits, as CSP Level 3 asks. */
export function newNonce(): string {
  if (used + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * 256)
    used = 0
  }
  const nonce = pool.toString('base64', used, used + NONCE_BYTES)
  used += NONCE_BYTES
  return nonce
}

/**
 * The enforced policy of every portal document (issue 3 security baseline). Scripts only from this
 * origin or inline with this response's nonce; no plugins, no <base> rewriting, no framing. Forms
 * post to this origin; the single sign-on start and logout answer a form post with a redirect to
 * the provider, and Chromium applies form-action to that redirect, so the provider's origin is
 * allowed there too. Styles allow inline attributes: the server renders style="…" (color scheme)
 * and the CSS bundle is a file.
 */
export function contentSecurityPolicy(nonce: string, options: { oidcIssuer?: string | null } = {}): string {
  const formAction = ["'self'"]
  if (options.oidcIssuer) formAction.push(new URL(options.oidcIssuer).origin)
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Headers of every portal response (documents, data, redirects, files). */
export const PORTAL_SECURITY_HEADERS: Record<string, string> = {
  // Ignored by browsers on plain http (local development); binding over https.
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // For browsers without CSP frame-ancestors.
  'X-Frame-Options': 'DENY',
}

const BASE = 'http://portal.invalid'

/**
 * The one check of a `redirectTo` (sign-in, preferences, the tray): only a local path that starts
 * with one '/' (never '//' or '/\'), without backslashes or control characters (a browser strips
 * those and could turn what is left into '//'); anything else gives the fallback. What it answers
 * is ASCII, ready for a Location header: a path written with other characters (`/ドメイン`) comes
 * back percent-encoded as a browser would send it (the WHATWG URL parser's encoding), never as a
 * header value that cannot be sent (issue 26).
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if (to.includes('\\') || [...to].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return fallback
  let url: URL
  try {
    url = new URL(to, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  const local = `${url.pathname}${url.search}${url.hash}`
  // Dot segments are resolved by the parser: `/.//evil.example` must not come out as `//evil.example`.
  if (!local.startsWith('/') || local.startsWith('//') || !/^[\x21-\x7e]*$/.test(local)) return fallback
  return local
}

/** The path of the page a request came from when it is this portal's (its Referer, same origin), as a safe local path; else null. */
export function sameOriginReferer(request: Request): string | null {
  const referer = request.headers.get('referer')
  if (!referer) return null
  let from: URL
  try {
    from = new URL(referer)
  } catch {
    return null
  }
  if (from.origin !== new URL(request.url).origin) return null
  const local = safeRedirect(`${from.pathname}${from.search}`, '')
  return local || null
}

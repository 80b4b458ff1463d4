/**
 * The one cookie parser: a `Cookie` header (or `document.cookie`) as name → value. The first of
 * a repeated name wins; a value that does not decode is left out (treated as absent). The
 * server reads requests with it (cookies.server.ts `readCookie`), the browser its own cookies.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    if (!name || out.has(name)) continue
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()))
    } catch {
      // A malformed value is treated as absent.
    }
  }
  return out
}

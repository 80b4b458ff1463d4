import { AppError } from './errors.ts'

/**
 * The one spelling of a request's path (decision 021, issue 26). The router decodes percent-escapes
 * before it matches, so a check that reads the path as sent can see another path than the route
 * that runs (`/v1/%70rofile` is `/v1/profile` to the router). The API's fetch rewrites every request
 * to this spelling before anything reads it, so routing and every check see one path:
 * - each segment is percent-decoded and encoded again one way (RFC 3986 pchar: unreserved and
 *   sub-delimiters as they are, anything else escaped), so `%70rofile` is `profile`;
 * - empty segments are dropped (`/v1//profile` is `/v1/profile`; a trailing slash too);
 * - dot segments were resolved by the URL parser already (`.`, `..`, `%2e`, as the WHATWG URL
 *   standard reads them) before the request got here;
 * - case is left alone: a path is case-sensitive (a reset token, a zone's label), the routes are
 *   lower case, and `/V1/PROFILE` is no operation (404).
 * A segment whose decoded text holds `/`, `\` or `%` has two readings (one segment or two; escaped
 * once or twice) and is refused: 400 `path-ambiguous`. Text that cannot be decoded is left as it
 * came, for `refuseUnsafeText` to refuse naming the path.
 */
export function canonicalPath(path: string): string {
  if (!path.includes('%') && !path.includes('//') && (path.length < 2 || !path.endsWith('/'))) return path
  const segments: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '') continue
    if (!segment.includes('%')) {
      segments.push(segment)
      continue
    }
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      segments.push(segment)
      continue
    }
    if (/[/\\%]/.test(decoded)) throw new AppError(400, 'path-ambiguous', 'A path segment holds an encoded "/", "\\" or "%": it has more than one reading')
    segments.push(encodeSegment(decoded))
  }
  return `/${segments.join('/')}`
}

/** RFC 3986 pchar: unreserved and sub-delimiters, ':' and '@' as they are; the rest escaped. */
const encodeSegment = (text: string) => encodeURIComponent(text).replace(/%(?:21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/g, decodeURIComponent)

/**
 * The request with its path in the one spelling: the same request when it is already, a new one
 * (method, headers, body, signal kept) when not.
 */
export function withCanonicalPath(request: Request): Request {
  const url = request.url
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start < 0) return request
  let end = url.length
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start)
    if (at >= 0 && at < end) end = at
  }
  const path = url.slice(start, end)
  const canonical = canonicalPath(path)
  if (canonical === path) return request
  const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'HEAD'
  return new Request(url.slice(0, start) + canonical + url.slice(end), {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
  } as RequestInit)
}

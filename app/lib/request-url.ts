/**
 * The page address of a request. Client navigations fetch `<path>.data` (and `/_root.data` for
 * /) with a `_routes` parameter; loaders and middleware see that raw URL, so every rule that
 * looks at the path (area permissions, titles, redirects) reads it through here.
 */
export function requestUrl(request: Request | string): URL {
  const url = new URL(typeof request === 'string' ? request : request.url)
  if (url.pathname === '/_root.data') url.pathname = '/'
  else if (url.pathname.endsWith('.data')) url.pathname = url.pathname.slice(0, -'.data'.length)
  url.searchParams.delete('_routes')
  return url
}

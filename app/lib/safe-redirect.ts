/**
 * The one check of a `redirectTo` (sign-in, preferences, the tray): only a local path that starts
 * with one '/' (never '//' or '/\'), without backslashes or control characters (a browser strips
 * those and could turn what is left into '//'); anything else gives the fallback.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  if (to.includes('\\') || [...to].some((c) => c.charCodeAt(0) < 0x20)) return fallback
  return to
}

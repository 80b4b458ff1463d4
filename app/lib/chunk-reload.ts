export const RELOAD_GUARD_MS = 10_000
const KEY = 'portal.chunk-reload-at'

/**
 * Decides whether a failed chunk load may reload the page: once per guard window, so a build that
 * is really broken does not loop (spec §2, guard 10 s).
 */
export function shouldReload(lastReloadAt: number | null, now: number, guardMs = RELOAD_GUARD_MS): boolean {
  return lastReloadAt === null || Number.isNaN(lastReloadAt) || now - lastReloadAt >= guardMs
}

export const isChunkLoadError = (reason: unknown): boolean => {
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : ''
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message)
}

/** After a deploy the old chunks are gone: reload to get the new build (at most once per 10 s). */
export function installChunkReload() {
  const onFailure = (reason: unknown) => {
    if (!isChunkLoadError(reason)) return
    const last = Number(sessionStorage.getItem(KEY) ?? 'NaN')
    if (!shouldReload(Number.isNaN(last) ? null : last, Date.now())) return
    sessionStorage.setItem(KEY, String(Date.now()))
    window.location.reload()
  }
  window.addEventListener('vite:preloadError', (event) => {
    event.preventDefault()
    onFailure((event as Event & { payload?: unknown }).payload ?? new Error('Unable to preload CSS'))
  })
  window.addEventListener('unhandledrejection', (event) => onFailure(event.reason))
}

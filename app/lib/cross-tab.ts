import { parseCookies } from './cookies.ts'

/**
 * Cross-tab session rules of spec §4, run in the browser by the signed-in layout:
 * - a session marker cookie (set at sign-in, no Max-Age, so it dies with the browser session);
 * - a session-storage timestamp (this tab has started; survives reloads of the tab);
 * - a tab counter in local storage, up when a tab starts, down when it closes;
 * - when the last tab closes, a grace expiry one hour ahead in local storage.
 * On startup of a new tab: a missing marker cookie or a past grace expiry ends the session
 * (a POST to /logout, which needs no JavaScript-free path because without scripts the 12-hour
 * server expiry still holds).
 */
export const MARKER_COOKIE = 'portal_tab_session'
export const STARTED_KEY = 'portal.session.started'
export const TABS_KEY = 'portal.session.tabs'
export const GRACE_KEY = 'portal.session.grace'
export const GRACE_MS = 60 * 60 * 1000

export type CrossTabEnv = {
  cookie: () => string
  session: Pick<Storage, 'getItem' | 'setItem'>
  local: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  now: () => number
  logout: () => void
  onClose: (handler: () => void) => () => void
}

const hasMarker = (cookie: string) => Boolean(parseCookies(cookie).get(MARKER_COOKIE))

/** Applies the startup rule and registers the close handler; returns a cleanup. Testable without a browser. */
export function runCrossTab(env: CrossTabEnv): () => void {
  const isNewTab = env.session.getItem(STARTED_KEY) === null
  const grace = Number(env.local.getItem(GRACE_KEY) ?? 'NaN')
  const graceOver = Number.isFinite(grace) && grace <= env.now()
  const tabs = Math.max(0, Number(env.local.getItem(TABS_KEY) ?? '0') || 0)
  if (!hasMarker(env.cookie()) || (graceOver && (isNewTab || tabs === 0))) {
    env.local.removeItem(GRACE_KEY)
    env.local.setItem(TABS_KEY, '0')
    env.logout()
    return () => {}
  }
  if (isNewTab) env.session.setItem(STARTED_KEY, String(env.now()))
  env.local.setItem(TABS_KEY, String(tabs + 1))
  env.local.removeItem(GRACE_KEY)
  let closed = false
  const close = () => {
    if (closed) return
    closed = true
    const left = Math.max(0, (Number(env.local.getItem(TABS_KEY) ?? '1') || 1) - 1)
    env.local.setItem(TABS_KEY, String(left))
    if (left === 0) env.local.setItem(GRACE_KEY, String(env.now() + GRACE_MS))
  }
  const unregister = env.onClose(close)
  return () => {
    unregister()
    close()
  }
}

/** Submits a same-origin POST to /logout (sign-out changes state, so never a GET). */
function postLogout() {
  const form = document.createElement('form')
  form.method = 'post'
  form.action = '/logout'
  document.body.appendChild(form)
  form.submit()
}

/** For the shell's root: `useEffect(() => startCrossTabSession(), [])` in the signed-in layout. */
export function startCrossTabSession(options: { logout?: () => void } = {}): () => void {
  if (typeof window === 'undefined') return () => {}
  return runCrossTab({
    cookie: () => document.cookie,
    session: window.sessionStorage,
    local: window.localStorage,
    now: () => Date.now(),
    logout: options.logout ?? postLogout,
    onClose: (handler) => {
      window.addEventListener('pagehide', handler)
      return () => window.removeEventListener('pagehide', handler)
    },
  })
}

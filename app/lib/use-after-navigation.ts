import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

/**
 * Runs `close` after a client navigation to another address (without JavaScript the page reloads
 * anyway). Not on the first render: a menu or drawer a person opened while the page was still
 * loading stays open when the scripts arrive. `close` is the first render's: it acts on refs or the
 * document, not on values of a render.
 */
export function useAfterNavigation(close: () => void) {
  const location = useLocation()
  const shown = useRef(`${location.pathname}${location.search}`)
  const closing = useRef(close)
  useEffect(() => {
    const now = `${location.pathname}${location.search}`
    if (shown.current === now) return
    shown.current = now
    closing.current()
  }, [location.pathname, location.search])
}

import { describe, expect, it } from 'vitest'
import { GRACE_KEY, GRACE_MS, MARKER_COOKIE, runCrossTab, STARTED_KEY, TABS_KEY, type CrossTabEnv } from './cross-tab.ts'

function storage() {
  const map = new Map<string, string>()
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map }
}

function browser(shared = storage(), cookie = `${MARKER_COOKIE}=1`) {
  const state = { now: 1_000_000, loggedOut: 0, closers: [] as (() => void)[], cookie }
  const tab = () => {
    const session = storage()
    const env: CrossTabEnv = {
      cookie: () => state.cookie,
      session,
      local: shared,
      now: () => state.now,
      logout: () => void state.loggedOut++,
      onClose: (handler) => {
        state.closers.push(handler)
        return () => {}
      },
    }
    return { env, session, start: () => runCrossTab(env) }
  }
  return { state, shared, tab }
}

describe('cross-tab session rules', () => {
  it('counts tabs and sets a one-hour grace when the last one closes', () => {
    const { state, shared, tab } = browser()
    const a = tab()
    const b = tab()
    const stopA = a.start()
    const stopB = b.start()
    expect(shared.map.get(TABS_KEY)).toBe('2')
    expect(a.session.map.get(STARTED_KEY)).toBe(String(state.now))
    stopA()
    expect(shared.map.has(GRACE_KEY)).toBe(false)
    stopB()
    expect(shared.map.get(TABS_KEY)).toBe('0')
    expect(shared.map.get(GRACE_KEY)).toBe(String(state.now + GRACE_MS))
    expect(state.loggedOut).toBe(0)
  })

  it('continues within the grace and logs out after it', () => {
    const { state, tab } = browser()
    tab().start()()
    state.now += GRACE_MS - 1
    tab().start()()
    expect(state.loggedOut).toBe(0)
    state.now += GRACE_MS + 1
    tab().start()
    expect(state.loggedOut).toBe(1)
  })

  it('logs out when the marker cookie is gone (the browser was closed)', () => {
    const { state, tab } = browser(storage(), 'other=1')
    tab().start()
    expect(state.loggedOut).toBe(1)
  })
})

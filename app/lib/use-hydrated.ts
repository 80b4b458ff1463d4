import { useSyncExternalStore } from 'react'

const noop = () => () => {}

/** False during server rendering and hydration, true afterwards (no effect, no extra render pass). */
export const useHydrated = () =>
  useSyncExternalStore(
    noop,
    () => true,
    () => false,
  )

import { useCallback } from 'react'
import { useLocation } from 'react-router'
import { carryContext } from './context-param.ts'

/** Builds hrefs that carry the current context (spec §2), so links work without the redirect. */
export function useContextHref() {
  const { search } = useLocation()
  return useCallback((to: string) => carryContext(to, new URLSearchParams(search)), [search])
}

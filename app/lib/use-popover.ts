import { useEffect, useRef } from 'react'
import { useAfterNavigation } from './use-after-navigation.ts'

/**
 * A `<details>` that behaves as a popover once JavaScript runs (the filter panel, a list's column
 * chooser, the ⋯ menu): Escape closes it and puts focus back on its button, a press anywhere
 * outside it closes it (a press on another popover's button included, so two never lie one over
 * the other), and so does a navigation unless `keepOnNavigation` (the filter panel, which opens
 * itself on a filter text that cannot be read). Without JavaScript it stays a plain `<details>`.
 * Returns the ref to put on it.
 */
export function usePopover({ keepOnNavigation = false }: { keepOnNavigation?: boolean } = {}) {
  const ref = useRef<HTMLDetailsElement>(null)
  useAfterNavigation(() => {
    if (ref.current && !keepOnNavigation) ref.current.open = false
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const details = ref.current
      if (e.key !== 'Escape' || !details?.open) return
      details.open = false
      details.querySelector('summary')?.focus()
    }
    const onPointer = (e: PointerEvent) => {
      const details = ref.current
      if (details?.open && e.target instanceof Node && !details.contains(e.target)) details.open = false
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [])
  return ref
}

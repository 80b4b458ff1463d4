import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import type { BlockState } from '#common/blocks.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Answer, Row } from '#app/lib/platform-api.ts'

/** A block product on sale with the account's price of each period (GET /groups/{context}/block-products). */
export type BlockOffer = Row<'/groups/{context}/block-products'>

/** A block as /groups/{context}/blocks/{id} answers it. */
export type Block = Answer<'/groups/{context}/blocks/{id}'>

const COLORS: Record<BlockState, 'green' | 'amber' | 'red' | 'blue' | 'grey'> = {
  pending: 'blue',
  active: 'green',
  expiring: 'amber',
  expired: 'red',
  cancelled: 'grey',
  failed: 'red',
}

export function BlockStatus({ status }: { status: BlockState }) {
  const { t } = useTranslation('blocks')
  return (
    <Badge color={COLORS[status] ?? 'grey'} data-testid="block-status" title={status}>
      {t(`status.${status}`)}
    </Badge>
  )
}

/** While the provider places a block, the page refreshes: a revalidation every 2 s while the tab is visible. */
export function useRefreshWhile(running: boolean) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') void revalidator.revalidate()
    }, 2000)
    return () => clearInterval(timer)
  }, [running, revalidator])
}

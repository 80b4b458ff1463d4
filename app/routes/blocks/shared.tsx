import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import type { BlockState } from '#common/blocks.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'

/** A block product on sale with the account's price of each period (GET /groups/{context}/block-products). */
export type BlockOffer = { code: string; name: string; periods: number[]; prices: { period_years: number; order_minor: number; renew_minor: number; currency: string }[] }

/** A block as /groups/{context}/blocks/{id} answers it. */
export type Block = {
  id: string
  group_id: string
  label: string
  label_unicode: string
  product_code: string
  product_name: string | null
  account_name: string
  period_years: number
  trademark_ref: string
  status: BlockState
  covered_tlds: string[]
  provider: string | null
  provider_id: string | null
  placed_at: string | null
  expires_at: string | null
  cancelled_at: string | null
  failure_reason: string | null
  created_by: string
  version: number
  created_at: string
  updated_at: string
  transactions: { transaction_id: string; state: 'reserved' | 'settled' | 'released' | 'refunded'; action: string; period: number; amount_minor: number; currency: string; created_at: string }[]
}

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

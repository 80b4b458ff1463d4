export const ITEM_STATES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const
export const isRunning = (state: string) => state === 'pending' || state === 'processing'

export const stateColor = (state: string) =>
  (({ pending: 'grey', processing: 'blue', completed: 'green', failed: 'red', cancelled: 'amber', partial: 'yellow' }) as const)[state as 'pending'] ?? 'grey'

export type MoneyTotal = { currency: string; minor: number }

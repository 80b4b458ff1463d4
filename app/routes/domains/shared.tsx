import { useTranslation } from '#app/lib/use-translation.ts'
import { Badge } from '#app/components/ui/badge.tsx'

const STATUS_COLOR: Record<string, 'green' | 'amber' | 'red' | 'blue' | 'grey'> = {
  active: 'green',
  pending: 'blue',
  transferring: 'blue',
  expired: 'amber',
  redemption: 'red',
  'pending-delete': 'red',
}

/** A domain status as a coloured, translated badge. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('domains')
  return (
    <Badge color={STATUS_COLOR[status] ?? 'grey'} data-testid="domain-status">
      {t(`status.${status}`, { defaultValue: status })}
    </Badge>
  )
}

/** A job's progress: a real <progress> (readable without styles) with its count. */
export function JobProgress({ done, total, state }: { done: number; total: number; state: string }) {
  const { t } = useTranslation('domains')
  return (
    <div className="space-y-1" data-testid="job-progress">
      <progress className="h-3 w-full" max={Math.max(total, 1)} value={done} aria-label={t('job.progress')} />
      <p className="text-sm" data-testid="job-state">
        {t('job.count', { done, total })} — {t(`job.states.${state}`, { defaultValue: state })}
      </p>
    </div>
  )
}

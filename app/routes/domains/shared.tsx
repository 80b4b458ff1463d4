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

/** How a contact reads in a choice or a summary: its name, and its organisation when it has one. */
export const contactLabel = (contact: { name: string; organisation?: string | null }) => (contact.organisation ? `${contact.name} (${contact.organisation})` : contact.name)

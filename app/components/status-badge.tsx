import { useTranslation } from '#app/lib/use-translation.ts'
import { isPermission, permissionLabel } from '#common/permissions.ts'
import { Badge } from './ui/badge.tsx'

type Color = 'green' | 'amber' | 'red' | 'blue' | 'grey' | 'teal' | 'yellow'

/**
 * What a code means, by vocabulary: its colour. The label is `status.<kind>.<code>` in common.json
 * (en, es, ja); the code itself shows on hover, for people who talk to the registry in its words.
 */
const COLORS: Record<string, Record<string, Color>> = {
  domain: { active: 'green', pending: 'blue', transferring: 'blue', expired: 'amber', redemption: 'red', 'pending-delete': 'red', deleted: 'grey' },
  // EPP statuses (RFC 5731): prohibitions are protections (teal), holds stop resolution (red), pending steps are blue.
  epp: {
    ok: 'green',
    inactive: 'grey',
    clientHold: 'red',
    serverHold: 'red',
    redemptionPeriod: 'red',
    pendingRestore: 'amber',
    pendingDelete: 'red',
    addPeriod: 'blue',
    autoRenewPeriod: 'blue',
    renewPeriod: 'blue',
    transferPeriod: 'blue',
    pendingCreate: 'blue',
    pendingRenew: 'blue',
    pendingTransfer: 'blue',
    pendingUpdate: 'blue',
  },
  order: { pending: 'blue', processing: 'blue', completed: 'green', failed: 'red', cancelled: 'grey', partial: 'amber' },
  transaction: { reserved: 'blue', settled: 'green', released: 'grey', refunded: 'amber' },
  job: { queued: 'grey', running: 'blue', completed: 'green', failed: 'red', pending: 'grey', done: 'green' },
  approval: { pending: 'amber', approved: 'green', rejected: 'red', expired: 'grey', applied: 'green' },
  publish: { pending: 'amber', published: 'green', failed: 'red' },
  dnssec: { unsigned: 'grey', signing: 'blue', signed: 'green', unsigning: 'amber' },
  account: { active: 'green', suspended: 'red' },
  user: { active: 'green', invited: 'amber', disabled: 'red' },
  handle: { pending: 'blue', synced: 'green', failed: 'red' },
  changeSet: { draft: 'grey', awaiting_approval: 'amber', rejected: 'red', running: 'blue', paused: 'amber', completed: 'green', rolled_back: 'red', cancelled: 'grey' },
  changeObject: { change: 'blue', unchanged: 'grey', conflict: 'red', applied: 'green', failed: 'red', rolled_back: 'amber', skipped: 'grey', approval_requested: 'amber' },
  role: {},
}

export type StatusKind = keyof typeof COLORS

/** The colour of a code of a vocabulary (grey when unknown; an EPP prohibition is teal). */
export function statusColor(kind: StatusKind, code: string): Color {
  const color = COLORS[kind]?.[code]
  if (color) return color
  if (kind === 'epp' && /Prohibited$/.test(code)) return 'teal'
  if (kind === 'role') return code === 'staff' ? 'blue' : 'grey'
  return 'grey'
}

/**
 * A role or ability ("domain-admin") as people say it ("Domain admin"): its label from the
 * permission registry (common/permissions.ts); a held name outside the registry shows as it is.
 */
export function useRoleLabel() {
  const { t } = useTranslation('common')
  return (name: string) => (isPermission(name) ? t(permissionLabel(name), { defaultValue: name }) : name)
}

/**
 * A status, state or role as a translated label in its colour, the raw code on hover: one look for
 * domain and EPP statuses, order, job and approval states, publishing and DNSSEC, and roles.
 */
export function StatusBadge({ kind, code, className, ...props }: { kind: StatusKind; code: string; className?: string } & Omit<React.ComponentProps<'span'>, 'color' | 'children'>) {
  const { t } = useTranslation('common')
  const roleLabel = useRoleLabel()
  const label = kind === 'role' ? roleLabel(code) : t(`status.${kind}.${code}`, { defaultValue: humanize(code) })
  return (
    <Badge color={statusColor(kind, code)} title={code} data-code={code} className={className} {...props}>
      {label}
    </Badge>
  )
}

/** "pending-delete", "clientHold" → "Pending delete", "Client hold": better than the code where no label exists. */
function humanize(code: string) {
  const words = code
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

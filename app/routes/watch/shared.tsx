import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { CaseState, Risk } from '#common/watch.ts'

const RISK_COLORS: Record<Risk, 'grey' | 'amber' | 'red'> = { low: 'grey', high: 'amber', critical: 'red' }
const STATE_COLORS: Record<CaseState, 'blue' | 'amber' | 'teal' | 'green'> = { new: 'blue', triaged: 'amber', action: 'teal', resolved: 'green' }

export function RiskBadge({ risk }: { risk: Risk }) {
  const { t } = useTranslation('watch')
  return <Badge color={RISK_COLORS[risk] ?? 'grey'}>{t(`risk.${risk}`)}</Badge>
}

export function StateBadge({ state }: { state: CaseState }) {
  const { t } = useTranslation('watch')
  return <Badge color={STATE_COLORS[state] ?? 'grey'}>{t(`state.${state}`)}</Badge>
}

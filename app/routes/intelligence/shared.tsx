import { Badge } from '#app/components/ui/badge.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { CellState } from '#common/intelligence.ts'

/** A form's list of words (space, comma or semicolon separated). */
export const words = (text: string | undefined) => (text ?? '').split(/[\s,;]+/).filter(Boolean)

type Color = 'grey' | 'blue' | 'green' | 'red' | 'amber' | 'teal' | 'yellow'

/** The area's own screens: the items, the modules' catalogue, the templates and the trail. */
export function IntelligenceNav({ current }: { current: 'items' | 'modules' | 'templates' | 'log' }) {
  const { t } = useTranslation('intelligence')
  const links = [
    { key: 'items', to: '/intelligence' },
    { key: 'modules', to: '/intelligence/modules' },
    { key: 'templates', to: '/intelligence/templates' },
    { key: 'log', to: '/intelligence/log' },
  ] as const
  return <Tabs label={t('nav.label')} testId="intelligence-nav" tabs={links.map((l) => ({ to: l.to, label: t(`nav.${l.key}`), current: l.key === current }))} />
}

const RUN_COLORS: Record<string, Color> = { queued: 'grey', running: 'blue', done: 'green', failed: 'red' }
export function RunBadge({ status }: { status: string }) {
  const { t } = useTranslation('intelligence')
  return <Badge color={RUN_COLORS[status] ?? 'grey'}>{t(`runStatus.${status}`, { defaultValue: status })}</Badge>
}

/** A cell's colour: covered blue/teal, exposed to a third party red/amber, free to take green, the rest grey. */
export const CELL_COLORS: Record<CellState, Color> = {
  ours: 'blue',
  'ours-elsewhere': 'teal',
  blocked: 'teal',
  'third-party-live': 'red',
  'third-party-mail': 'red',
  'third-party-parked': 'amber',
  'third-party': 'amber',
  available: 'green',
  premium: 'yellow',
  restricted: 'yellow',
  'not-offered': 'grey',
  unknown: 'grey',
}

/** The cell's background in the matrix, by its colour (light and dark). */
export const CELL_CLASSES: Record<Color, string> = {
  blue: 'bg-blue-50 text-blue-900 dark:bg-blue-950/50 dark:text-blue-100',
  teal: 'bg-teal-50 text-teal-900 dark:bg-teal-950/50 dark:text-teal-100',
  red: 'bg-red-50 text-red-900 dark:bg-red-950/50 dark:text-red-100',
  amber: 'bg-amber-50 text-amber-900 dark:bg-amber-950/50 dark:text-amber-100',
  green: 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-100',
  yellow: 'bg-yellow-50 text-yellow-900 dark:bg-yellow-950/50 dark:text-yellow-100',
  grey: 'bg-slate-50 text-slate-500 dark:bg-slate-900 dark:text-slate-400',
}

/** The short mark a cell shows (its state in two letters), its full words in the legend and the cell's title. */
export const CELL_MARKS: Record<CellState, string> = {
  ours: '●',
  'ours-elsewhere': '◐',
  blocked: '■',
  'third-party-live': '▲',
  'third-party-mail': '✉',
  'third-party-parked': 'P',
  'third-party': '△',
  available: '+',
  premium: '$',
  restricted: 'R',
  'not-offered': '–',
  unknown: '?',
}

export function CellBadge({ state }: { state: CellState }) {
  const { t } = useTranslation('intelligence')
  return <Badge color={CELL_COLORS[state]}>{t(`cell.${state}`)}</Badge>
}

export function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return <Badge color="grey">—</Badge>
  return <Badge color={score >= 80 ? 'green' : score >= 50 ? 'amber' : 'red'}>{score}</Badge>
}

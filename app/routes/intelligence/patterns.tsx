import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useItemFrame } from './frame.tsx'

/** /intelligence/{id}/patterns: the rows the newest run analysed — the brand strings, the brand with each keyword, the lookalike engine's closest labels. */
export default function Patterns() {
  const { t } = useTranslation('intelligence')
  const { item, runs } = useItemFrame()
  const run = runs.find((r) => r.patterns.length)
  return (
    <Card>
      <CardTitle className="mb-1">{t('patterns.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t('patterns.help', { score: item.lookalike_min_score })}</p>
      <CardTable
        items={run?.patterns ?? []}
        minWidth="min-w-[28rem]"
        testId="intelligence-patterns"
        empty={{ text: t('patterns.empty'), testId: 'intelligence-patterns-empty' }}
        headings={[{ label: t('results.pattern') }, { label: t('patterns.kind') }, { label: t('patterns.score'), className: 'text-right' }, { label: t('patterns.fuzzers') }]}
        render={(p) => (
          <CardTableRow key={p.label}>
            <td className="py-2 pr-3 font-mono">{p.label}</td>
            <td className="py-2 pr-3">{t(`patternKind.${p.kind}`)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{p.score}</td>
            <td className="py-2 text-xs">{p.fuzzers?.join(', ') ?? '—'}</td>
          </CardTableRow>
        )}
      />
    </Card>
  )
}

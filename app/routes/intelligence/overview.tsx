import { Form } from 'react-router'
import { DateText } from '#app/components/date-text.tsx'
import { CardTable, CardTableRow, DetailList } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import type { Route } from './+types/overview.ts'
import { useItemFrame } from './frame.tsx'
import { itemScreen } from './item.server.ts'
import { RunBadge, ScoreBadge } from './shared.tsx'

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await itemScreen(request, context, params)
  requireChange(request, screen.user, 'prospect-manager')
  const t = getInstance(context).t
  const back = `${requestUrl(request).pathname}${requestUrl(request).search}`
  try {
    await screen.platform.post('/groups/{context}/intelligence/items/{id}/runs', { path: screen.path })
  } catch (error) {
    return backWith(request, back, { content: refusalTextOf(t, error), color: 'error' })
  }
  return backWith(request, back, { content: t('intelligence:done.queued'), color: 'success' })
}

/** /intelligence/{id}: what the item analyses and its runs, newest first, each with its progress and totals. */
export default function ItemOverview() {
  const { t, i18n } = useTranslation('intelligence')
  const { item, runs, canManage } = useItemFrame()
  const open = runs.find((r) => r.status === 'queued' || r.status === 'running')
  return (
    <div className="space-y-4">
      <Card>
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <CardTitle>{t('detail.settings')}</CardTitle>
          {canManage ? (
            <Form method="post">
              <Button type="submit" size="sm" data-testid="intelligence-run" disabled={!!open}>
                {open ? t('runs.running') : t('runs.runNow')}
              </Button>
            </Form>
          ) : null}
        </div>
        <DetailList
          rows={[
            [t('fields.brand'), <span className="font-mono">{[item.brand, ...item.strings].join(', ')}</span>],
            [t('fields.keywords'), item.keywords.join(', ')],
            [t('fields.known_domains'), item.known_domains.length ? <span className="font-mono">{item.known_domains.join(' ')}</span> : ''],
            [t('fields.priority_cctlds'), item.priority_cctlds.map((c) => `.${c}`).join(' ')],
            [t('fields.tld_groups'), item.tld_groups.map((g) => t(`group.${g}`)).join(', ')],
            [t('fields.modules'), item.modules.map((m) => t(`module.${m}.name`)).join(', ')],
            [t('fields.schedule'), t(`schedule.${item.schedule}`)],
          ]}
        />
      </Card>
      <Card>
        <CardTitle className="mb-3">{t('runs.title')}</CardTitle>
        <CardTable
          items={runs}
          minWidth="min-w-[40rem]"
          testId="intelligence-runs"
          empty={{ text: t('runs.empty'), testId: 'intelligence-runs-empty' }}
          headings={[
            { label: t('runs.started') },
            { label: t('runs.status') },
            { label: t('runs.progress') },
            { label: t('totals.covered'), className: 'text-right' },
            { label: t('totals.exposed'), className: 'text-right' },
            { label: t('totals.cost'), className: 'text-right' },
            { label: t('score.brand'), className: 'text-right' },
          ]}
          render={(r) => (
            <CardTableRow key={r.id} testId={`intelligence-run-${r.status}`}>
              <td className="py-2 pr-3">
                <DateText value={r.created_at} lng={i18n.language} />
                <span className="ml-2 text-xs text-slate-500">{t(`trigger.${r.trigger}`)}</span>
              </td>
              <td className="py-2 pr-3">
                <RunBadge status={r.status} />
                {r.error ? <span className="ml-2 text-xs text-red-700 dark:text-red-300">{r.error}</span> : null}
              </td>
              <td className="py-2 pr-3">
                <progress className="h-2 w-32 align-middle" max={Math.max(r.total, 1)} value={r.status === 'done' ? Math.max(r.total, 1) : r.done} aria-label={t('runs.progress')} />
                <span className="ml-2 text-xs tabular-nums text-slate-500">{t('runs.checked', { done: r.done, total: r.total })}</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{r.summary?.covered ?? '—'}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{r.summary?.exposed ?? '—'}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{r.summary?.cost.map((c) => formatMoney(c.minor, c.currency, i18n.language)).join(' + ') || '—'}</td>
              <td className="py-2 text-right">{r.summary ? <ScoreBadge score={r.summary.score} /> : '—'}</td>
            </CardTableRow>
          )}
        />
      </Card>
    </div>
  )
}

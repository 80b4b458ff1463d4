import { data, Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { PlatformError } from '#app/lib/platform-client.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CELL_STATES, CLOSABLE_STATES, TLD_GROUPS, type CellState } from '#common/intelligence.ts'
import { formatMoney } from '#common/money.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/results.ts'
import { useItemFrame } from './frame.tsx'
import { itemScreen } from './item.server.ts'
import { CELL_CLASSES, CELL_COLORS, CELL_MARKS, ScoreBadge } from './shared.tsx'

/** At most this many cells go to the cart in one "close the gap". */
const CLOSE_LIMIT = 100

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await itemScreen(request, context, params)
  try {
    const gap = await screen.platform.get('/groups/{context}/intelligence/items/{id}/gap_analysis', { path: screen.path })
    return { gap, canOrder: canChange(request, screen.user, 'domain-manager') }
  } catch (error) {
    // Spec §7/§8: the gap analysis's 404 comes back to the caller — an item not analysed yet is a state of this screen.
    if (error instanceof PlatformError && error.status === 404 && (error.data as { code?: string } | null)?.code === 'gap_analysis.none') return { gap: null, canOrder: false }
    throw error
  }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await itemScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const form = await request.formData()
  const t = getInstance(context).t
  const url = requestUrl(request)
  const back = `${url.pathname}${url.search}`
  const names = [...new Set(form.getAll('names').map(String))].slice(0, CLOSE_LIMIT)
  if (!names.length) return backWith(request, back, { content: t('intelligence:close.none'), color: 'error' })
  const item = await screen.platform.get('/groups/{context}/intelligence/items/{id}', { path: screen.path })
  if (item.kind !== 'client') return data({ error: 'prospect' }, { status: 400 })
  // The cart is the account's: each name priced there by the pricing engine, in the account's currency.
  let added = 0
  const failed: string[] = []
  for (const name of names) {
    try {
      await screen.platform.post('/groups/{context}/cart/items', { path: { context: item.group_id }, body: { type: 'register', name, period: 1 } })
      added++
    } catch (error) {
      failed.push(`${name}: ${refusalTextOf(t, error)}`)
    }
  }
  if (failed.length) return backWith(request, back, { content: t('intelligence:close.partly', { added, failed: failed.join('; ') }), color: 'error' })
  return backWith(request, back, { content: t('intelligence:close.done', { count: added }), color: 'success' })
}

type Gap = NonNullable<Route.ComponentProps['loaderData']['gap']>
type Cell = Gap['cells'][number]

/** /intelligence/{id}/results: the gap matrix of the newest finished run — patterns × TLD groups, every cell one state with its evidence. */
export default function Results({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('intelligence')
  const { item } = useItemFrame()
  const { gap, canOrder } = loaderData
  if (!gap)
    return (
      <Card data-testid="gap-none">
        <CardTitle className="mb-2">{t('results.noneTitle')}</CardTitle>
        <p className="text-sm text-slate-600 dark:text-slate-300">{t('results.none')}</p>
      </Card>
    )
  const closeable = canOrder && item.kind === 'client'
  return (
    <Form method="post" className="space-y-4">
      <Totals gap={gap} closeable={closeable} />
      <Matrix gap={gap} closeable={closeable} />
      <Legend />
    </Form>
  )
}

function Totals({ gap, closeable }: { gap: Gap; closeable: boolean }) {
  const { t, i18n } = useTranslation('intelligence')
  const s = gap.run.summary
  const cost = s?.cost.map((c) => formatMoney(c.minor, c.currency, i18n.language)).join(' + ') || formatMoney(0, 'USD', i18n.language).replace(/[\d.,]+/, '0')
  const figure = (label: string, value: React.ReactNode, testId: string, tone = '') => (
    <div className="min-w-[8rem]">
      <dt className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className={cn('text-2xl font-semibold tabular-nums', tone)} data-testid={testId}>
        {value}
      </dd>
    </div>
  )
  return (
    <Card>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <dl className="flex flex-wrap gap-x-8 gap-y-3">
          {figure(t('totals.covered'), s?.covered ?? 0, 'gap-covered', 'text-blue-700 dark:text-blue-300')}
          {figure(t('totals.exposed'), s?.exposed ?? 0, 'gap-exposed', 'text-red-700 dark:text-red-300')}
          {figure(t('totals.unknown'), s?.unknown ?? 0, 'gap-unknown')}
          {figure(t('totals.cost'), cost, 'gap-cost')}
          {figure(t('score.brand'), <ScoreBadge score={s?.score ?? null} />, 'gap-score')}
        </dl>
        <div className="flex flex-col items-end gap-1">
          {closeable ? (
            <Button type="submit" data-testid="gap-close" disabled={!s?.closable}>
              {t('close.submit')}
            </Button>
          ) : (
            <span className="text-xs text-slate-500">{t('close.quoteOnly')}</span>
          )}
          <span className="text-xs text-slate-500">
            {t('results.asOf')} <DateText value={gap.run.finished_at ?? gap.run.created_at} lng={i18n.language} />
          </span>
        </div>
      </div>
      {closeable ? <p className="mt-3 text-xs text-slate-500">{t('close.help')}</p> : null}
    </Card>
  )
}

function Matrix({ gap, closeable }: { gap: Gap; closeable: boolean }) {
  const { t, i18n } = useTranslation('intelligence')
  const byName = new Map(gap.cells.map((c) => [c.name, c]))
  const groups = TLD_GROUPS.map((g) => ({ group: g, columns: gap.columns.filter((c) => c.group === g) })).filter((g) => g.columns.length)
  const cellTitle = (c: Cell) => {
    const parts = [`${c.unicode_name}: ${t(`cell.${c.state}`)}`]
    if (c.price_minor !== null && c.currency) parts.push(formatMoney(c.price_minor, c.currency, i18n.language))
    if (c.evidence.registry) parts.push(`${t('evidence.registry')}: ${c.evidence.registry.available ? t('evidence.free') : c.evidence.registry.reason || t('evidence.taken')}`)
    if (c.evidence.ns?.length) parts.push(`NS ${c.evidence.ns.join(' ')}`)
    if (c.evidence.mx?.length) parts.push(`MX ${c.evidence.mx.join(' ')}`)
    if (c.evidence.a?.length) parts.push(`A ${c.evidence.a.join(' ')}`)
    if (c.evidence.block) parts.push(`${t('evidence.block')}: ${c.evidence.block.product}`)
    parts.push(`${t('evidence.checked')} ${c.checked_at.slice(0, 10)}`)
    return parts.join(' · ')
  }
  return (
    <Card className="p-0">
      {/* relative: the cells' screen-reader words (absolutely placed) scroll with the matrix instead of widening the page. */}
      <div className="relative overflow-x-auto">
        <table className="w-full border-separate border-spacing-0 text-sm" data-testid="gap-matrix">
          <caption className="sr-only">{t('results.caption')}</caption>
          <thead>
            <tr>
              <th
                rowSpan={2}
                scope="col"
                className="sticky left-0 z-10 border-b border-slate-200 bg-white px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:bg-slate-950"
              >
                {t('results.pattern')}
              </th>
              {groups.map((g) => (
                <th
                  key={g.group}
                  colSpan={g.columns.length}
                  scope="colgroup"
                  className="border-b border-l border-slate-200 px-2 py-1.5 text-center text-xs font-medium text-slate-600 dark:border-slate-800 dark:text-slate-300"
                >
                  {t(`group.${g.group}`)}
                </th>
              ))}
            </tr>
            <tr>
              {groups.flatMap((g) =>
                g.columns.map((c, i) => (
                  <th
                    key={c.tld}
                    scope="col"
                    className={cn('border-b border-slate-200 px-1 py-1 text-center font-mono text-xs font-normal text-slate-500 dark:border-slate-800', i === 0 && 'border-l')}
                  >
                    .{c.unicode}
                  </th>
                )),
              )}
            </tr>
          </thead>
          <tbody>
            {gap.run.patterns.map((p) => (
              <tr key={p.label}>
                <th scope="row" className="sticky left-0 z-10 border-b border-slate-100 bg-white px-3 py-1.5 text-left font-normal dark:border-slate-900 dark:bg-slate-950">
                  <span className="font-mono">{p.label}</span>
                  <span className="ml-2 text-xs text-slate-500">{p.kind === 'lookalike' ? `${t(`patternKind.${p.kind}`)} ${p.score}` : t(`patternKind.${p.kind}`)}</span>
                </th>
                {groups.flatMap((g) =>
                  g.columns.map((col, i) => {
                    const c = byName.get(`${p.label}.${col.tld}`)
                    if (!c) return <td key={col.tld} className={cn('border-b border-slate-100 dark:border-slate-900', i === 0 && 'border-l')} />
                    const state = c.state as CellState
                    const closable = closeable && CLOSABLE_STATES.includes(state)
                    return (
                      <td key={col.tld} className={cn('border-b border-slate-100 p-0.5 text-center dark:border-slate-900', i === 0 && 'border-l border-l-slate-200 dark:border-l-slate-800')}>
                        <label
                          title={cellTitle(c)}
                          data-testid={`cell-${c.name}`}
                          data-state={state}
                          className={cn('flex h-8 min-w-9 items-center justify-center gap-1 rounded px-1 text-xs font-medium', CELL_CLASSES[CELL_COLORS[state]], closable && 'cursor-pointer')}
                        >
                          {closable ? <input type="checkbox" name="names" value={c.name} defaultChecked className="size-3.5" aria-label={t('close.cellLabel', { name: c.unicode_name })} /> : null}
                          <span aria-hidden="true">{CELL_MARKS[state]}</span>
                          <span className="sr-only">{cellTitle(c)}</span>
                        </label>
                      </td>
                    )
                  }),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

function Legend() {
  const { t } = useTranslation('intelligence')
  return (
    <Card>
      <CardTitle className="mb-2 text-sm">{t('results.legend')}</CardTitle>
      <ul className="grid grid-cols-1 gap-x-6 gap-y-1.5 text-xs sm:grid-cols-2 lg:grid-cols-3">
        {CELL_STATES.map((s) => (
          <li key={s} className="flex items-center gap-2">
            <span aria-hidden="true" className={cn('inline-flex size-6 items-center justify-center rounded font-medium', CELL_CLASSES[CELL_COLORS[s]])}>
              {CELL_MARKS[s]}
            </span>
            <span>
              <span className="font-medium">{t(`cell.${s}`)}</span> <span className="text-slate-500">— {t(`cellHelp.${s}`)}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-500">
        {t('results.cartHint')}{' '}
        <Link to="/domains/order" className="text-blue-700 hover:underline dark:text-blue-400">
          {t('results.cartLink')}
        </Link>
      </p>
    </Card>
  )
}

import { Form, Link } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isZoneFix, MEASURES, type Measure } from '#common/intelligence.ts'
import type { Route } from './+types/registry-lock-focus.ts'
import { itemScreen } from './item.server.ts'
import { ScoreBadge } from './shared.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await itemScreen(request, context, params)
  // The worst domains first: a brand of thousands shows the hundred that need work most.
  const security = await screen.platform.get('/groups/{context}/intelligence/items/{id}/security', { path: screen.path, query: { limit: SHOWN } })
  return { security, canFix: screen.canManage && canChange(request, screen.user, 'dns-manager') }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await itemScreen(request, context, params)
  requireChange(request, screen.user, 'prospect-manager')
  requireChange(request, screen.user, 'dns-manager')
  const form = await request.formData()
  const t = getInstance(context).t
  const url = requestUrl(request)
  const back = `${url.pathname}${url.search}`
  const measure = String(form.get('measure') ?? '')
  const domain = String(form.get('domain') ?? '')
  if (!(MEASURES as readonly string[]).includes(measure)) return backWith(request, back, { content: t('intelligence:fix.unknown'), color: 'error' })
  try {
    const done = await screen.platform.post('/groups/{context}/intelligence/items/{id}/fixes', {
      path: screen.path,
      body: { domain_id: String(form.get('domain_id') ?? ''), measure: measure as Measure },
    })
    return backWith(request, back, { content: done.added ? t('intelligence:fix.done', { domain: done.domain, record: done.added }) : t('intelligence:fix.already', { domain }), color: 'success' })
  } catch (error) {
    return backWith(request, back, { content: refusalTextOf(t, error), color: 'error' })
  }
}

const SHOWN = 100

/** Where a failing point that is not a zone record is fixed: the domain's own screens (lock and DS through their approval where the spec asks it). */
const FIX_LINKS: Partial<Record<Measure, (id: string) => string>> = {
  'registry-lock': (id) => `/domains/${id}`,
  dnssec: (id) => `/domains/${id}/dnssec`,
  'ns-redundancy': (id) => `/domains/${id}`,
  'mta-sts': (id) => `/domains/${id}/dns`,
  dkim: (id) => `/domains/${id}/dns`,
}

/** /intelligence/{id}/registry-lock-focus: the security score — each measure per domain with our published weights, and each failing point's fix. */
export default function RegistryLockFocus({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('intelligence')
  const { security, canFix } = loaderData
  return (
    <div className="space-y-4">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <CardTitle>{t('score.title')}</CardTitle>
            <p className="mt-1 max-w-2xl text-sm text-slate-600 dark:text-slate-300">{t('score.help')}</p>
          </div>
          <div className="text-right">
            <div className="text-xs uppercase tracking-wide text-slate-500">{t('score.brand')}</div>
            <div className="text-3xl font-semibold tabular-nums" data-testid="brand-score">
              {security.score ?? '—'}
            </div>
            <div className="text-xs text-slate-500">{t('score.domains', { count: security.total })}</div>
            {security.total > security.domains.length ? <div className="text-xs text-slate-500">{t('score.worstShown', { count: security.domains.length })}</div> : null}
          </div>
        </div>
        <h3 className="mt-4 text-sm font-medium">{t('score.weights')}</h3>
        <ul className="mt-2 flex flex-wrap gap-2 text-xs" data-testid="score-weights">
          {MEASURES.map((m) => (
            <li key={m} className="rounded-md border border-slate-200 px-2 py-1 dark:border-slate-800">
              {t(`measure.${m}`)} <span className="font-semibold tabular-nums">{security.weights[m]}</span>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="p-0">
        {security.domains.length ? (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[56rem] text-sm" data-testid="score-table">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800">
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t('score.domain')}
                  </th>
                  <th scope="col" className="px-2 py-2 text-right font-medium">
                    {t('score.score')}
                  </th>
                  {MEASURES.map((m) => (
                    <th key={m} scope="col" className="px-2 py-2 font-medium">
                      {t(`measure.${m}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {security.domains.map((d) => (
                  <tr key={d.id} className="border-b border-slate-100 align-top dark:border-slate-900" data-testid={`score-${d.name}`}>
                    <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
                      <Link to={`/domains/${d.id}`} className="text-blue-700 hover:underline dark:text-blue-400">
                        {d.name}
                      </Link>
                      {d.zone_id ? null : <div className="font-sans text-xs text-slate-500">{t('score.notHosted')}</div>}
                    </th>
                    <td className="px-2 py-2 text-right">
                      <ScoreBadge score={d.score} />
                    </td>
                    {MEASURES.map((m) => (
                      <td key={m} className="px-2 py-2">
                        <MeasureCell measure={m} result={d.measures[m]} domainId={d.id} domain={d.name} hosted={!!d.zone_id} mx={d.mx} canFix={canFix} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="p-4 text-sm text-slate-600 dark:text-slate-300" data-testid="score-empty">
            {t('score.empty')}
          </p>
        )}
      </Card>
    </div>
  )
}

function MeasureCell({ measure, result, domainId, domain, hosted, mx, canFix }: { measure: Measure; result: string; domainId: string; domain: string; hosted: boolean; mx: boolean; canFix: boolean }) {
  const { t } = useTranslation('intelligence')
  if (result === 'pass') return <Badge color="green">{t('result.pass')}</Badge>
  if (result === 'unseen') return <span className="text-xs text-slate-500">{t('result.unseen')}</span>
  const zoneFix = isZoneFix(measure) && hosted && !(measure === 'dkim' && mx)
  const link = FIX_LINKS[measure]
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge color="red">{t('result.fail')}</Badge>
      {zoneFix && canFix ? (
        <Form method="post">
          <input type="hidden" name="domain_id" value={domainId} />
          <input type="hidden" name="domain" value={domain} />
          <Button
            type="submit"
            name="measure"
            value={measure}
            size="sm"
            variant="outline"
            aria-label={t('fix.label', { measure: t(`measure.${measure}`), domain })}
            data-testid={`fix-${measure}-${domain}`}
          >
            {t('fix.apply')}
          </Button>
        </Form>
      ) : link ? (
        <Link to={link(domainId)} className="text-xs text-blue-700 hover:underline dark:text-blue-400">
          {t(`fixWay.${measure}`)}
        </Link>
      ) : null}
    </div>
  )
}

import { data, Form, redirect } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { DetailList } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { backWith, flashHeader } from '#app/lib/flash.server.ts'
import { canChange, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ChangeText } from './form.tsx'
import { policyDriftList } from './lists.ts'
import type { Route } from './+types/policy.ts'

const driftOf = (id: string): ListDefinition => ({ ...policyDriftList, apiPath: (ctx) => `/groups/${encodeURIComponent(ctx)}/change-set-policies/${id}/drift` })

/** /change-sets/policies/{id}: what the policy asks of which objects, the ones that drift, evaluate now, and fix them with a change set. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const [policy, { page, headers }] = await Promise.all([
    platform.get('/groups/{context}/change-set-policies/{id}', { path: { context: groupContext, id: params.id } }),
    loadListPage(request, context, driftOf(params.id), groupContext),
  ])
  const canFix = canChange(request, user, policy.target === 'zones' ? 'dns-manager' : 'domain-manager')
  return data({ policy, page, canFix, meta: pageMeta(request, context, policy.name) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const t = getInstance(context).t
  const intent = String((await request.formData()).get('intent') ?? '')
  const path = { context: groupContext, id: params.id }
  try {
    if (intent === 'fix') {
      const policy = await platform.get('/groups/{context}/change-set-policies/{id}', { path })
      requireChange(request, user, policy.target === 'zones' ? 'dns-manager' : 'domain-manager')
      const set = await platform.post('/groups/{context}/change-set-policies/{id}/fix', { path })
      return redirect(carryContext(`/change-sets/${set.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('change-sets:policies.done.fix'), color: 'success' }) } })
    }
    await platform.post('/groups/{context}/change-set-policies/{id}/evaluate', { path })
  } catch (error) {
    return backWith(request, `${url.pathname}${url.search}`, { content: refusalTextOf(t, error), color: 'error' })
  }
  return backWith(request, `${url.pathname}${url.search}`, { content: t('change-sets:policies.done.evaluate'), color: 'success' })
}

export default function Policy({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('change-sets')
  const { policy, page, canFix } = loaderData
  const n = (value: number | null) => (value === null ? '—' : value.toLocaleString(i18n.language))
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={[
          { label: t('title'), to: '/change-sets' },
          { label: t('policies.title'), to: '/change-sets/policies' },
        ]}
        title={policy.name}
        description={t('detail.description', { target: t(`targets.${policy.target}`), kind: t(`kinds.${policy.change.kind}`) })}
        actions={
          <>
            <Form method="post">
              <Button type="submit" name="intent" value="evaluate" size="sm" variant="outline" data-testid="policy-evaluate">
                {t('policies.evaluate')}
              </Button>
            </Form>
            {canFix && policy.drifting ? (
              <Form method="post">
                <Button type="submit" name="intent" value="fix" size="sm" data-testid="policy-fix">
                  {t('policies.fix', { count: policy.drifting })}
                </Button>
              </Form>
            ) : null}
          </>
        }
      />
      <section className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="text-base font-semibold">{t('policies.asks')}</h2>
          <DetailList
            rows={[
              [t('fields.filter'), policy.filter ? <code className="break-all font-mono text-xs">{policy.filter}</code> : t('everything')],
              [t('detail.change'), <ChangeText key="change" change={policy.change} />],
              [t('fields.created_by_label'), policy.created_by_label],
            ]}
          />
        </div>
        <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid="policy-evaluation">
          <h2 className="text-base font-semibold">{t('policies.evaluation')}</h2>
          <dl className="grid grid-cols-2 gap-3 text-center">
            <div className="rounded-md bg-slate-50 p-2 dark:bg-slate-800/60">
              <dt className="text-xs text-slate-500 dark:text-slate-400">{t('policies.fields.objects')}</dt>
              <dd className="text-lg font-semibold tabular-nums">{n(policy.objects)}</dd>
            </div>
            <div className="rounded-md bg-slate-50 p-2 dark:bg-slate-800/60" data-testid="policy-drifting">
              <dt className="text-xs text-slate-500 dark:text-slate-400">{t('policies.fields.drifting')}</dt>
              <dd className={`text-lg font-semibold tabular-nums ${policy.drifting ? 'text-amber-700 dark:text-amber-400' : ''}`}>{n(policy.drifting)}</dd>
            </div>
          </dl>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {policy.evaluated_at ? (
              <>
                {t('policies.evaluatedAt')} <DateText value={policy.evaluated_at} lng={i18n.language} time />
              </>
            ) : (
              t('policies.notEvaluated')
            )}
          </p>
          {policy.last_error ? <p className="text-sm text-red-700 dark:text-red-400">{policy.last_error}</p> : null}
        </div>
      </section>
      <section className="space-y-2">
        <h2 className="text-base font-semibold">{t('policies.drift')}</h2>
        <DataTable
          def={driftOf(policy.id)}
          page={page}
          labels={(key) => t(`policies.fields.${key}`, { defaultValue: t(`fields.${key}`, { defaultValue: key }) })}
          renderCell={(row, key) => {
            if (key === 'state') return t(`policies.states.${String(row.state)}`)
            if (key === 'diff') return <pre className="max-w-xl whitespace-pre-wrap break-all font-mono text-xs">{String(row.diff ?? '')}</pre>
            if (key === 'since' || key === 'checked_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} time /> : '—'
            return undefined
          }}
        />
      </section>
    </div>
  )
}

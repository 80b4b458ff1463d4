import { data, Form, Link, redirect } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { DetailList, SubNav } from '#app/components/screen-parts.tsx'
import { RuleForm, useDescribeRule, windowValues, type RuleResult, type RuleWindow } from './rule-form.tsx'
import { ruleAction } from './rule-form.server.ts'
import { SET_BASE, setOfPath } from './shared.tsx'
import type { Route } from './+types/rule.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

/**
 * One rule (…/{productId}/{ruleName} or …/custom/{ruleName}): its windows over time, each with
 * its own form (preview, save, remove), and a form for a new window of the same rule.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const url = requestUrl(request)
  const set = setOfPath(url.pathname)
  const platform = await getPlatform(request, context)
  const product = params.id ?? 'custom'
  const windows = (await platform.get('/pricing-rules/{set}/{product}/{ruleName}', { path: { set, product, ruleName: params.ruleName! } })).data
  const first = windows[0]!
  const [productRow, entity] = await Promise.all([
    first.product_id ? platform.get('/products/{id}', { path: { id: first.product_id } }) : null,
    first.pricing_entity_id ? platform.get('/pricing-entities/{id}', { path: { id: first.pricing_entity_id } }) : null,
  ])
  return { set, windows, product: productRow, entity, ruleName: params.ruleName!, meta: pageMeta(request, context, params.ruleName!) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const set = setOfPath(url.pathname)
  const platform = await getPlatform(request, context)
  const form = await request.formData()
  if (form.get('intent') === 'delete') {
    const id = String(form.get('window_id') ?? '')
    try {
      await platform.delete('/pricing-rules/{set_or_id}', { path: { set_or_id: id } })
    } catch (error) {
      const refusal = formErrorsOf(t, error, [], {}, 'pricing')
      return data({ deleteErrors: refusal.formErrors }, { status: 400 })
    }
    // The last window gone, the rule is gone: back to its list.
    const left = await platform.get('/pricing-rules/{set}/{product}/{ruleName}', { path: { set, product: params.id ?? 'custom', ruleName: params.ruleName! } }).then(
      (r) => r.data.length,
      () => 0,
    )
    const to = left ? url.pathname : params.id ? `${SET_BASE[set]}/${params.id}` : `${SET_BASE[set]}/custom`
    return redirect(carryContext(to, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:removed'), color: 'success' }) } })
  }
  return ruleAction(request, platform, t, set, !params.id, form)
}

export default function Rule({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  const describe = useDescribeRule()
  const { set, windows, product, entity, ruleName } = loaderData
  const first = windows[0]!
  const base = `${SET_BASE[set]}/${first.product_id ?? 'custom'}/${encodeURIComponent(ruleName)}`
  const answer = actionData && 'result' in actionData ? (actionData as RuleResult) : null
  const deleteErrors = actionData && 'deleteErrors' in actionData ? (actionData.deleteErrors as string[]) : null
  const level = `${set}-${first.product_id ? 'product' : 'custom'}`
  const newWindow = { ...windowValues(first), window_id: '', version: '', starts_at: '', ends_at: '', below_cost_reason: '' }
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href(first.product_id ? `${SET_BASE[set]}/${first.product_id}` : `${SET_BASE[set]}/custom`)}>
          {t(`rules.title.${set}${first.product_id ? '' : 'Custom'}`)}
        </Link>
      </p>
      <h1 className="font-mono text-2xl font-semibold">{ruleName}</h1>
      <SubNav
        links={[
          { to: base, label: t('rules.windows'), current: true },
          { to: `${base}/log`, label: t('log') },
        ]}
      />
      <Card>
        <DetailList
          rows={[
            [t('rules.fields.level'), t(`levels.${level}`)],
            [
              t('rules.fields.entity'),
              entity ? (
                <Link className="hover:underline" to={href(`/invoicing/pricing-entities/${entity.id}`)}>
                  {entity.name}
                </Link>
              ) : (
                t('rules.everyList')
              ),
            ],
            [
              t('rules.fields.product.code'),
              product ? (
                <Link className="font-mono hover:underline" to={href(`/products/${product.id}`)}>
                  {product.code}
                </Link>
              ) : (
                t('rules.selectorOf', { selector: selectorText(first) })
              ),
            ],
          ]}
        />
      </Card>
      {deleteErrors ? (
        <p role="alert" className="text-sm text-red-700">
          {deleteErrors.join(' ')}
        </p>
      ) : null}
      {windows.map((w) => (
        <Card key={w.id} data-testid="rule-window">
          <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
            <CardTitle>
              {describe(w)}{' '}
              <span className="text-sm font-normal text-slate-500">
                {w.starts_at ? formatDateTime(w.starts_at, i18n.language) : t('rules.always')} – {w.ends_at ? formatDateTime(w.ends_at, i18n.language) : t('rules.noEnd')}
              </span>
            </CardTitle>
            <Form method="post">
              <input type="hidden" name="window_id" value={w.id} />
              <Button type="submit" name="intent" value="delete" variant="outline" size="sm">
                {t('rules.remove')}
              </Button>
            </Form>
          </div>
          {w.below_cost_reason ? <p className="mb-2 text-sm text-amber-800 dark:text-amber-300">{t('rules.belowCostReason', { reason: w.below_cost_reason })}</p> : null}
          <details open={answer?.window_id === w.id}>
            <summary className="cursor-pointer text-sm font-medium">{t('rules.edit')}</summary>
            <div className="mt-3">
              <RuleForm
                key={w.version}
                values={windowValues(w)}
                answer={answer?.window_id === w.id ? answer : null}
                custom={!w.product_id}
                entity={set === 'entity'}
                isNew={false}
                entities={null}
                submitLabel={t('save')}
                testId={`window-${w.id}`}
              />
            </div>
          </details>
        </Card>
      ))}
      <Card>
        <CardTitle>{t('rules.newWindow')}</CardTitle>
        <RuleForm
          key={windows.map((w) => `${w.id}:${w.version}`).join()}
          values={newWindow}
          answer={answer && !answer.window_id ? answer : null}
          custom={!first.product_id}
          entity={set === 'entity'}
          isNew={false}
          entities={null}
          submitLabel={t('rules.addWindow')}
          testId="new-window"
        />
      </Card>
    </div>
  )
}

const selectorText = (w: RuleWindow) =>
  Object.entries(w.selector ?? {})
    .map(([k, v]) => `${k}: ${(v as string[]).join(', ')}`)
    .join(' · ')

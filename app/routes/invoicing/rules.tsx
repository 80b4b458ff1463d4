import { data, Link } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { pricingRulesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import type { Filter } from '#common/pql.ts'
import { SubNav } from '#app/components/screen-parts.tsx'
import { newRuleValues, RuleForm, useDescribeRule, type RuleResult } from './rule-form.tsx'
import { ruleAction } from './rule-form.server.ts'
import { rulePath, SET_BASE, setOfPath, type RuleSet } from './shared.tsx'
import type { Route } from './+types/rules.ts'
import type { Answer } from '#app/lib/platform-api.ts'

type Product = Answer<'/products/{id}'>
type Mode = 'all' | 'custom' | 'product'

function modeOf(pathname: string, set: RuleSet): Mode {
  const rest = pathname.slice(SET_BASE[set].length)
  return rest === '' || rest === '/' ? 'all' : rest === '/custom' ? 'custom' : 'product'
}

/**
 * The rules of a set (global, or per pricing entity): all of them, the custom ones
 * (…/custom) or one product's (…/{productId}), with the form of a new rule where it belongs.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const url = requestUrl(request)
  const set = setOfPath(url.pathname)
  const mode = modeOf(url.pathname, set)
  const platform = await getPlatform(request, context)
  const levels = set === 'global' ? ['global-product', 'global-custom'] : ['entity-product', 'entity-custom']
  const fixed: Filter[] = [{ field: 'level', operator: 'equals', values: mode === 'all' ? levels : [levels[mode === 'custom' ? 1 : 0]!] }]
  let product: Product | null = null
  if (mode === 'product') {
    product = await platform.get('/products/{id}', { path: { id: params.id } })
    fixed.push({ field: 'product_id', operator: 'equals', values: [product.id] })
  }
  const def: ListDefinition = { ...pricingRulesList, fixedFilters: fixed }
  const { page, headers } = await loadListPage(request, context, def, activeContext(url, user.group_id))
  const entities = set === 'entity' && mode !== 'all' ? (await platform.get('/pricing-entities', { query: { limit: 200, fields: 'id,name', sort: 'name' } })).data : null
  const t = getInstance(context).t
  const title = mode === 'product' ? t('pricing:rules.productTitle', { product: product!.code }) : t(`pricing:rules.title.${set}${mode === 'custom' ? 'Custom' : ''}`)
  return data({ set, mode, product, page, fixed, entities, title, meta: pageMeta(request, context, title) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const url = requestUrl(request)
  const set = setOfPath(url.pathname)
  const mode = modeOf(url.pathname, set)
  if (mode === 'all') throw data('Choose custom or a product', { status: 405 })
  return ruleAction(request, await getPlatform(request, context), getInstance(context).t, set, mode === 'custom', await request.formData())
}

export default function Rules({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  const describe = useDescribeRule()
  const { set, mode, product, entities } = loaderData
  const base = SET_BASE[set]
  const def: ListDefinition = { ...pricingRulesList, fixedFilters: loaderData.fixed }
  const links = [
    { to: SET_BASE.global, label: t('rules.title.global'), current: set === 'global' && mode === 'all' },
    { to: `${SET_BASE.global}/custom`, label: t('rules.title.globalCustom'), current: set === 'global' && mode === 'custom' },
    { to: SET_BASE.entity, label: t('rules.title.entity'), current: set === 'entity' && mode === 'all' },
    { to: `${SET_BASE.entity}/custom`, label: t('rules.title.entityCustom'), current: set === 'entity' && mode === 'custom' },
  ]
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{loaderData.title}</h1>
      <SubNav links={links} />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400" data-testid="precedence">
        {t('rules.precedence')}
      </p>
      {product ? (
        <p className="text-sm">
          <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/products/${product.id}`)}>
            {productName(t, product)}
          </Link>
        </p>
      ) : null}
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`rules.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'rule_name')
            return (
              <RowLink className="font-mono" to={href(rulePath(row))}>
                {String(row.rule_name)}
              </RowLink>
            )
          if (key === 'level') return t(`levels.${String(row.level)}`)
          if (key === 'kind')
            return (
              <span title={t(`kinds.${String(row.kind)}`)}>
                {describe({ kind: String(row.kind) as never, params: (row.params ?? {}) as never, currency: (row.currency as string | null) ?? null }) || t(`kinds.${String(row.kind)}`)}
              </span>
            )
          if (key === 'product.code')
            return row.product_id ? (
              <Link className="font-mono text-xs hover:underline" to={href(`/products/${String(row.product_id)}`)}>
                {String(row['product.code'] ?? '')}
              </Link>
            ) : (
              <span className="text-slate-500">{t('rules.custom')}</span>
            )
          if (key === 'starts_at' || key === 'ends_at' || key === 'updated_at') return row[key] ? formatDateTime(String(row[key]), i18n.language) : '—'
          return undefined
        }}
      />
      {mode === 'all' ? (
        <p className="text-sm">
          <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`${base}/custom`)}>
            {t('rules.newCustomHint')}
          </Link>
        </p>
      ) : (
        <Card>
          <CardTitle>{mode === 'custom' ? t('rules.newCustom') : t('rules.newProduct')}</CardTitle>
          <RuleForm
            values={newRuleValues(product?.id ?? '')}
            answer={actionData as RuleResult | undefined}
            custom={mode === 'custom'}
            entity={set === 'entity'}
            isNew
            entities={entities}
            submitLabel={t('rules.create')}
            testId="new-rule"
          />
        </Card>
      )}
    </div>
  )
}

import { Form, Link } from 'react-router'
import { z } from 'zod'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { formatDate } from '#app/lib/dates.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import { PRODUCT_KINDS } from '#common/pricing.ts'
import { EntityTabs } from './pricing-entity.tsx'
import { Margin, money, RuleChain } from './shared.tsx'
import type { Route } from './+types/applicable-rules.ts'

const QuerySchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  kind: z.enum(PRODUCT_KINDS).optional().catch(undefined),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
})
const LIMIT = 25

/**
 * /invoicing/pricing-entities/{id}/applicable-rules: every product of the list with its price now in
 * each currency, the cost, the margin and the chain of rules behind it — "why is this 12.99?".
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const query = QuerySchema.parse(Object.fromEntries(requestUrl(request).searchParams))
  const answer = await (
    await getPlatform(request, context)
  ).get('/pricing-entities/{id}/applicable-rules', { path: { id: params.id }, query: { page: query.page, limit: LIMIT, q: query.q, kind: query.kind, currency: query.currency } })
  const t = getInstance(context).t
  return { ...answer, query, meta: pageMeta(request, context, t('pricing:applicable.title')), listMeta: answer.meta }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ApplicableRules({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  const { entity, data, query, listMeta } = loaderData
  const pages = Math.max(1, Math.ceil(listMeta.total / listMeta.limit))
  const pageLink = (page: number) => {
    const s = new URLSearchParams()
    if (query.q) s.set('q', query.q)
    if (query.kind) s.set('kind', query.kind)
    if (query.currency) s.set('currency', query.currency)
    s.set('page', String(page))
    return href(`/invoicing/pricing-entities/${entity.id}/applicable-rules?${s}`)
  }
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href('/invoicing/pricing-entities')}>
          {t('entities.title')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{entity.name}</h1>
      <EntityTabs id={entity.id} current="rules" />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('applicable.intro')}</p>
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <label className="flex flex-col gap-1 text-sm">
          {t('applicable.search')}
          <Input name="q" defaultValue={query.q ?? ''} placeholder="domain:com" className="w-56 font-mono" />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('products.fields.kind')}
          <Select name="kind" defaultValue={query.kind ?? ''}>
            <option value="">{t('all')}</option>
            {PRODUCT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`productKinds.${k}`)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('entities.fields.currencies')}
          <Select name="currency" defaultValue={query.currency ?? ''}>
            <option value="">{t('all')}</option>
            {entity.currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </label>
        <Button type="submit" variant="outline">
          {t('applicable.filter')}
        </Button>
      </Form>
      <p className="text-sm" data-testid="list-total">
        {t('applicable.total', { count: listMeta.total })}
      </p>
      <div className="overflow-x-auto">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('applicable.product')}</TableHead>
              <TableHead>{t('applicable.currency')}</TableHead>
              <TableHead className="text-right">{t('applicable.cost')}</TableHead>
              <TableHead className="text-right">{t('applicable.price')}</TableHead>
              <TableHead className="text-right">{t('applicable.margin')}</TableHead>
              <TableHead>{t('applicable.chain')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.map((row) => (
              <TableRow key={`${row.product_id}-${row.currency}`} data-testid="applicable-row" data-product={row.product_code} data-currency={row.currency}>
                <TableCell>
                  <Link className="font-mono text-xs hover:underline" to={href(`/products/${row.product_id}`)}>
                    {row.product_code}
                  </Link>
                  <div className="text-xs text-slate-500">{productName(t, { name: row.product_name, code: row.product_code })}</div>
                </TableCell>
                <TableCell className="font-mono text-xs">{row.currency}</TableCell>
                <TableCell className="text-right tabular-nums">{money(row.cost_minor, row.currency, i18n.language)}</TableCell>
                <TableCell className="text-right font-medium tabular-nums" data-testid="price">
                  {row.no_price ? <span className="text-amber-700 dark:text-amber-400">{t(`noPrice.${row.no_price}`)}</span> : money(row.price_minor, row.currency, i18n.language)}
                  {row.regular_minor !== null && row.regular_minor !== row.price_minor ? (
                    <div className="text-xs font-normal text-slate-500">{t('applicable.thenRegular', { price: money(row.regular_minor, row.currency, i18n.language) })}</div>
                  ) : null}
                </TableCell>
                <TableCell className="text-right">
                  <Margin percent={row.margin_percent} belowCost={row.below_cost} />
                </TableCell>
                <TableCell>
                  <RuleChain chain={row.chain} currency={row.currency} productId={row.product_id} />
                  {row.rates.map((r) => (
                    <div key={r.from} className="text-xs text-slate-500">
                      {t('applicable.rate', { from: r.from, to: r.to, rate: r.rate, date: formatDate(r.date, i18n.language) })}
                    </div>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {pages > 1 ? (
        <nav className="flex items-center gap-3 text-sm" aria-label={t('applicable.pages')}>
          {listMeta.page > 1 ? (
            <Link className="text-blue-700 hover:underline dark:text-blue-400" to={pageLink(listMeta.page - 1)}>
              {t('applicable.previous')}
            </Link>
          ) : null}
          <span>{t('applicable.page', { page: listMeta.page, pages })}</span>
          {listMeta.page < pages ? (
            <Link className="text-blue-700 hover:underline dark:text-blue-400" to={pageLink(listMeta.page + 1)}>
              {t('applicable.next')}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  )
}

import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { DataTable, listValue } from '#app/components/data-table.tsx'
import { SubNav } from '#app/components/screen-parts.tsx'
import { formatDate } from '#app/lib/dates.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { invoicesList } from './lists.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { productName } from '#app/lib/product-name.ts'
import { money } from './shared.tsx'
import type { Route } from './+types/home.ts'

const QuerySchema = z.object({ q: z.string().trim().max(100).optional().catch(undefined), page: z.coerce.number().int().min(1).max(10_000).catch(1) })

/**
 * /invoicing: for staff, the way to price lists and rules; for a client, two tabs (issue 28): its
 * invoices and credit notes (the list engine's, each with its PDF and XML) — the first, what a
 * client comes for — and the prices of its own account in its currency (`?tab=prices`: never a
 * cost, a margin or a rule).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const t = getInstance(context).t
  const groupContext = activeContext(url, user.group_id)
  // Staff in their own group run the price lists; in a client's context they see what the client sees.
  if (canChange(request, user, 'staff') && groupContext === user.group_id)
    return { staff: true as const, tab: null, invoices: null, prices: null, query: null, meta: pageMeta(request, context, t('pricing:home.title')) }
  if (url.searchParams.get('tab') !== 'prices') {
    const { page, headers } = await loadListPage(request, context, invoicesList, groupContext)
    return data({ staff: false as const, tab: 'invoices' as const, invoices: page, prices: null, query: null, meta: pageMeta(request, context, t('billing:invoices.title')) }, { headers })
  }
  const query = QuerySchema.parse(Object.fromEntries(url.searchParams))
  const prices = await (await getPlatform(request, context)).get('/groups/{context}/prices', { path: { context: groupContext }, query: { page: query.page, limit: 50, q: query.q } })
  return { staff: false as const, tab: 'prices' as const, invoices: null, prices, query, meta: pageMeta(request, context, t('pricing:home.yourPrices')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function InvoicingHome({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const { t: tb } = useTranslation('billing')
  const href = useContextHref()
  // Who pays and what was charged: staff run them, a client reads its own (issue 18).
  const billingCards = [
    { to: '/invoicing/billing-entities', title: tb('entities.title'), text: tb('home.billing') },
    { to: '/invoicing/transactions', title: tb('transactions.title'), text: tb('home.transactions') },
  ]
  if (loaderData.staff) {
    const cards = [
      ...billingCards,
      { to: '/invoicing/pricing-entities', title: t('entities.title'), text: t('home.entities') },
      { to: '/invoicing/global-pricing-rules', title: t('rules.title.global'), text: t('home.global') },
      { to: '/invoicing/pricing-entity-rules', title: t('rules.title.entity'), text: t('home.entity') },
      { to: '/products', title: t('products.title'), text: t('home.products') },
      { to: '/invoicing/exchange-rates', title: t('rates.title'), text: t('rates.card') },
    ]
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">{t('home.title')}</h1>
        <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('rules.precedence')}</p>
        <LinkCards cards={cards} />
      </div>
    )
  }
  // A client's two tabs: its documents (the default) and its prices.
  const tabs = (
    <SubNav
      links={[
        { to: '/invoicing', label: tb('invoices.tab'), current: loaderData.tab === 'invoices' },
        { to: '/invoicing?tab=prices', label: t('home.yourPrices'), current: loaderData.tab === 'prices' },
      ]}
    />
  )
  const cards = <LinkCards cards={billingCards} />
  if (loaderData.tab === 'invoices') {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">{t('common:nav.invoicing')}</h1>
        {cards}
        {tabs}
        <p className="text-sm text-slate-600 dark:text-slate-400">{tb('invoices.intro')}</p>
        <DataTable
          def={invoicesList}
          page={loaderData.invoices}
          labels={(key) => tb(`invoices.fields.${key}`, { defaultValue: key })}
          empty={tb('invoices.empty')}
          valueLabel={(key, value) => (key === 'kind' ? tb(`invoices.kinds.${value}`, { defaultValue: value }) : key === 'status' ? tb(`invoices.statuses.${value}`, { defaultValue: value }) : value)}
          renderCell={(row, key) => <InvoiceCell row={row} column={key} />}
        />
      </div>
    )
  }
  const { prices, query } = loaderData
  const pages = Math.max(1, Math.ceil(prices.meta.total / prices.meta.limit))
  const pageLink = (page: number) => href(`/invoicing?${new URLSearchParams({ tab: 'prices', ...(query.q ? { q: query.q } : {}), page: String(page) })}`)
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('common:nav.invoicing')}</h1>
      {cards}
      {tabs}
      <h2 className="text-lg font-semibold">{t('home.yourPrices')}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('home.yourPricesIntro', { currency: prices.currency })}</p>
      <Form method="get" className="flex items-end gap-2" role="search">
        <input type="hidden" name="tab" value="prices" />
        <label className="flex flex-col gap-1 text-sm">
          {t('applicable.search')}
          <Input name="q" defaultValue={query.q ?? ''} placeholder="domain:com" className="w-56 font-mono" />
        </label>
        <Button type="submit" variant="outline">
          {t('applicable.filter')}
        </Button>
      </Form>
      <div className="overflow-x-auto">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('applicable.product')}</TableHead>
              <TableHead className="text-right">{t('home.pricePerYear')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {prices.data.map((p) => (
              <TableRow key={p.product_id} data-testid="client-price" data-product={p.product_code}>
                <TableCell>
                  {productName(t, { name: p.product_name, code: p.product_code })}
                  <div className="font-mono text-xs text-slate-500">{p.product_code}</div>
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {p.price_minor === null ? <span className="text-slate-500">{t('home.onRequest')}</span> : money(p.price_minor, p.currency, i18n.language)}
                  {p.promotion && p.regular_minor !== p.price_minor ? (
                    <div className="text-xs text-green-700 dark:text-green-400">{t('home.promotion', { price: money(p.regular_minor, p.currency, i18n.language) })}</div>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {pages > 1 ? (
        <nav className="flex items-center gap-3 text-sm" aria-label={t('applicable.pages')}>
          {prices.meta.page > 1 ? (
            <Link className="text-blue-700 hover:underline dark:text-blue-400" to={pageLink(prices.meta.page - 1)}>
              {t('applicable.previous')}
            </Link>
          ) : null}
          <span>{t('applicable.page', { page: prices.meta.page, pages })}</span>
          {prices.meta.page < pages ? (
            <Link className="text-blue-700 hover:underline dark:text-blue-400" to={pageLink(prices.meta.page + 1)}>
              {t('applicable.next')}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  )
}

/** A cell of the client's invoice list: the number with its PDF and XML, the kind and status in the user's words, dates in its format. */
function InvoiceCell({ row, column }: { row: Record<string, unknown>; column: string }) {
  const { t, i18n } = useTranslation('billing')
  const href = useContextHref()
  const value = column.includes('.') ? (row[column.split('.')[0]!] as Record<string, unknown> | null | undefined)?.[column.split('.')[1]!] : row[column]
  if (column === 'number') {
    const number = String(value ?? '')
    const id = encodeURIComponent(String(row.id))
    return (
      <span className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-mono">{number}</span>
        <a className="text-blue-700 hover:underline dark:text-blue-400" href={href(`/invoicing/invoices/${id}/pdf`)} aria-label={t('invoices.download', { number, format: 'PDF' })} download>
          PDF
        </a>
        <a className="text-blue-700 hover:underline dark:text-blue-400" href={href(`/invoicing/invoices/${id}/xml`)} aria-label={t('invoices.download', { number, format: 'XML' })} download>
          XML
        </a>
      </span>
    )
  }
  if (column === 'kind') return <>{t(`invoices.kinds.${String(value)}`, { defaultValue: String(value) })}</>
  if (column === 'status') return <>{t(`invoices.statuses.${String(value)}`, { defaultValue: String(value) })}</>
  if (column === 'issued_at' || column === 'due_at') return value ? <time dateTime={String(value)}>{formatDate(String(value), i18n.language)}</time> : <span className="text-slate-500">—</span>
  if (column === 'reverse_charge') return <>{value ? t('invoices.reverseCharge') : ''}</>
  return <>{listValue(row, { key: column, type: 'text' }, i18n.language, t)}</>
}

/** The area's entries as cards: a title linking to the screen (the context carried) and what it is for. */
function LinkCards({ cards }: { cards: readonly { to: string; title: string; text: string }[] }) {
  const href = useContextHref()
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {cards.map((c) => (
        <Card key={c.to}>
          <CardTitle>
            <Link className="hover:underline" to={href(c.to)}>
              {c.title}
            </Link>
          </CardTitle>
          <p className="text-sm text-slate-600 dark:text-slate-400">{c.text}</p>
        </Card>
      ))}
    </div>
  )
}

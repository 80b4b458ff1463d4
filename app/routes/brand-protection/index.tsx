import { data, Form, Link, Outlet, useLocation } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { canChange, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { CandidateStatus } from '#common/brand.ts'
import { formatMoney } from '#common/money.ts'
import { isStaffInContext } from '#common/permissions.ts'
import type { Route } from './+types/index.ts'
import { brandCandidatesList } from './lists.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const [{ page, headers }, brands, fresh] = await Promise.all([
    loadListPage(request, context, brandCandidatesList, groupContext),
    platform.get('/groups/{context}/brands', { path: { context: groupContext }, query: { limit: '100', sort: 'label' } }),
    // How many the feeds' latest runs found new (CT, zone files): the banner's count and its filter.
    platform.get('/groups/{context}/brand-candidates', { path: { context: groupContext }, query: { limit: '1', pql: NEW_FILTER } }),
  ])
  const t = getInstance(context).t
  // Staff in their own group keep no brands of their own here: they work in a client's context.
  const canManage = canChange(request, user, 'brand-manager') && !isStaffInContext(user, groupContext)
  const canOrder = canChange(request, user, 'domain-manager') && !isStaffInContext(user, groupContext)
  const showingNew = requestUrl(request).searchParams.get('pql') === NEW_FILTER
  return data({ page, brands: brands.data, fresh: fresh.meta.total, showingNew, canManage, canOrder, meta: pageMeta(request, context, t('brand:title')) }, { headers })
}

const NEW_FILTER = "new equals 'true'"

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  requireChange(request, user, intent === 'cart' ? 'domain-manager' : 'brand-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const path = { context: groupContext }
  try {
    if (intent === 'delete') {
      await platform.delete('/groups/{context}/brands/{id}', { path: { ...path, id: String(form.get('id')) } })
      return backWith(request, '/brand-protection', { content: t('brand:done.removed'), color: 'success' })
    }
    if (intent === 'check') {
      const ids = form.getAll('ids').map(String).slice(0, 100)
      if (ids.length) await platform.post('/groups/{context}/brand-candidates/check', { path, body: { ids } })
      return backWith(request, `/brand-protection${url.search}`, { content: t('brand:done.checked', { count: ids.length }), color: 'success' })
    }
    if (intent === 'safe' || intent === 'unsafe') {
      await platform.post('/groups/{context}/brand-candidates/safe', { path, body: { ids: [String(form.get('id'))], safe: intent === 'safe' } })
      return backWith(request, `/brand-protection${url.search}`, {
        content: t(intent === 'safe' ? 'brand:done.safe' : 'brand:done.unsafe', { name: String(form.get('name') ?? '') }),
        color: 'success',
      })
    }
    if (intent === 'cart') {
      const name = String(form.get('name') ?? '')
      await platform.post('/groups/{context}/cart/items', { path, body: { type: 'register', name, period: 1 } })
      return backWith(request, `/brand-protection${url.search}`, { content: t('brand:done.carted', { name }), color: 'success' })
    }
  } catch (error) {
    return backWith(request, `/brand-protection${url.search}`, { content: refusalTextOf(t, error), color: 'error' })
  }
  throw data('Unknown form', { status: 400 })
}

type Brand = Route.ComponentProps['loaderData']['brands'][number]

export default function BrandProtection({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('brand')
  const { search } = useLocation()
  const { page, brands, fresh, showingNew, canManage, canOrder } = loaderData
  const unchecked = page.rows.filter((r) => r.status === 'unchecked').map((r) => String(r.id))
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          canManage ? (
            // Adding a brand and importing brands are sheets over this screen (/brand-protection/new, /brand-protection/import).
            <>
              <HeaderAction to={`/brand-protection/new${search}`} primary preventScrollReset data-testid="brand-add-open">
                {t('add.title')}
              </HeaderAction>
              <HeaderAction to={`/brand-protection/import${search}`} preventScrollReset data-testid="brand-import-open">
                {t('import.title')}
              </HeaderAction>
            </>
          ) : null
        }
      />
      <Card>
        <CardTitle className="mb-3">{t('brands.title')}</CardTitle>
        <CardTable<Brand>
          items={brands}
          minWidth="min-w-[36rem]"
          testId="brands"
          empty={{ text: t('brands.empty'), testId: 'brands-empty' }}
          headings={[{ label: t('fields.label') }, { label: t('fields.domains') }, { label: t('fields.fuzzers') }, { label: t('fields.candidates'), className: 'text-right' }, { label: '' }]}
          render={(b) => (
            <CardTableRow key={b.id} testId={`brand-${b.label}`}>
              <td className="py-2 pr-3 font-medium">{b.label}</td>
              <td className="py-2 pr-3 font-mono text-xs">{b.domains?.join(' ') || '—'}</td>
              <td className="py-2 pr-3 text-xs">{b.fuzzers?.length ? b.fuzzers.join(', ') : t('brands.allFuzzers')}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{b.candidates ?? 0}</td>
              <td className="py-2 text-right">
                {canManage ? (
                  <Form method="post">
                    <input type="hidden" name="id" value={b.id} />
                    <Button type="submit" name="intent" value="delete" size="sm" variant="outline" aria-label={t('brands.remove', { label: b.label })}>
                      {t('brands.removeShort')}
                    </Button>
                  </Form>
                ) : null}
              </td>
            </CardTableRow>
          )}
        />
      </Card>
      {fresh || showingNew ? (
        <div
          className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
          data-testid="brand-news"
        >
          <span>{t('news.count', { count: fresh })}</span>
          <Link
            className="font-medium underline underline-offset-2"
            to={showingNew ? '/brand-protection' : `/brand-protection?${new URLSearchParams({ pql: NEW_FILTER })}`}
            data-testid="brand-news-toggle"
          >
            {showingNew ? t('news.all') : t('news.show')}
          </Link>
        </div>
      ) : null}
      {canManage && unchecked.length ? (
        <Form method="post" className="flex items-center justify-between gap-3 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-800">
          <span>{t('check.help', { count: unchecked.length })}</span>
          {unchecked.map((id) => (
            <input key={id} type="hidden" name="ids" value={id} />
          ))}
          <Button type="submit" name="intent" value="check" size="sm" data-testid="brand-check">
            {t('check.submit')}
          </Button>
        </Form>
      ) : null}
      <DataTable
        def={brandCandidatesList}
        page={page}
        labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
        valueLabel={(key, value) => (key === 'status' ? t(`status.${value}`) : value)}
        empty={<p className="text-sm text-slate-500">{t('candidates.empty')}</p>}
        renderCell={(row, key) => {
          if (key === 'unicode_name') return <LookalikeName row={row} />
          if (key === 'brand.label') return String((row.brand as { label?: string } | undefined)?.label ?? '')
          if (key === 'fuzzers') return ((row.fuzzers as string[] | undefined) ?? []).join(', ')
          if (key === 'status') {
            const status = row.status as CandidateStatus
            // A person's verdict on a stranger's name (or a mark taken back): kept through later checks.
            const mark = canManage && (status === 'registered' || status === 'safe') ? (status === 'safe' ? 'unsafe' : 'safe') : null
            return (
              <span className="flex items-center gap-2">
                <CandidateBadge status={status} />
                {mark ? (
                  <Form method="post">
                    <input type="hidden" name="id" value={String(row.id)} />
                    <input type="hidden" name="name" value={String(row.unicode_name)} />
                    <Button type="submit" name="intent" value={mark} size="sm" variant="outline" aria-label={t(`candidates.${mark}Label`, { name: String(row.unicode_name) })}>
                      {t(`candidates.${mark}`)}
                    </Button>
                  </Form>
                ) : null}
              </span>
            )
          }
          if (key === 'price_minor') {
            if (row.status !== 'available') return '—'
            const price = row.price_minor !== null && row.price_minor !== undefined ? formatMoney(Number(row.price_minor), String(row.currency), i18n.language) : t('candidates.noPrice')
            return (
              <span className="flex items-center justify-end gap-2">
                <span className="tabular-nums">{price}</span>
                {canOrder ? (
                  <Form method="post">
                    <input type="hidden" name="name" value={String(row.name)} />
                    <Button type="submit" name="intent" value="cart" size="sm" variant="outline" aria-label={t('candidates.cartLabel', { name: String(row.unicode_name) })}>
                      {t('candidates.cart')}
                    </Button>
                  </Form>
                ) : null}
              </span>
            )
          }
          if (key === 'changed_by') return row.changed_by ? t(`feed.${String(row.changed_by)}`) : '—'
          if (key === 'new') return row.new ? t('candidates.new') : '—'
          if (key === 'checked_at' || key === 'first_seen_at' || key === 'changed_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} /> : '—'
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}

const COLORS: Record<CandidateStatus, 'grey' | 'blue' | 'green' | 'red' | 'teal'> = { unchecked: 'grey', ours: 'blue', blocked: 'teal', registered: 'red', available: 'green', safe: 'grey' }

/** The lookalike as a person reads it, flagged when a feed's latest run found it, with what the feeds and the registry said of it. */
function LookalikeName({ row }: { row: Record<string, unknown> }) {
  const { t } = useTranslation('brand')
  const certificates = Number(row.certificates ?? 0)
  const facts = [row.registrar ? String(row.registrar) : null, certificates ? t('candidates.certificates', { count: certificates }) : null].filter(Boolean)
  return (
    <span className="flex flex-col gap-0.5">
      <span className="flex items-center gap-2">
        <span className="font-mono">{String(row.unicode_name ?? '')}</span>
        {row.new ? (
          <Badge color="amber" title={t('candidates.newLabel', { source: t(`feed.${String(row.changed_by)}`) })} data-testid="candidate-new">
            {t('candidates.new')}
          </Badge>
        ) : null}
      </span>
      {facts.length ? <span className="text-xs text-slate-500 dark:text-slate-400">{facts.join(' · ')}</span> : null}
    </span>
  )
}

function CandidateBadge({ status }: { status: CandidateStatus }) {
  const { t } = useTranslation('brand')
  return <Badge color={COLORS[status] ?? 'grey'}>{t(`status.${status}`)}</Badge>
}

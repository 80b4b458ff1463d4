import { useTranslation } from '#app/lib/use-translation.ts'
import { usePopover } from '#app/lib/use-popover.ts'
import { Form, Link, useLocation, useNavigate, useRouteLoaderData } from 'react-router'
import { Icon } from './icon.tsx'
import type { ListPage } from '#app/lib/list-page.server.ts'
import { writeListQuery, type SortKey } from '#common/list-query.ts'
import type { ListColumn, ListDefinition } from '#app/lib/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { ExistingParams, FilterBar } from './filter-bar.tsx'
import { Button } from './ui/button.tsx'
import { Select } from './ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './ui/table.tsx'
import { DateText } from './date-text.tsx'
import { formatMoney, formatMoneyText } from '#common/money.ts'

type Props = {
  def: Pick<ListDefinition, 'id' | 'columns' | 'trayType'>
  page: ListPage
  labels: (key: string) => string
  /** A screen's own cell; undefined leaves the cell to the list's one way of showing a value (`listValue`). */
  renderCell?: (row: Record<string, unknown>, key: string) => React.ReactNode
  rowLabel?: (row: Record<string, unknown>) => string
  /** How a value of a field reads in the filter chips and choices (a status's label). */
  valueLabel?: (key: string, value: string) => string
  /** What the list says when it holds nothing and no filter is set (the screen's own words). */
  empty?: React.ReactNode
}

/** What the default layout's loader tells a list about the one looking (routes/layouts/default.tsx). */
type Viewer = { isStaff: boolean; context: string; user: { group_id: string }; accounts: { id: string; name: string }[] }

const PAGE_SIZES = [25, 50, 100, 250]
/** Numbers read down a column by their last digit. */
const isNumeric = (column: Pick<ListColumn, 'type'>) => column.type === 'integer'

/**
 * The one list table: the filter bar (one Filter button, active filters as chips), sortable
 * headers (links), pagination, per-page and column chooser (GET forms), CSV export of the current
 * filter and row selection into the bulk tray (a POST form). Every control is a link or a form, so
 * it works without JavaScript. An empty cell shows a dash (app.css), numbers sit right, the list
 * says it is empty once, and staff looking across accounts see whose each row is.
 */
export function DataTable({ def, page, labels, renderCell, rowLabel, valueLabel, empty }: Props) {
  const { t, i18n } = useTranslation('common')
  const navigate = useNavigate()
  const { pathname, search } = useLocation()
  const href = useContextHref()
  const hydrated = useHydrated()
  const columnsPopover = usePopover()
  const viewer = useRouteLoaderData('routes/layouts/default') as Viewer | undefined
  const current = new URLSearchParams(search)
  const { query, meta, rows, visibleColumns } = page
  const columns = def.columns.filter((c) => visibleColumns.includes(c.key))
  // Each cell names its column for the phone's card rows (app.css, card-rows): looked up once per column, not per cell.
  const cellLabels = columns.map((c) => labels(c.key))
  // Staff in their own group see every account's rows: name the account of each (unless the list shows it already).
  const ownAccountColumn = columns.some((c) => c.key.startsWith('account.'))
  const accountNames =
    viewer?.isStaff && viewer.context === viewer.user.group_id && !ownAccountColumn && rows.some((r) => typeof r.group_id === 'string') ? new Map(viewer.accounts.map((a) => [a.id, a.name])) : null
  const link = (patch: Parameters<typeof writeListQuery>[0]) => href(`${pathname}?${writeListQuery(patch, current)}`)
  const sortLink = (key: string) => {
    const first = query.sort[0]
    const next: SortKey = first?.key === key && first.order === 'asc' ? { key, order: 'desc' } : { key, order: 'asc' }
    return link({ sort: [next], page: 1 })
  }
  const cellOf = (row: Record<string, unknown>, column: ListColumn) => {
    const own = renderCell?.(row, column.key)
    return own === undefined ? listValue(row, column, i18n.language, t) : own
  }
  const trayFormId = `tray-${def.id}`
  const exportHref = href(`/export/${def.id}?${page.exportSearch}`)
  const hasErrors = page.errors.length > 0
  const filtered = query.filters.length > 0
  return (
    <div className="space-y-3">
      <FilterBar columns={def.columns} query={query} errors={page.errors} labels={labels} valueLabel={valueLabel}>
        {/* A filter that cannot be read lists nothing: say what to do, not "0 entries"; an empty list says so once, in the table. */}
        {hasErrors ? (
          <p data-testid="list-total" className="text-xs text-slate-600 dark:text-slate-400">
            {t('list.fixFilter')}
          </p>
        ) : meta.total > 0 ? (
          <p data-testid="list-total" className="text-xs tabular-nums text-slate-600 dark:text-slate-400">
            {t('list.results', { count: meta.total })}
          </p>
        ) : null}
        <details ref={columnsPopover} className="relative">
          <summary className="inline-flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-xs font-medium shadow-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
            <Icon name="columns-3" className="size-3.5" />
            {t('list.columns')}
          </summary>
          <Form method="get" className="absolute right-0 z-20 mt-1 w-56 space-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-xl dark:border-slate-800 dark:bg-slate-900">
            <ExistingParams exclude={['fields', 'page']} />
            {def.columns.map((c) => (
              <label key={c.key} className="flex items-center gap-2">
                <input type="checkbox" name="fields" value={c.key} defaultChecked={visibleColumns.includes(c.key)} />
                {labels(c.key)}
              </label>
            ))}
            <Button type="submit" size="sm" className="mt-2 w-full">
              {t('list.showColumns')}
            </Button>
          </Form>
        </details>
        <Button asChild variant="outline" size="sm" className="bg-white shadow-sm dark:bg-slate-900">
          <a href={exportHref} download>
            <Icon name="download" className="size-3.5" /> {t('list.export')}
          </a>
        </Button>
      </FilterBar>
      {hasErrors ? null : rows.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-12 text-center dark:border-slate-700" data-testid="list-empty">
          {filtered ? <Icon name="search-x" className="size-6 text-slate-400" /> : <Icon name="inbox" className="size-6 text-slate-400" />}
          <p className="text-sm font-medium">{filtered ? t('list.empty') : (empty ?? t('list.emptyAll'))}</p>
          {filtered ? (
            <Link to={link({ filters: [], page: 1 })} className="text-sm text-blue-700 hover:underline dark:text-blue-400">
              {t('list.clearAll')}
            </Link>
          ) : null}
        </div>
      ) : (
        <div className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800">
          <Table data-testid="data-table" className="card-rows" scrollClassName="sm:max-h-[calc(100dvh-7rem)] sm:overscroll-contain" onClick={(event) => followRowLink(event, navigate)}>
            <TableHeader>
              <TableRow>
                {def.trayType ? (
                  <TableHead className="w-8">
                    {hydrated ? (
                      <input type="checkbox" aria-label={t('list.selectAll')} data-testid="select-all" onChange={(e) => selectAll(trayFormId, e.currentTarget.checked)} />
                    ) : (
                      <span className="sr-only">{t('list.select')}</span>
                    )}
                  </TableHead>
                ) : null}
                {columns.map((c, i) => {
                  const sorted = query.sort[0]?.key === c.key ? query.sort[0].order : null
                  return [
                    <TableHead key={c.key} className={isNumeric(c) ? 'text-right' : undefined} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {c.sortable ? (
                        <Link
                          to={sortLink(c.key)}
                          className="group/sort inline-flex items-center gap-1 hover:text-slate-900 dark:hover:text-slate-100"
                          title={sorted === 'asc' ? t('list.sortDesc') : t('list.sortAsc')}
                        >
                          {labels(c.key)}
                          {sorted === 'asc' ? (
                            <Icon name="arrow-up" className="size-3" />
                          ) : sorted === 'desc' ? (
                            <Icon name="arrow-down" className="size-3" />
                          ) : (
                            <Icon name="arrow-up-down" className="size-3 opacity-0 group-hover/sort:opacity-60" />
                          )}
                        </Link>
                      ) : (
                        labels(c.key)
                      )}
                    </TableHead>,
                    i === 0 && accountNames ? <TableHead key="__account">{t('list.account')}</TableHead> : null,
                  ]
                })}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={String(row.id)} data-testid="data-row">
                  {def.trayType ? (
                    <TableCell>
                      <input type="checkbox" form={trayFormId} name="item" value={`${def.trayType}|${String(row.id)}|${rowLabel?.(row) ?? String(row.id)}`} aria-label={t('list.select')} />
                    </TableCell>
                  ) : null}
                  {columns.map((c, i) => [
                    <TableCell key={c.key} className={isNumeric(c) ? 'text-right tabular-nums' : undefined} data-label={cellLabels[i]}>
                      {cellOf(row, c)}
                    </TableCell>,
                    i === 0 && accountNames ? (
                      <TableCell key="__account" className="text-slate-600 dark:text-slate-400" data-testid="account-cell" data-label={t('list.account')}>
                        {accountNames.get(String(row.group_id)) ?? ''}
                      </TableCell>
                    ) : null,
                  ])}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      {rows.length > 0 || meta.page > 1 ? (
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs">
          {def.trayType ? (
            <Form method="post" action="/tray/items" id={trayFormId}>
              <input type="hidden" name="redirectTo" value={pathname + search} />
              <Button type="submit" name="intent" value="add" variant="outline" size="sm">
                {t('list.addToTray')}
              </Button>
            </Form>
          ) : (
            <span />
          )}
          <ListPager id={def.id} page={page} />
        </div>
      ) : null}
    </div>
  )
}

/**
 * A value as every list shows it where the screen has no words of its own (issue 28, item 6): money
 * through the one formatter (an amount in minor units beside the row's currency, or the API's money
 * text such as "EUR 1748.04"), a time as its day with the exact time on hover, yes or no, a list
 * joined — never a raw ISO timestamp or "USD 63.98" beside "$63.98".
 */
export function listValue(row: Record<string, unknown>, column: Pick<ListColumn, 'key' | 'type'>, lng: string, t: (key: string) => string): React.ReactNode {
  const { key, type } = column
  // A joined field (account.name) arrives nested: { account: { name } }.
  const value = key.includes('.') ? (row[key.slice(0, key.indexOf('.'))] as Record<string, unknown> | null | undefined)?.[key.slice(key.indexOf('.') + 1)] : row[key]
  if (value === null || value === undefined || value === '') return ''
  if (key.endsWith('_minor') && typeof row.currency === 'string' && row.currency && Number.isFinite(Number(value))) return formatMoney(Number(value), row.currency, lng)
  if (key.endsWith('_text') && typeof value === 'string') return formatMoneyText(value, lng)
  if (type === 'timestamp' || type === 'date') return <DateText value={String(value)} lng={lng} />
  if (typeof value === 'boolean') return t(value ? 'common:list.yes' : 'common:list.no')
  if (Array.isArray(value)) return value.join(', ')
  return String(value)
}

/**
 * The pages of a list: previous/next links, where this page is, and the per-page choice (a GET
 * form that submits itself with JavaScript). Shared by the table and the screens that render a
 * list's rows their own way (the DNS records editor).
 */
export function ListPager({ id, page }: { id: string; page: ListPage }) {
  const { t } = useTranslation('common')
  const { pathname, search } = useLocation()
  const href = useContextHref()
  const current = new URLSearchParams(search)
  const { meta } = page
  const pages = Math.max(1, Math.ceil(meta.total / meta.limit))
  const link = (patch: Parameters<typeof writeListQuery>[0]) => href(`${pathname}?${writeListQuery(patch, current)}`)
  return (
    <nav aria-label={t('list.page', { page: meta.page, pages })} className="flex items-center gap-2">
      {meta.page > 1 ? (
        <Link to={link({ page: meta.page - 1 })} rel="prev" className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800">
          {t('list.previous')}
        </Link>
      ) : null}
      <span data-testid="list-page" className="tabular-nums text-slate-600 dark:text-slate-400">
        {t('list.page', { page: meta.page, pages })}
      </span>
      {meta.page < pages ? (
        <Link to={link({ page: meta.page + 1 })} rel="next" className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800">
          {t('list.next')}
        </Link>
      ) : null}
      <Form method="get" className="flex items-center gap-1">
        <ExistingParams exclude={['limit', 'page']} />
        <label htmlFor={`limit-${id}`} className="text-slate-600 dark:text-slate-400">
          {t('list.perPage')}
        </label>
        <Select id={`limit-${id}`} name="limit" defaultValue={String(meta.limit)} className="h-8 w-20 text-xs" onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </Select>
        <noscript>
          <Button type="submit" size="sm" variant="outline">
            {t('actions.apply')}
          </Button>
        </noscript>
      </Form>
    </nav>
  )
}

/** Ticks or clears every row of the page for the tray form. */
function selectAll(formId: string, checked: boolean) {
  for (const box of document.querySelectorAll<HTMLInputElement>(`input[type=checkbox][form="${formId}"]`)) box.checked = checked
}

/**
 * The link of a row (its name, leading to its page): a plain anchor, which the table follows in
 * the browser without reloading the page (`followRowLink`). React Router's <Link> resolves its
 * path with several hooks per link; a list page has one per row, and they were a tenth of the
 * page's render (issue 13). `to` is a full path, already carrying the context (useContextHref).
 */
export function RowLink({ to, ...props }: Omit<React.ComponentProps<'a'>, 'href'> & { to: string }) {
  return <a href={to} data-row-link="" {...props} />
}

/** A plain left click on a row link navigates in the app; any other click is the browser's. */
function followRowLink(event: React.MouseEvent<HTMLElement>, navigate: ReturnType<typeof useNavigate>) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = event.target instanceof Element ? event.target.closest('a[data-row-link]') : null
  if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download')) return
  event.preventDefault()
  void navigate(link.getAttribute('href')!)
}

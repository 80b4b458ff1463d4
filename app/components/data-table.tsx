import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, Link, useLocation, useNavigate } from 'react-router'
import { ArrowDown, ArrowUp, ArrowUpDown, Download } from 'lucide-react'
import type { ListPage } from '#app/lib/list-page.server.ts'
import { writeListQuery, type SortKey } from '#common/list-query.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { ExistingParams, FilterBar } from './filter-bar.tsx'
import { Button } from './ui/button.tsx'
import { Select } from './ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './ui/table.tsx'

type Props = {
  def: Pick<ListDefinition, 'id' | 'columns' | 'trayType'>
  page: ListPage
  labels: (key: string) => string
  renderCell?: (row: Record<string, unknown>, key: string) => React.ReactNode
  rowLabel?: (row: Record<string, unknown>) => string
}

const PAGE_SIZES = [25, 50, 100, 250]

/**
 * The one list table: filter bar, sortable headers (links), pagination, per-page and column
 * chooser (GET forms), CSV export of the current filter and row selection into the bulk tray
 * (a POST form). Every control is a link or a form, so it works without JavaScript.
 */
export function DataTable({ def, page, labels, renderCell, rowLabel }: Props) {
  const { t } = useTranslation('common')
  const navigate = useNavigate()
  const { pathname, search } = useLocation()
  const href = useContextHref()
  const current = new URLSearchParams(search)
  const { query, meta, rows, visibleColumns } = page
  const pages = Math.max(1, Math.ceil(meta.total / meta.limit))
  const columns = def.columns.filter((c) => visibleColumns.includes(c.key))
  const link = (patch: Parameters<typeof writeListQuery>[0]) => href(`${pathname}?${writeListQuery(patch, current)}`)
  const sortLink = (key: string) => {
    const first = query.sort[0]
    const next: SortKey = first?.key === key && first.order === 'asc' ? { key, order: 'desc' } : { key, order: 'asc' }
    return link({ sort: [next], page: 1 })
  }
  const trayFormId = `tray-${def.id}`
  const exportHref = href(`/export/${def.id}?${page.search}`)
  return (
    <div className="space-y-4">
      <FilterBar columns={def.columns} query={query} errors={page.errors} labels={labels} />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        {/* A filter that cannot be read lists nothing: say what to do, not "0 entries". */}
        <p data-testid="list-total">{page.errors.length ? t('list.fixFilter') : t('list.results', { count: meta.total })}</p>
        <div className="flex flex-wrap items-center gap-2">
          <details className="relative">
            <summary className="cursor-pointer rounded border border-slate-300 px-3 py-1.5 dark:border-slate-700">{t('list.columns')}</summary>
            <Form method="get" className="absolute right-0 z-20 mt-1 w-56 space-y-1 rounded-md border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-800 dark:bg-slate-900">
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
          <Button asChild variant="outline" size="sm">
            <a href={exportHref} download>
              <Download /> {t('list.export')}
            </a>
          </Button>
        </div>
      </div>
      <Table data-testid="data-table" onClick={(event) => followRowLink(event, navigate)}>
        <TableHeader>
          <TableRow>
            {def.trayType ? <TableHead className="w-8"><span className="sr-only">{t('list.select')}</span></TableHead> : null}
            {columns.map((c) => {
              const sorted = query.sort[0]?.key === c.key ? query.sort[0].order : null
              return (
                <TableHead key={c.key} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                  {c.sortable ? (
                    <Link to={sortLink(c.key)} className="inline-flex items-center gap-1 hover:underline" title={sorted === 'asc' ? t('list.sortDesc') : t('list.sortAsc')}>
                      {labels(c.key)}
                      {sorted === 'asc' ? <ArrowUp className="size-3" /> : sorted === 'desc' ? <ArrowDown className="size-3" /> : <ArrowUpDown className="size-3 opacity-40" />}
                    </Link>
                  ) : (
                    labels(c.key)
                  )}
                </TableHead>
              )
            })}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length + 1} className="py-8 text-center text-slate-500">
                {page.errors.length ? t('list.fixFilter') : t('list.empty')}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => (
              <TableRow key={String(row.id)} data-testid="data-row">
                {def.trayType ? (
                  <TableCell>
                    <input type="checkbox" form={trayFormId} name="item" value={`${def.trayType}|${String(row.id)}|${rowLabel?.(row) ?? String(row.id)}`} aria-label={t('list.select')} />
                  </TableCell>
                ) : null}
                {columns.map((c) => (
                  <TableCell key={c.key}>{renderCell ? renderCell(row, c.key) : String(row[c.key] ?? '')}</TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        {def.trayType ? (
          <Form method="post" action="/tray/items" id={trayFormId}>
            <input type="hidden" name="redirectTo" value={pathname + search} />
            <Button type="submit" name="intent" value="add" variant="secondary" size="sm">
              {t('list.addToTray')}
            </Button>
          </Form>
        ) : (
          <span />
        )}
        <nav aria-label={t('list.page', { page: meta.page, pages })} className="flex items-center gap-2">
          {meta.page > 1 ? <Link to={link({ page: meta.page - 1 })} rel="prev" className="rounded border border-slate-300 px-3 py-1 dark:border-slate-700">{t('list.previous')}</Link> : null}
          <span data-testid="list-page">{t('list.page', { page: meta.page, pages })}</span>
          {meta.page < pages ? <Link to={link({ page: meta.page + 1 })} rel="next" className="rounded border border-slate-300 px-3 py-1 dark:border-slate-700">{t('list.next')}</Link> : null}
          <Form method="get" className="flex items-center gap-1">
            <ExistingParams exclude={['limit', 'page']} />
            <label htmlFor={`limit-${def.id}`}>{t('list.perPage')}</label>
            <Select id={`limit-${def.id}`} name="limit" defaultValue={String(meta.limit)} className="h-8 w-20" onChange={(e) => e.currentTarget.form?.requestSubmit()}>
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
      </div>
    </div>
  )
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

import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { usePopover } from '#app/lib/use-popover.ts'
import { Form, Link, useLocation } from 'react-router'
import { Icon } from './icon.tsx'
import type { ListError } from '#app/lib/list-page.server.ts'
import { writeListQuery, type ListQuery } from '#common/list-query.ts'
import { builderOperators, searchColumnOf, type ListColumn } from '#app/lib/lists.ts'
import { OPERATORS } from '#common/pql.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { Button } from './ui/button.tsx'
import { Input } from './ui/input.tsx'
import { Select } from './ui/select.tsx'

/** Hidden inputs that keep the rest of the URL state in a GET form (works without JavaScript). */
export function ExistingParams({ exclude }: { exclude: string[] }) {
  const { search } = useLocation()
  const params = [...new URLSearchParams(search)].filter(([k]) => !exclude.includes(k))
  return (
    <>
      {params.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
    </>
  )
}

type FilterBarProps = {
  columns: ListColumn[]
  query: ListQuery
  errors: ListError[]
  labels: (key: string) => string
  /** How a value of a field reads (a status's label); the code itself when not given. */
  valueLabel?: (key: string, value: string) => string
  /** The right-hand side of the toolbar (count, columns, export). */
  children?: React.ReactNode
}

/**
 * The filter bar of every list: one "Filter" button, the active filters beside it as removable
 * chips, and the rest of the toolbar. The button is a <details>, so its panel — the builder
 * (field, operator filtered by the field's type, value, second value for between) and the PQL
 * text — opens without JavaScript; it is open when the filter text cannot be read. The builder
 * posts f_* fields by GET; the loader turns them into pql, so the URL is shareable.
 */
export function FilterBar({ columns, query, errors, labels, valueLabel, children }: FilterBarProps) {
  const { t } = useTranslation('common')
  const { pathname, search } = useLocation()
  const href = useContextHref()
  const filterable = columns.filter((c) => c.filterable)
  const [field, setField] = useState(filterable[0]?.key ?? '')
  // Without JavaScript the inputs cannot follow the chosen field: offer every operator and plain
  // text values (the loader checks the operator against the field's type).
  const hydrated = useHydrated()
  const chosen = filterable.find((c) => c.key === field) ?? filterable[0]
  const column = hydrated ? chosen : undefined
  const operators = column ? builderOperators(column.type) : [...OPERATORS]
  const current = new URLSearchParams(search)
  const pql = current.get('pql') ?? ''
  const removeHref = (index: number) => {
    const rest = query.filters.filter((_, i) => i !== index)
    const next = writeListQuery({ filters: rest, page: 1 }, current)
    return href(`${pathname}?${next}`)
  }
  const shown = (key: string, value: string) => valueLabel?.(key, value) ?? value
  const hasPqlError = errors.some((e) => e.kind === 'pql')
  // Without JavaScript a value cannot follow the chosen field, so a field with known values (an
  // enum, a boolean) is offered as "field = value" choices in one select (f_pick), beside the
  // field/operator/text builder; the loader turns it into `field equals value` (canonicalListParams).
  const enumerable = filterable.filter((c) => c.choices?.length)
  // The search box: "<field> contains <text>" (f_q, turned into pql by the loader), its text the one such filter set.
  const searched = searchColumnOf(columns)
  const searchedText = searched ? (query.filters.find((f) => f.field === searched.key && f.operator === 'contains')?.values.join(', ') ?? '') : ''
  // With JavaScript the panel is a popover: Escape closes it (focus back on its button), as does a
  // press anywhere outside it — a sort header included, which then sorts as usual.
  const panel = usePopover({ keepOnNavigation: true })
  return (
    <section aria-label={t('list.filter')} className="space-y-2" data-testid="filter-bar">
      {/* Above the toolbar, so the open panel (where the text is corrected) never covers it. */}
      <div id="list-errors" aria-live="polite" className="space-y-2 empty:hidden">
        {errors.map((error, i) => (
          <div
            key={i}
            role="alert"
            className="space-y-0.5 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-300"
            data-testid="list-error"
          >
            <p>
              {error.kind === 'pql'
                ? t('list.pqlError', { position: error.position, message: t(`list.pqlExpected.${error.code}`, { defaultValue: error.message.replace(/\.$/, '') }) })
                : error.message}
            </p>
            {error.kind === 'pql' && error.expected ? <p className="text-red-800/80 dark:text-red-300/80">{t('list.expected', { choices: error.expected.join(', ') })}</p> : null}
          </div>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {searched ? (
          <Form method="get" role="search" className="relative w-full sm:w-64" data-testid="list-search">
            <ExistingParams exclude={['f_q', 'page', 'f_field', 'f_op', 'f_value', 'f_value2', 'f_pick']} />
            <Icon name="search" className="pointer-events-none absolute left-2.5 top-1/2 size-3.5 -translate-y-1/2 text-slate-400 rtl:left-auto rtl:right-2.5" />
            <Input
              type="search"
              name="f_q"
              defaultValue={searchedText}
              key={searchedText}
              aria-label={t('list.searchIn', { field: labels(searched.key).toLowerCase() })}
              placeholder={t('list.searchIn', { field: labels(searched.key).toLowerCase() })}
              className="h-8 pl-8 text-xs shadow-sm rtl:pl-3 rtl:pr-8"
            />
          </Form>
        ) : null}
        {/* A new key per address: the panel closes once a filter is applied, and opens on an unreadable one. */}
        <details ref={panel} key={search} open={hasPqlError || undefined} className="group relative" data-testid="filter-panel">
          <summary
            className="inline-flex h-8 cursor-pointer list-none items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-xs font-medium shadow-sm hover:bg-slate-50 group-open:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 dark:group-open:bg-slate-800 [&::-webkit-details-marker]:hidden"
            data-testid="filter-toggle"
          >
            <Icon name="list-filter" className="size-3.5" />
            {t('list.filter')}
            {query.filters.length ? <span className="rounded-full bg-blue-700 px-1.5 text-[10px] leading-4 text-white dark:bg-blue-500">{query.filters.length}</span> : null}
          </summary>
          <div className="absolute left-0 z-20 mt-1 w-[min(40rem,calc(100vw-2rem))] space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-xl dark:border-slate-800 dark:bg-slate-900">
            <Form method="get" className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end" data-testid="filter-builder">
              <ExistingParams exclude={['f_field', 'f_op', 'f_value', 'f_value2', 'f_pick', 'page']} />
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
                {t('list.field')}
                <Select name="f_field" value={chosen?.key} onChange={(e) => setField(e.currentTarget.value)}>
                  {filterable.map((c) => (
                    <option key={c.key} value={c.key}>
                      {labels(c.key)}
                    </option>
                  ))}
                </Select>
              </label>
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
                {t('list.operator')}
                <Select name="f_op" key={column?.key} defaultValue={operators[0]}>
                  {operators.map((op) => (
                    <option key={op} value={op}>
                      {t(`list.operators.${op}`)}
                    </option>
                  ))}
                </Select>
              </label>
              <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
                {t('list.value')}
                {column?.choices ? (
                  <Select name="f_value" key={column.key}>
                    {column.choices.map((c) => (
                      <option key={c} value={c}>
                        {shown(column.key, c)}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input name="f_value" key={column?.key} type={isDate(column) ? 'date' : 'text'} />
                )}
              </label>
              {!column || isDate(column) || column.type === 'integer' ? (
                <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 sm:col-start-3 dark:text-slate-400">
                  {t('list.valueTo')}
                  <Input name="f_value2" type={isDate(column) ? 'date' : 'text'} />
                </label>
              ) : null}
              {!column && enumerable.length ? (
                <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 sm:col-span-3 dark:text-slate-400">
                  {t('list.knownValue')}
                  <Select name="f_pick" defaultValue="" data-testid="filter-pick">
                    <option value="">{t('list.knownValueNone')}</option>
                    {enumerable.map((c) => (
                      <optgroup key={c.key} label={labels(c.key)}>
                        {c.choices!.map((v) => (
                          <option key={v} value={`${c.key}=${v}`}>
                            {labels(c.key)} = {shown(c.key, v)}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </Select>
                </label>
              ) : null}
              <Button type="submit" size="sm" className="h-9 sm:col-start-4 sm:row-start-1">
                {t('list.addFilter')}
              </Button>
            </Form>
            <Form method="get" className="space-y-1 border-t border-slate-200 pt-3 dark:border-slate-800">
              <ExistingParams exclude={['pql', 'page', 'f_field', 'f_op', 'f_value', 'f_value2', 'f_pick']} />
              <label htmlFor="list-pql" className="text-xs font-medium text-slate-600 dark:text-slate-400">
                {t('list.pql')}
              </label>
              <div className="flex gap-2">
                <Input id="list-pql" name="pql" defaultValue={pql} key={pql} aria-invalid={hasPqlError || undefined} aria-describedby="list-errors" className="font-mono text-xs" />
                <Button type="submit" variant="outline" size="sm" className="h-9">
                  {t('list.apply')}
                </Button>
              </div>
            </Form>
          </div>
        </details>
        {query.filters.length ? (
          <ul className="contents" aria-label={t('list.activeFilters')}>
            {query.filters.map((f, i) => (
              <li
                key={`${f.field}-${i}`}
                className="flex h-7 items-center gap-1 rounded-md border border-blue-200 bg-blue-50 pl-2.5 pr-1 text-xs text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100"
                data-testid="filter-chip"
              >
                <span>
                  <span className="font-medium">{labels(f.field)}</span> {t(`list.operators.${f.operator}`)}{' '}
                  {f.values.map((v) => shown(f.field, v)).join(f.operator === 'between' ? ` ${t('list.valueTo')} ` : ', ')}
                </span>
                <Link to={removeHref(i)} aria-label={`${t('list.clear')} ${labels(f.field)}`} className="rounded p-0.5 hover:bg-blue-100 dark:hover:bg-blue-900">
                  <Icon name="x" className="size-3" />
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {query.filters.length || pql ? (
          <Link to={href(`${pathname}?${writeListQuery({ filters: [], page: 1 }, current)}`)} className="px-1 text-xs text-slate-600 hover:underline dark:text-slate-400" data-testid="filter-clear">
            {t('list.clearAll')}
          </Link>
        ) : null}
        {children ? <div className="ml-auto flex flex-wrap items-center gap-2">{children}</div> : null}
      </div>
    </section>
  )
}

const isDate = (column: ListColumn | undefined) => column?.type === 'timestamp' || column?.type === 'date'

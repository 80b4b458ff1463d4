import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, Link, useLocation } from 'react-router'
import { X } from 'lucide-react'
import type { ListError } from '#app/lib/list-page.server.ts'
import { writeListQuery, type ListQuery } from '#common/list-query.ts'
import { builderOperators, type ListColumn } from '#app/lib/lists.ts'
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

/**
 * The filter bar of every list: the current filters as removable chips, the builder (field,
 * operator filtered by the field's type, value, second value for between) and the PQL text.
 * The builder posts f_* fields by GET; the loader turns them into pql, so the URL is shareable.
 */
export function FilterBar({ columns, query, errors, labels }: { columns: ListColumn[]; query: ListQuery; errors: ListError[]; labels: (key: string) => string }) {
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
  const removeHref = (index: number) => {
    const rest = query.filters.filter((_, i) => i !== index)
    const next = writeListQuery({ filters: rest, page: 1 }, current)
    return href(`${pathname}?${next}`)
  }
  return (
    <section aria-label={t('list.filter')} className="space-y-3" data-testid="filter-bar">
      {query.filters.length ? (
        <ul className="flex flex-wrap gap-2">
          {query.filters.map((f, i) => (
            <li key={`${f.field}-${i}`} className="flex items-center gap-1 rounded-full bg-blue-50 px-3 py-1 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
              <span>
                {labels(f.field)} {t(`list.operators.${f.operator}`)} {f.values.join(f.operator === 'between' ? ` ${t('list.valueTo')} ` : ', ')}
              </span>
              <Link to={removeHref(i)} aria-label={`${t('list.clear')} ${labels(f.field)}`} className="rounded-full p-0.5 hover:bg-blue-100 dark:hover:bg-blue-900">
                <X className="size-3" />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="get" className="flex flex-wrap items-end gap-2" data-testid="filter-builder">
        <ExistingParams exclude={['f_field', 'f_op', 'f_value', 'f_value2', 'page']} />
        <label className="flex flex-col gap-1 text-xs">
          {t('list.field')}
          <Select name="f_field" value={chosen?.key} onChange={(e) => setField(e.currentTarget.value)} className="w-44">
            {filterable.map((c) => (
              <option key={c.key} value={c.key}>
                {labels(c.key)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1 text-xs">
          {t('list.operator')}
          <Select name="f_op" key={column?.key} defaultValue={operators[0]} className="w-52">
            {operators.map((op) => (
              <option key={op} value={op}>
                {t(`list.operators.${op}`)}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex flex-col gap-1 text-xs">
          {t('list.value')}
          {column?.choices ? (
            <Select name="f_value" className="w-44">
              {column.choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          ) : (
            <Input name="f_value" type={isDate(column) ? 'date' : 'text'} className="w-44" />
          )}
        </label>
        {!column || isDate(column) || column.type === 'integer' ? (
          <label className="flex flex-col gap-1 text-xs">
            {t('list.valueTo')}
            <Input name="f_value2" type={isDate(column) ? 'date' : 'text'} className="w-44" />
          </label>
        ) : null}
        <Button type="submit">{t('list.addFilter')}</Button>
      </Form>
      <Form method="get" className="flex flex-wrap items-end gap-2">
        <ExistingParams exclude={['pql', 'page', 'f_field', 'f_op', 'f_value', 'f_value2']} />
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs">
          {t('list.pql')}
          <Input name="pql" defaultValue={current.get('pql') ?? ''} key={current.get('pql') ?? ''} aria-invalid={errors.some((e) => e.kind === 'pql') || undefined} aria-describedby="list-errors" className="font-mono" />
        </label>
        <Button type="submit" variant="outline">
          {t('list.apply')}
        </Button>
        {query.filters.length || current.get('pql') ? (
          <Button asChild variant="ghost">
            <Link to={href(`${pathname}?${writeListQuery({ filters: [], page: 1 }, current)}`)}>{t('list.clear')}</Link>
          </Button>
        ) : null}
      </Form>
      <div id="list-errors" aria-live="polite">
        {errors.map((error, i) => (
          <div key={i} role="alert" className="space-y-0.5 text-sm text-red-700 dark:text-red-400" data-testid="list-error">
            <p>{error.kind === 'pql' ? t('list.pqlError', { position: error.position, message: t(`list.pqlExpected.${error.code}`, { defaultValue: error.message.replace(/\.$/, '') }) }) : error.message}</p>
            {error.kind === 'pql' && error.expected ? <p className="text-red-700/80 dark:text-red-400/80">{t('list.expected', { choices: error.expected.join(', ') })}</p> : null}
          </div>
        ))}
      </div>
    </section>
  )
}

const isDate = (column: ListColumn | undefined) => column?.type === 'timestamp' || column?.type === 'date'

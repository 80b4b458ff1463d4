import { listValue, RowLink } from '#app/components/data-table.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { rowAccountHref } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/**
 * How a list of orders shows its cells (/domains/orders, a domain's Orders tab): the date leads to
 * the order, the state is its badge, the names wrap in two lines at most.
 */
export function useOrderCell() {
  const { t, i18n } = useTranslation('orders')
  const href = useContextHref()
  return (row: Record<string, unknown>, key: string): React.ReactNode => {
    const value = row[key]
    if (key === 'created_at')
      return (
        <RowLink to={rowAccountHref(`/domains/orders/${String(row.id)}`, row, href)}>
          <time dateTime={String(value)}>{formatDateTime(String(value), i18n.language)}</time>
        </RowLink>
      )
    if (key === 'state') return <StatusBadge kind="order" code={String(value)} />
    const text = Array.isArray(value) ? value.join(', ') : String(value ?? '')
    if (key === 'names') return <span className="line-clamp-2 max-w-md break-all">{text}</span>
    return listValue(row, { key, type: 'text' }, i18n.language, t)
  }
}

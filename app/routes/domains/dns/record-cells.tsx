import { Link } from 'react-router'
import { formatDateTime } from '#app/lib/dates.ts'
import { rowAccountHref } from '#app/lib/context-param.ts'

type Row = Record<string, unknown>

/**
 * The cells of a DNS record row that are not plain values, for every list of records across zones
 * (/domains/search/records, /reports/dns-records): the zone links to its screen (/domains/zones/{id}
 * sends a domain's zone on to its DNS tab), the content in monospace, the change time in the user's
 * language; undefined for the other columns, which the caller shows its way.
 */
export function dnsRecordCell(row: Row, key: string, href: (to: string) => string, lng: string): React.ReactNode | undefined {
  if (key === 'zone.name') {
    const name = String((row.zone as { name?: string } | undefined)?.name ?? '')
    return row.zone_id ? (
      <Link to={rowAccountHref(`/domains/zones/${String(row.zone_id)}`, row, href)} className="underline">
        {name}
      </Link>
    ) : (
      name
    )
  }
  if (key === 'content') return <span className="break-all font-mono text-xs">{String(row.content ?? '')}</span>
  if (key === 'updated_at') return <time dateTime={String(row.updated_at)}>{formatDateTime(String(row.updated_at), lng)}</time>
  return undefined
}

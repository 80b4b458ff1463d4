import { useTranslation } from '#app/lib/use-translation.ts'
import { groupActivity } from './home-activity.ts'
import { Link, redirect } from 'react-router'
import { ArrowRight, CheckCircle2, Clock, GitCompare, Server, ShieldAlert, ShoppingCart } from 'lucide-react'
import { PageHeader } from '#app/components/page-header.tsx'
import { carryContext, activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { isProspectOnly } from '#app/lib/navigation.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'
import { getPlatform, PlatformError } from '#app/lib/platform.server.ts'
import { requireUser } from '#app/lib/session.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { cn } from '#app/lib/utils.ts'
import { printPql, type Filter } from '#common/pql.ts'
import type { Route } from './+types/home.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** GET /groups/{context}/summary (server/platform/dashboard): each part null when the user may not read it. */
type Summary = Answer<'/groups/{context}/summary'>
type Activity = {
  id: string
  when: string
  ago: string
  exact: string
  area: string
  entity_type: string
  entity_id: string
  action: string
  actor_label: string
  count: number
  earliestExact: string
}

const RECENT = 8
/** Entries read to fill RECENT lines once repeats are folded into one. */
const READ_FOR_RECENT = RECENT * 5

/** A list's address filtered as a figure counts it. */
const filtered = (path: string, filters: Filter[], sort?: string) => {
  const params = new URLSearchParams({ pql: printPql(filters) })
  if (sort) params.set('sort', sort)
  return `${path}?${params}`
}

/** "3 hours ago" in the user's language, computed once on the server so the browser shows the same words. */
function ago(iso: string, now: number, lng: string) {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
  const format = new Intl.RelativeTimeFormat(lng, { numeric: 'auto' })
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ]
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit)
  return format.format(0, 'minute')
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const url = requestUrl(request)
  // Spec §2: prospect viewers without brand-viewer or staff live in intelligence.
  if (isProspectOnly(user, readPermissionView(request))) throw redirect(carryContext('/intelligence', url.searchParams))
  const group = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const lng = getLocale(context)
  // A part the user may not read (403) is left out; anything else is the error screen.
  const unlessForbidden = <T,>(call: Promise<T>) => call.catch((error: unknown) => (error instanceof PlatformError && error.status === 403 ? null : Promise.reject(error)))
  const [summary, activity] = await Promise.all([
    unlessForbidden(platform.get('/groups/{context}/summary', { path: { context: group } })),
    unlessForbidden(
      platform.get('/groups/{context}/audit-entries', {
        path: { context: group },
        query: { limit: READ_FOR_RECENT, sort: '-created_at', fields: 'id,created_at,area,entity_type,entity_id,action,actor_label' },
      }),
    ),
  ])
  const now = Date.now()
  const recent: Activity[] | null = activity
    ? groupActivity(activity.data, RECENT).map(({ created_at, earliest, ...entry }) => ({
        ...entry,
        when: created_at,
        ago: ago(created_at, now, lng),
        exact: formatDateTime(created_at, lng),
        earliestExact: formatDateTime(earliest, lng),
      }))
    : null
  return { name: user.name, summary, recent, meta: pageMeta(request, context, null) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** `/`: what needs attention, each figure a link to the list filtered the same way (issue 16). */
export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('common')
  const { summary, recent } = loaderData
  const allClear =
    summary !== null &&
    (summary.expiring?.every((w) => w.total === 0) ?? true) &&
    !summary.zones?.failing &&
    !summary.zones?.drifting &&
    !summary.differences &&
    !summary.orders?.failed &&
    !summary.orders?.pending &&
    !summary.material_changes?.pending &&
    !summary.zone_overlaps?.count
  return (
    <div className="space-y-6" data-testid="home">
      <PageHeader title={t('home.welcome', { name: loaderData.name })} description={allClear ? t('home.allClear') : t('home.attention')} />
      {summary?.expiring ? <ExpiringCard summary={summary} /> : null}
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {summary?.zones ? (
          <Figure
            icon={<Server />}
            title={t('home.zones.title')}
            testId="home-zones"
            rows={[
              { label: t('home.zones.failing'), value: summary.zones.failing, tone: 'red' },
              { label: t('home.zones.drifting'), value: summary.zones.drifting, tone: 'amber' },
            ]}
          >
            {summary.zones.named.length ? <ZoneLinks zones={summary.zones.named} /> : null}
          </Figure>
        ) : null}
        {summary?.zone_overlaps ? <ZoneOverlaps overlaps={summary.zone_overlaps} /> : null}
        {summary?.differences !== null && summary?.differences !== undefined ? (
          <Figure
            icon={<GitCompare />}
            title={t('home.differences.title')}
            testId="home-differences"
            rows={[{ label: t('home.differences.open'), value: summary.differences, to: '/domains/reconciliation', tone: 'red' }]}
          />
        ) : null}
        {summary?.orders ? (
          <Figure
            icon={<ShoppingCart />}
            title={t('home.orders.title')}
            testId="home-orders"
            rows={[
              {
                label: t('home.orders.pending'),
                value: summary.orders.pending,
                to: filtered('/domains/orders', [{ field: 'state', operator: 'equals', values: ['pending', 'processing'] }]),
                tone: 'blue',
              },
              { label: t('home.orders.failed'), value: summary.orders.failed, to: filtered('/domains/orders', [{ field: 'state', operator: 'equals', values: ['failed'] }]), tone: 'red' },
            ]}
          />
        ) : null}
        {summary?.material_changes ? (
          <Figure
            icon={<ShieldAlert />}
            title={t('home.material.title')}
            testId="home-material"
            rows={[
              {
                label: t('home.material.pending'),
                value: summary.material_changes.pending,
                to: filtered('/domains/material-change-requests', [{ field: 'state', operator: 'equals', values: ['pending'] }]),
                tone: 'amber',
              },
            ]}
          />
        ) : null}
      </div>
      {recent ? <RecentActivity entries={recent} /> : null}
    </div>
  )
}

type Tone = 'red' | 'amber' | 'blue'
const TONE: Record<Tone, string> = {
  red: 'text-red-700 dark:text-red-400',
  amber: 'text-amber-700 dark:text-amber-400',
  blue: 'text-blue-700 dark:text-blue-400',
}

function Card({ children, className, testId }: { children: React.ReactNode; className?: string; testId?: string }) {
  return (
    <section className={cn('rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900/60', className)} data-testid={testId}>
      {children}
    </section>
  )
}

function CardHeading({ icon, children }: { icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <h2 className="flex items-center gap-2 text-sm font-medium text-slate-600 dark:text-slate-400 [&_svg]:size-4">
      {icon}
      {children}
    </h2>
  )
}

/** A card of figures; a figure above zero is in its colour and links to the list behind it. */
function Figure({
  icon,
  title,
  rows,
  testId,
  children,
}: {
  icon: React.ReactNode
  title: string
  rows: { label: string; value: number; to?: string; tone: Tone }[]
  testId: string
  children?: React.ReactNode
}) {
  const href = useContextHref()
  const { i18n } = useTranslation('common')
  return (
    <Card testId={testId} className="flex flex-col gap-3">
      <CardHeading icon={icon}>{title}</CardHeading>
      <dl className="space-y-2">
        {rows.map((row) => {
          const figure = (
            <span className={cn('text-2xl font-semibold tabular-nums', row.value > 0 ? TONE[row.tone] : 'text-slate-400 dark:text-slate-600')}>{row.value.toLocaleString(i18n.language)}</span>
          )
          return (
            <div key={row.label} className="flex items-baseline justify-between gap-3">
              <dt className="text-sm text-slate-600 dark:text-slate-400">{row.label}</dt>
              <dd data-testid="home-figure">
                {row.to && row.value > 0 ? (
                  <Link to={href(row.to)} className="rounded hover:underline">
                    {figure}
                  </Link>
                ) : (
                  figure
                )}
              </dd>
            </div>
          )
        })}
      </dl>
      {children}
    </Card>
  )
}

function ZoneLinks({ zones }: { zones: NonNullable<Summary['zones']>['named'] }) {
  const { t } = useTranslation('common')
  const href = useContextHref()
  return (
    <ul className="space-y-1 border-t border-slate-100 pt-2 text-sm dark:border-slate-800">
      {zones.map((zone) => (
        <li key={zone.id} className="flex items-center justify-between gap-2">
          <Link to={href(zone.domain_id ? `/domains/${zone.domain_id}/dns` : `/domains/zones/${zone.id}`)} className="truncate font-medium text-blue-700 hover:underline dark:text-blue-300">
            {zone.name}
          </Link>
          <span className={cn('shrink-0 text-xs', zone.problem === 'failing' ? TONE.red : TONE.amber)}>{t(`home.zones.${zone.problem}Short`)}</span>
        </li>
      ))}
    </ul>
  )
}

/** Staff: zones at, inside or above another account's domain or zone (issue 26), which PowerDNS may answer for the other account. */
function ZoneOverlaps({ overlaps }: { overlaps: NonNullable<Summary['zone_overlaps']> }) {
  const { t } = useTranslation('domains')
  return (
    <Figure icon={<Server />} title={t('zoneOverlaps.title')} testId="home-zone-overlaps" rows={[{ label: t('zoneOverlaps.count'), value: overlaps.count, tone: 'red' }]}>
      {overlaps.named.length ? (
        <ul className="space-y-1 border-t border-slate-100 pt-2 text-sm dark:border-slate-800">
          {overlaps.named.map((o) => (
            <li key={`${o.zone} ${o.other}`} className="font-mono text-xs">
              {t('zoneOverlaps.pair', { zone: o.zone, other: o.other })}
            </li>
          ))}
        </ul>
      ) : null}
    </Figure>
  )
}

/** Domains expiring within 30, 60 and 90 days: those that will not renew by themselves first. */
function ExpiringCard({ summary }: { summary: Summary }) {
  const { t, i18n } = useTranslation('common')
  const href = useContextHref()
  const windows = summary.expiring ?? []
  const within = (until: string): Filter => ({ field: 'expires_at', operator: 'between', values: [summary.today, until] })
  return (
    <Card testId="home-expiring">
      <CardHeading icon={<Clock />}>{t('home.expiring.title')}</CardHeading>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        {windows.map((window) => (
          <div key={window.days} className="rounded-md border border-slate-100 p-3 dark:border-slate-800" data-testid={`home-expiring-${window.days}`}>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{t('home.expiring.within', { count: window.days })}</p>
            <div className="mt-2 flex flex-wrap items-end justify-between gap-x-3 gap-y-1">
              <div>
                {window.auto_renew_off > 0 ? (
                  <Link
                    to={href(filtered('/domains', [within(window.until), { field: 'auto_renew', operator: 'equals', values: ['false'] }], 'expires_at'))}
                    className="group flex items-baseline gap-2"
                    data-testid="home-expiring-off"
                  >
                    <span className={cn('text-3xl font-semibold tabular-nums', window.days <= 30 ? TONE.red : TONE.amber)}>{window.auto_renew_off.toLocaleString(i18n.language)}</span>
                    <span className="text-sm text-slate-600 group-hover:underline dark:text-slate-400">{t('home.expiring.autoRenewOff')}</span>
                  </Link>
                ) : (
                  <p className="flex items-baseline gap-2" data-testid="home-expiring-off">
                    <span className="text-3xl font-semibold tabular-nums text-slate-400 dark:text-slate-600">0</span>
                    <span className="text-sm text-slate-600 dark:text-slate-400">{t('home.expiring.autoRenewOff')}</span>
                  </p>
                )}
              </div>
              <Link
                to={href(filtered('/domains', [within(window.until)], 'expires_at'))}
                className="flex items-center gap-1 whitespace-nowrap text-sm text-blue-700 hover:underline dark:text-blue-300"
                data-testid="home-expiring-all"
              >
                {t('home.expiring.all', { count: window.total })}
                <ArrowRight className="size-3.5" aria-hidden />
              </Link>
            </div>
          </div>
        ))}
      </div>
    </Card>
  )
}

const ENTITY_PATH: Record<string, string> = { domain: '/domains/', contact: '/contacts/', user: '/users/', account: '/accounts/', block: '/blocks/' }

function RecentActivity({ entries }: { entries: Activity[] }) {
  const { t } = useTranslation('common')
  const phrase = useActivityPhrase()
  const href = useContextHref()
  return (
    <Card testId="home-activity">
      <div className="flex items-center justify-between gap-2">
        <CardHeading icon={<Clock />}>{t('home.activity.title')}</CardHeading>
        <Link to={href('/accounts/log')} className="text-sm text-blue-700 hover:underline dark:text-blue-300">
          {t('home.activity.all')}
        </Link>
      </div>
      {entries.length === 0 ? (
        <p className="mt-3 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
          <CheckCircle2 className="size-4" aria-hidden /> {t('home.activity.none')}
        </p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
          {entries.map((entry) => {
            const path = ENTITY_PATH[entry.entity_type]
            const what = phrase(entry)
            return (
              <li key={entry.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-2 text-sm" data-testid="home-activity-entry">
                <span className="min-w-0">
                  <span className="font-medium">{entry.actor_label}</span>{' '}
                  {path && entry.entity_id ? (
                    <Link to={href(`${path}${entry.entity_id}`)} className="text-slate-700 hover:underline dark:text-slate-300" title={entry.action}>
                      {what}
                    </Link>
                  ) : (
                    <span className="text-slate-700 dark:text-slate-300" title={entry.action}>
                      {what}
                    </span>
                  )}
                  {entry.count > 1 ? (
                    <span
                      className="ml-1.5 rounded-full bg-slate-100 px-1.5 py-0.5 text-xs font-medium tabular-nums text-slate-600 dark:bg-slate-800 dark:text-slate-300"
                      title={t('home.activity.repeated', { count: entry.count, from: entry.earliestExact, to: entry.exact })}
                      data-testid="home-activity-count"
                    >
                      ×{entry.count}
                    </span>
                  ) : null}
                </span>
                <time dateTime={entry.when} title={entry.exact} className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                  {entry.ago}
                </time>
              </li>
            )
          })}
        </ol>
      )}
    </Card>
  )
}

/**
 * What an audit entry did, as a phrase of the reader's language ("renewed the domain", "renovó el
 * dominio", "がドメインを更新しました"), from its action and entity type (locales/<lng>/activity.json);
 * an action without a phrase of its own reads as a change to its entity. The code shows on hover.
 */
function useActivityPhrase() {
  const { t } = useTranslation('activity')
  return (entry: { action: string; entity_type: string }) => {
    const entity = t(`entities.${entry.entity_type}`, { defaultValue: t('entities.other') })
    return t(`actions.${entry.action}`, { entity, defaultValue: t('actions.other', { entity }) })
  }
}

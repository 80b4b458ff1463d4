import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { printPql } from '#common/pql.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/search.ts'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen } from './shared.server.ts'
import { StatusBadge } from './shared.tsx'
import { DateText } from '#app/components/date-text.tsx'
import type { Answer, Row } from '#app/lib/platform-api.ts'

type Held = Pick<Row<'/groups/{context}/domains'>, 'id' | 'name' | 'unicode_name' | 'status' | 'expires_at'>
type Availability = Answer<'/groups/{context}/domains/availability', 'post'>['results'][number]

/** The label a search term asks about: the part before the first dot, as the user typed it. */
export function searchLabel(term: string): string {
  return (
    term
      .trim()
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .split(/[./\s]/)[0] ?? ''
  )
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const url = requestUrl(request)
  const q = (url.searchParams.get('q') ?? '').trim().slice(0, 253)
  const t = getInstance(context).getFixedT(null, 'domains')
  const meta = pageMeta(request, context, t('search.title'))
  if (!q) return { q, held: [] as Held[], availability: [] as Availability[], availabilityError: null as string | null, meta }
  const label = searchLabel(q)
  const [held, offered] = await Promise.all([
    screen.platform.get('/groups/{context}/domains', {
      path: { context: screen.groupContext },
      query: { pql: printPql([{ field: 'name', operator: 'contains', values: [q.toLowerCase()] }]), limit: 50, sort: 'name' },
    }),
    screen.platform.get('/tlds', { query: { pql: "is_offered equals 'true'", limit: 100, sort: 'name', fields: 'name' } }),
  ])
  // Names not in the portfolio: ask the registries about the label under every offered TLD.
  const candidates = label ? offered.data.map((tld) => `${label}.${tld.name}`).filter((name) => !held.data.some((d) => d.name === name)) : []
  let availability: Availability[] = []
  let availabilityError: string | null = null
  if (candidates.length) {
    const result = await attempt(() => screen.platform.post('/groups/{context}/domains/availability', { path: { context: screen.groupContext }, body: { names: candidates } }))
    if (result.ok) availability = result.value.results
    else availabilityError = refusalText(t, result.problem)
  }
  return { q, held: held.data, availability, availabilityError, meta }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** /domains/search: the portfolio's matches, and the availability of the name across offered TLDs. */
export default function DomainSearch({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('domains')
  const href = useContextHref()
  const { q, held, availability, availabilityError } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('list.title'), to: '/domains' }]} title={t('search.title')} />
      <Form method="get" className="flex max-w-xl gap-2" role="search">
        <Input name="q" defaultValue={q} key={q} placeholder={t('search.placeholder')} aria-label={t('search.title')} data-testid="search-q" />
        <Button type="submit">{t('search.submit')}</Button>
      </Form>
      {q ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card data-testid="search-held">
            <CardTitle>{t('search.held', { count: held.length })}</CardTitle>
            {held.length ? (
              <ul className="space-y-1 text-sm">
                {held.map((d) => (
                  <li key={d.id} className="flex items-center gap-2">
                    <Link to={href(`/domains/${d.id}`)} className="font-mono text-blue-700 hover:underline dark:text-blue-300">
                      {d.unicode_name || d.name}
                    </Link>
                    <StatusBadge status={d.status} />
                    <span className="text-slate-500">
                      <DateText value={d.expires_at} lng={i18n.language} />
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-500">{t('search.noneHeld')}</p>
            )}
          </Card>
          <Card data-testid="search-available">
            <CardTitle>{t('search.availability')}</CardTitle>
            {availabilityError ? <p className="text-sm text-red-700 dark:text-red-400">{availabilityError}</p> : null}
            {availability.length ? (
              <ul className="space-y-1 text-sm">
                {availability.map((a) => (
                  <li key={a.name} className="flex items-center gap-2" data-testid="search-availability-row">
                    <span className="font-mono">{a.name}</span>
                    <span className={a.available ? 'text-green-700 dark:text-green-400' : 'text-slate-500'}>
                      {a.available ? t('add.available') : `${t('add.unavailable')}${a.reason ? ` — ${a.reason}` : ''}`}
                    </span>
                    {a.price ? <span>{formatMoney(a.price.minor, a.price.currency, i18n.language)}</span> : null}
                  </li>
                ))}
              </ul>
            ) : !availabilityError ? (
              <p className="text-sm text-slate-500">{t('search.noCandidates')}</p>
            ) : null}
            {availability.some((a) => a.available) ? (
              <Link to={href('/domains/add?mode=register')} className="mt-3 inline-block text-sm text-blue-700 underline dark:text-blue-300">
                {t('search.toRegister')}
              </Link>
            ) : null}
          </Card>
        </div>
      ) : null}
    </div>
  )
}

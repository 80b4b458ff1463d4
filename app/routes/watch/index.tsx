import { data, Link, Outlet } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import type { Row } from '#app/lib/platform-api.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/index.ts'
import { OPEN_CASES_PQL, watchesList } from './lists.ts'
import { watchScreen } from './shared.server.ts'
import { RiskBadge, StateBadge } from './shared.tsx'

/** /watch (issue 31): the account's watches with their detections, open cases and last run, and the open cases below. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const [{ page, headers }, cases] = await Promise.all([
    loadListPage(request, context, watchesList, screen.groupContext),
    screen.platform.get('/groups/{context}/watch-cases', { path: { context: screen.groupContext }, query: { pql: OPEN_CASES_PQL, sort: '-opened_at', limit: '50' } }),
  ])
  const t = getInstance(context).t
  return data({ watches: page, cases: cases.data, canManage: screen.canManage, meta: pageMeta(request, context, t('watch:title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function WatchIndex({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { watches, cases, canManage } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <HeaderAction to="/watch/overview">{t('overview.title')}</HeaderAction>
            <HeaderAction to="/watch/templates">{t('templates.title')}</HeaderAction>
            <HeaderAction to="/watch/log">{t('log')}</HeaderAction>
            {canManage ? (
              <HeaderAction to="/watch/new" primary data-testid="watch-new">
                {t('new.title')}
              </HeaderAction>
            ) : null}
          </>
        }
      />
      <DataTable
        def={watchesList}
        page={watches}
        labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
        empty={<p className="text-sm text-slate-500">{canManage ? t('empty.manager') : t('empty.viewer')}</p>}
        renderCell={(row, key) => {
          if (key === 'name')
            return (
              <Link to={`/watch/${String(row.id)}`} className="font-medium text-blue-700 hover:underline dark:text-blue-300">
                {String(row.name)}
              </Link>
            )
          if (key === 'brand.label') return String((row.brand as { label?: string } | undefined)?.label ?? '')
          if (key === 'last_run_at') return row.last_run_at ? <DateText value={String(row.last_run_at)} lng={i18n.language} /> : t('never')
          return undefined
        }}
      />
      <Card>
        <CardTitle className="mb-3">{t('openCases')}</CardTitle>
        <CaseTable cases={cases} withWatch />
      </Card>
      <Outlet />
    </div>
  )
}

type CaseRow = Row<'/groups/{context}/watch-cases'>

/** A short table of cases (the open ones on /watch, a watch's in its reports): name, risk, state, action, opened. */
export function CaseTable({ cases, withWatch = false }: { cases: CaseRow[]; withWatch?: boolean }) {
  const { t, i18n } = useTranslation('watch')
  return (
    <CardTable<CaseRow>
      items={cases}
      minWidth="min-w-[36rem]"
      testId="watch-cases"
      empty={{ text: t('cases.none'), testId: 'watch-cases-empty' }}
      headings={[
        { label: t('fields.name') },
        ...(withWatch ? [{ label: t('fields.watch_name') }] : []),
        { label: t('fields.risk') },
        { label: t('fields.state') },
        { label: t('fields.action') },
        { label: t('fields.opened_at') },
      ]}
      render={(c) => (
        <CardTableRow key={c.id} testId={`case-${c.name}`}>
          <td className="py-2 pr-3">
            <Link to={`/watch/${c.watch_id}/cases/${c.id}`} className="font-mono text-blue-700 hover:underline dark:text-blue-300">
              {c.name}
            </Link>
            {(c.names?.length ?? 0) > 1 ? <span className="ml-1 text-xs text-slate-500">+{(c.names?.length ?? 1) - 1}</span> : null}
          </td>
          {withWatch ? <td className="py-2 pr-3">{c.watch?.name}</td> : null}
          <td className="py-2 pr-3">{c.risk ? <RiskBadge risk={c.risk} /> : null}</td>
          <td className="py-2 pr-3">{c.state ? <StateBadge state={c.state} /> : null}</td>
          <td className="py-2 pr-3">{c.action ? t(`action.${c.action}`) : c.triage ? t(`triage.${c.triage}`) : '—'}</td>
          <td className="py-2 pr-3">{c.opened_at ? <DateText value={c.opened_at} lng={i18n.language} /> : null}</td>
        </CardTableRow>
      )}
    />
  )
}

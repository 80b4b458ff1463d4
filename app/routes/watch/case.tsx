import { Outlet, useRouteLoaderData } from 'react-router'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { CardTable, CardTableRow, DetailList } from '#app/components/screen-parts.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Answer } from '#app/lib/platform-api.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/case.ts'
import { watchScreen } from './shared.server.ts'
import { RiskBadge, StateBadge } from './shared.tsx'

export const CASE_ID = 'routes/watch/case'
export type CaseDetail = Answer<'/groups/{context}/watch-cases/{id}'>

/** /watch/{id}/cases/{caseId}: one case — its names, rating and reasons, evidence, steps, what was mailed and its deadlines. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const detail = await screen.platform.get('/groups/{context}/watch-cases/{id}', { path: { context: screen.groupContext, id: params.caseId } })
  const t = getInstance(context).t
  return { detail, canManage: screen.canManage, meta: pageMeta(request, context, t('watch:case.title', { name: detail.case.names[0] })) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export const useCase = () => useRouteLoaderData<typeof loader>(CASE_ID)!

export default function WatchCase({ loaderData, params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  const { detail, canManage } = loaderData
  const c = detail.case
  const d = detail.detection
  const when = (iso: string | null) => (iso ? <DateText value={iso} lng={i18n.language} /> : '—')
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('title'), to: '/watch' },
          { label: detail.watch.name, to: `/watch/${params.id}` },
          { label: t('tabs.cases'), to: `/watch/${params.id}/cases` },
        ]}
        title={
          <span className="font-mono" data-testid="case-name">
            {c.names[0]}
          </span>
        }
        status={
          <span className="flex gap-2">
            <StateBadge state={c.state} />
            <RiskBadge risk={c.risk} />
          </span>
        }
        description={c.names.length > 1 ? t('case.cluster', { names: c.names.slice(1).join(', ') }) : null}
        actions={
          canManage && c.state !== 'resolved' ? (
            <HeaderAction to={`/watch/${params.id}/cases/${c.id}/step`} primary data-testid="case-step">
              {t('case.nextStep')}
            </HeaderAction>
          ) : null
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardTitle className="mb-3">{t('case.details')}</CardTitle>
          <DetailList
            rows={[
              [t('fields.names'), <span className="font-mono text-xs">{c.names.join(' ')}</span>],
              [t('fields.state'), t(`state.${c.state}`)],
              [t('fields.triage'), c.triage ? t(`triage.${c.triage}`) : '—'],
              [t('fields.action'), c.action ? t(`action.${c.action}`) : '—'],
              [t('fields.resolution'), c.resolution ? t(`resolution.${c.resolution}`) : '—'],
              [t('fields.notice_to'), c.notice_to ?? '—'],
              [t('fields.notice_sent_at'), when(c.notice_sent_at)],
              [t('fields.opened_at'), when(c.opened_at)],
              [t('case.urs'), detail.urs ? t('case.ursApplies') : t('case.ursNot', { tld: c.tld })],
            ]}
          />
        </Card>
        <Card>
          <CardTitle className="mb-3">{t('case.rating', { points: d.points })}</CardTitle>
          <ul className="space-y-1 text-sm" data-testid="case-reasons">
            {d.reasons.map((r) => (
              <li key={r.code} className="flex justify-between gap-3">
                <span>
                  {t(`reason.${r.code}`)}
                  {r.detail ? <span className="text-slate-500"> — {r.detail}</span> : null}
                </span>
                <span className="tabular-nums text-slate-600 dark:text-slate-300">+{r.points}</span>
              </li>
            ))}
          </ul>
          <CardTitle className="mt-4 mb-2">{t('case.deadlines')}</CardTitle>
          {detail.deadlines.length ? (
            <ul className="space-y-1 text-sm" data-testid="case-deadlines">
              {detail.deadlines.map((x) => (
                <li key={x.key} className="flex justify-between gap-3">
                  <span>{t(`deadline.${x.key}`)}</span>
                  <DateText value={x.due} lng={i18n.language} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t('case.noDeadlines')}</p>
          )}
        </Card>
      </div>
      <Card>
        <CardTitle className="mb-3">{t('case.steps')}</CardTitle>
        <ol className="space-y-2 text-sm" data-testid="case-steps">
          {detail.steps.map((s) => (
            <li key={s.id} className="flex flex-wrap gap-x-3 border-l-2 border-slate-200 pl-3 dark:border-slate-700">
              <span className="font-medium">{t(`state.${s.state}`, { defaultValue: s.state })}</span>
              {s.detail ? <span>{t(`${s.state === 'triaged' ? 'triage' : s.state === 'resolved' ? 'resolution' : 'action'}.${s.detail}`, { defaultValue: s.detail })}</span> : null}
              <span className="text-slate-500">
                {s.actor_label} · <DateText value={s.at} lng={i18n.language} />
              </span>
              {s.note ? <span className="w-full text-slate-600 dark:text-slate-300">{s.note}</span> : null}
            </li>
          ))}
        </ol>
        {detail.sends.length ? (
          <>
            <CardTitle className="mt-4 mb-2">{t('case.mailed')}</CardTitle>
            <ul className="space-y-1 text-sm" data-testid="case-sends">
              {detail.sends.map((s) => (
                <li key={s.step}>
                  {t(`case.send.${s.step}`, { defaultValue: s.step })}: <span className="font-mono text-xs">{s.recipient}</span> · <DateText value={s.sent_at} lng={i18n.language} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Card>
      <Evidence evidence={d.evidence} />
      <Outlet />
    </div>
  )
}

type EvidenceRow = CaseDetail['detection']['evidence'][number]

/** The detection's evidence as captured: kind, time, hash and what it said. */
export function Evidence({ evidence }: { evidence: EvidenceRow[] }) {
  const { t, i18n } = useTranslation('watch')
  return (
    <Card>
      <CardTitle className="mb-3">{t('case.evidence')}</CardTitle>
      <CardTable<EvidenceRow>
        items={evidence}
        minWidth="min-w-[36rem]"
        testId="case-evidence"
        empty={{ text: t('case.noEvidence'), testId: 'case-evidence-empty' }}
        headings={[{ label: t('evidence.kind') }, { label: t('evidence.captured') }, { label: t('evidence.says') }, { label: 'SHA-256' }]}
        render={(e) => (
          <CardTableRow key={e.id} testId={`evidence-${e.kind}`}>
            <td className="py-2 pr-3 align-top">{t(`evidence.${e.kind}`)}</td>
            <td className="py-2 pr-3 align-top whitespace-nowrap">
              <DateText value={e.captured_at} lng={i18n.language} />
            </td>
            <td className="py-2 pr-3 align-top font-mono text-xs break-all">{evidenceText(e)}</td>
            <td className="py-2 align-top font-mono text-xs text-slate-500">{e.sha256.slice(0, 12)}…</td>
          </CardTableRow>
        )}
      />
    </Card>
  )
}

/** What a piece of evidence says, in one line per record. */
export function evidenceText(e: EvidenceRow): string {
  const data = e.data as Record<string, unknown>
  if (e.kind === 'dns')
    return ['ns', 'a', 'aaaa', 'mx', 'txt']
      .filter((k) => Array.isArray(data[k]) && (data[k] as unknown[]).length)
      .map((k) => `${k.toUpperCase()} ${(data[k] as string[]).join(', ')}`)
      .join(' · ')
  if (e.kind === 'rdap')
    return [
      data.registrar && `${String(data.registrar)}${data.iana_id ? ` (IANA ${String(data.iana_id)})` : ''}`,
      data.abuse_email && `abuse ${String(data.abuse_email)}`,
      data.registered_at && `created ${String(data.registered_at).slice(0, 10)}`,
      Array.isArray(data.statuses) && data.statuses.join(', '),
    ]
      .filter(Boolean)
      .join(' · ')
  if (e.kind === 'web') return 'error' in data ? String(data.error) : `HTTP ${String(data.status)} ${String(data.url)}${data.title ? ` “${String(data.title)}”` : ''}`
  return JSON.stringify(data)
}

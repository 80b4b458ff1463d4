import { data, redirect } from 'react-router'
import { ConfirmAction, DetailList } from '#app/components/screen-parts.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { JobRefresh } from '#app/components/job-panel.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { backWith, flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import type { Answer } from '#app/lib/platform-api.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ChangeText } from './form.tsx'
import { changeSetObjectsList } from './lists.ts'
import type { Route } from './+types/detail.ts'
import { Form } from 'react-router'

type ChangeSetView = Answer<'/groups/{context}/change-sets/{id}', 'get'>

const objectsOf = (id: string): ListDefinition => ({ ...changeSetObjectsList, apiPath: (ctx) => `/groups/${encodeURIComponent(ctx)}/change-sets/${id}/objects` })

/** /change-sets/{id}: what the set changes, its preview per object, its stages as they run, and its controls. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const [set, { page, headers }] = await Promise.all([
    platform.get('/groups/{context}/change-sets/{id}', { path: { context: groupContext, id: params.id } }),
    loadListPage(request, context, objectsOf(params.id), groupContext),
  ])
  return data({ set, page, meta: pageMeta(request, context, set.name) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const INTENTS = ['preview', 'start', 'pause', 'resume', 'cancel', 'delete', 'approve', 'reject'] as const

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const set = await platform.get('/groups/{context}/change-sets/{id}', { path: { context: groupContext, id: params.id } })
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  if (!(INTENTS as readonly string[]).includes(intent)) return backWith(request, url.pathname, { content: t('change-sets:errors.unknownAction'), color: 'error' })
  // An approver decides without managing the target (the platform checks they are one of the set's approvers, not its author).
  if (intent !== 'approve' && intent !== 'reject') requireChange(request, user, set.target === 'zones' ? 'dns-manager' : 'domain-manager')
  const path = { context: groupContext, id: params.id }
  try {
    if (intent === 'approve' || intent === 'reject')
      await platform.post('/groups/{context}/change-sets/{id}/decision', { path, body: { decision: intent, comment: String(form.get('comment') ?? '').slice(0, 2000) } })
    else if (intent === 'preview') await platform.post('/groups/{context}/change-sets/{id}/preview', { path })
    else if (intent === 'delete') {
      await platform.delete('/groups/{context}/change-sets/{id}', { path })
      return redirect(carryContext('/change-sets', url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('change-sets:done.delete'), color: 'success' }) } })
    } else await platform.post('/groups/{context}/change-sets/{id}/{action}', { path: { ...path, action: intent as 'start' | 'pause' | 'resume' | 'cancel' } })
  } catch (error) {
    return backWith(request, `${url.pathname}${url.search}`, { content: refusalTextOf(t, error), color: 'error' })
  }
  return backWith(request, `${url.pathname}${url.search}`, { content: t(`change-sets:done.${intent}`), color: 'success' })
}

export default function ChangeSetDetail({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('change-sets')
  const { set, page } = loaderData
  const running = set.state === 'running' || (set.state !== 'draft' && set.phase !== null)
  const n = (value: number) => value.toLocaleString(i18n.language)
  return (
    <div className="space-y-6">
      <JobRefresh running={running} />
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/change-sets' }]}
        title={set.name}
        status={<StatusBadge kind="changeSet" code={set.state} data-testid="change-set-state" />}
        description={t('detail.description', { target: t(`targets.${set.target}`), kind: t(`kinds.${set.change.kind}`) })}
        actions={set.can_manage ? <Controls set={set} /> : null}
      />
      <section className="grid gap-4 lg:grid-cols-2">
        <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="text-base font-semibold">{t('detail.summary')}</h2>
          <DetailList
            rows={[
              [t('fields.filter'), set.filter ? <code className="break-all font-mono text-xs">{set.filter}</code> : t('everything')],
              [t('detail.change'), <ChangeText key="change" change={set.change} />],
              [t('detail.stages'), set.stages.map((s) => `${s} %`).join(' → ')],
              [t('fields.created_by_label'), set.created_by_label],
              [t('fields.created_at'), <DateText key="created" value={set.created_at} lng={i18n.language} time />],
            ]}
          />
        </div>
        <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid="change-set-preview">
          <h2 className="text-base font-semibold">{t('preview.title')}</h2>
          {set.preview ? (
            <>
              <dl className="grid grid-cols-3 gap-3 text-center">
                {(
                  [
                    ['objects', set.preview.objects],
                    ['changed', set.preview.changed],
                    ['unchanged', set.preview.unchanged],
                    ['conflicts', set.preview.conflicts],
                    ['added', set.preview.added],
                    ['removed', set.preview.removed],
                  ] as const
                ).map(([key, value]) => (
                  <div key={key} className="rounded-md bg-slate-50 p-2 dark:bg-slate-800/60" data-testid={`preview-${key}`}>
                    <dt className="text-xs text-slate-500 dark:text-slate-400">{t(`preview.${key}`)}</dt>
                    <dd className={`text-lg font-semibold tabular-nums ${key === 'conflicts' && value > 0 ? 'text-red-700 dark:text-red-400' : ''}`}>{n(value)}</dd>
                  </div>
                ))}
              </dl>
              {set.previewed_at ? (
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {t('preview.when')} <DateText value={set.previewed_at} lng={i18n.language} time />
                </p>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('preview.none')}</p>
          )}
        </div>
      </section>
      {set.approval ? <Approval set={set} /> : null}
      {set.state !== 'draft' && set.state !== 'awaiting_approval' && set.state !== 'rejected' ? <Progress set={set} /> : null}
      <section className="space-y-2">
        <h2 className="text-base font-semibold">{t('detail.objects')}</h2>
        <DataTable
          def={objectsOf(set.id)}
          page={page}
          labels={(key) => t(`fields.${key}`, { defaultValue: key })}
          renderCell={(row, key) => {
            if (key === 'preview' || key === 'outcome') return row[key] ? <StatusBadge kind="changeObject" code={String(row[key])} /> : '—'
            if (key === 'diff')
              return row.diff ? (
                <pre className="max-w-xl whitespace-pre-wrap break-all font-mono text-xs" data-testid="object-diff">
                  {String(row.diff)
                    .split('\n')
                    .map((line, i) => (
                      <span key={i} className={`block ${line.startsWith('+') ? 'text-green-700 dark:text-green-400' : line.startsWith('-') ? 'text-red-700 dark:text-red-400' : ''}`}>
                        {line}
                      </span>
                    ))}
                </pre>
              ) : (
                '—'
              )
            if (key === 'stage') return row.stage === null || row.stage === undefined ? '—' : t('progress.stageShort', { n: Number(row.stage) + 1 })
            if (key === 'finished_at') return row.finished_at ? <DateText value={String(row.finished_at)} lng={i18n.language} time /> : '—'
            return undefined
          }}
        />
      </section>
    </div>
  )
}

/** The header's controls for the state the set is in. */
function Controls({ set }: { set: ChangeSetView }) {
  const { t } = useTranslation('change-sets')
  const post = (intent: string, label: string, variant: 'default' | 'outline' = 'outline') => (
    <Form method="post" key={intent}>
      <Button type="submit" name="intent" value={intent} size="sm" variant={variant} data-testid={`change-set-${intent}`}>
        {label}
      </Button>
    </Form>
  )
  return (
    <>
      {set.state === 'draft' ? post('preview', set.preview ? t('actions.previewAgain') : t('actions.preview')) : null}
      {set.state === 'draft' && set.preview && set.preview.changed > 0 ? post('start', t('actions.start', { share: set.stages[0] }), 'default') : null}
      {set.state === 'running' ? post('pause', t('actions.pause')) : null}
      {set.state === 'paused' ? post('resume', t('actions.resume'), 'default') : null}
      {set.state === 'running' || set.state === 'paused' || set.state === 'awaiting_approval' ? (
        <ConfirmAction intent="cancel" label={t('actions.cancel')} question={t('actions.cancelQuestion')} confirmLabel={t('actions.cancelConfirm')} variant="destructive" />
      ) : null}
      {set.state === 'draft' ? (
        <ConfirmAction intent="delete" label={t('actions.delete')} question={t('actions.deleteQuestion')} confirmLabel={t('actions.deleteConfirm')} variant="destructive" />
      ) : null}
    </>
  )
}

/** The approval the set waits for (or had): N of its approvers, each decision, and the caller's own when they are one of them. */
function Approval({ set }: { set: ChangeSetView }) {
  const { t, i18n } = useTranslation('change-sets')
  const approval = set.approval!
  const approvals = approval.decisions.filter((d) => d.decision === 'approve').length
  return (
    <section className="space-y-3 rounded-lg border border-amber-200 bg-amber-50/60 p-4 shadow-sm dark:border-amber-900/60 dark:bg-amber-950/20" data-testid="change-set-approval">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold">{t('approval.title')}</h2>
        <span className="text-sm tabular-nums text-slate-700 dark:text-slate-300" data-testid="approval-count">
          {t('approval.count', { approvals, required: approval.required, approvers: approval.approvers.length })}
        </span>
      </div>
      <p className="text-sm text-slate-700 dark:text-slate-300">{t(`approval.reason.${approval.reason ?? 'account'}`)}</p>
      <ul className="space-y-1 text-sm">
        {approval.approvers.map((email) => {
          const decision = approval.decisions.find((d) => d.email === email)
          return (
            <li key={email} className="flex flex-wrap items-baseline gap-2">
              <span className="font-mono text-xs">{email}</span>
              {decision ? (
                <>
                  <StatusBadge kind="approval" code={decision.decision === 'approve' ? 'approved' : 'rejected'} />
                  <DateText value={decision.decided_at} lng={i18n.language} time />
                  {decision.comment ? <span className="text-slate-600 dark:text-slate-400">“{decision.comment}”</span> : null}
                </>
              ) : (
                <span className="text-slate-500 dark:text-slate-400">{set.state === 'awaiting_approval' ? t('approval.waiting') : '—'}</span>
              )}
            </li>
          )
        })}
      </ul>
      {approval.can_decide ? (
        <Form method="post" className="space-y-2" data-testid="approval-form">
          <label className="block text-sm font-medium" htmlFor="approval-comment">
            {t('approval.comment')}
          </label>
          <textarea
            id="approval-comment"
            name="comment"
            rows={2}
            maxLength={2000}
            className="block w-full rounded-md border border-slate-300 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="intent" value="approve" size="sm" data-testid="change-set-approve">
              {t('approval.approve')}
            </Button>
            <Button type="submit" name="intent" value="reject" size="sm" variant="destructive" data-testid="change-set-reject">
              {t('approval.reject')}
            </Button>
          </div>
        </Form>
      ) : set.state === 'awaiting_approval' ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('approval.notYours')}</p>
      ) : null}
    </section>
  )
}

/** The rollout: each stage's share, its objects' outcomes and its health check. */
function Progress({ set }: { set: ChangeSetView }) {
  const { t, i18n } = useTranslation('change-sets')
  const n = (value: number) => value.toLocaleString(i18n.language)
  return (
    <section className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" data-testid="change-set-progress">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold">{t('progress.title')}</h2>
        {set.phase ? <span className="text-sm text-slate-600 dark:text-slate-400">{t(`phases.${set.phase}`, { n: set.current_stage + 1 })}</span> : null}
      </div>
      <ol className="space-y-3">
        {set.progress.map((stage) => {
          const finished = stage.objects - stage.pending
          return (
            <li key={stage.stage} className="space-y-1" data-testid={`stage-${stage.stage}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                <span className="font-medium">{t('progress.stage', { n: stage.stage + 1, share: stage.share })}</span>
                <span className="tabular-nums text-slate-600 dark:text-slate-400">
                  {t('progress.counts', {
                    done: n(finished),
                    total: n(stage.objects),
                    applied: n(stage.applied),
                    unchanged: n(stage.unchanged),
                    failed: n(stage.failed),
                    rolledBack: n(stage.rolled_back),
                  })}
                </span>
              </div>
              <progress
                className="h-2 w-full overflow-hidden rounded accent-blue-600"
                max={Math.max(1, stage.objects)}
                value={finished}
                aria-label={t('progress.stage', { n: stage.stage + 1, share: stage.share })}
              />
              {stage.check ? (
                <div className={`text-sm ${stage.check.ok ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}`} data-testid={`stage-${stage.stage}-check`}>
                  {stage.check.ok
                    ? stage.check.skipped
                      ? t('progress.checkOkPlain')
                      : t(set.target === 'domains' ? 'progress.checkOkRegistry' : 'progress.checkOk', { count: stage.check.checked })
                    : t('progress.checkFailed')}
                  {stage.check.skipped ? <span className="text-slate-500 dark:text-slate-400"> — {t(`progress.skipped.${stage.check.skipped}`, { defaultValue: stage.check.skipped })}</span> : null}
                  {stage.check.failures.length ? (
                    <ul className="mt-1 list-inside list-disc text-xs">
                      {stage.check.failures.slice(0, 10).map((f, i) => (
                        <li key={i}>
                          <span className="font-mono">{f.name}</span>: {f.reason}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
            </li>
          )
        })}
      </ol>
      {set.skipped ? <p className="text-sm text-slate-600 dark:text-slate-400">{t('progress.notSent', { count: set.skipped })}</p> : null}
    </section>
  )
}

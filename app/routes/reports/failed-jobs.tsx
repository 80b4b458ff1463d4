import { data, Form } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { isUuid } from '#app/lib/context-param.ts'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/failed-jobs.ts'
import { failedJobsList } from './lists.ts'
import { reportScreen } from './report.server.ts'

/**
 * Staff's screen of the failed jobs (issue 29: "staff see … failed jobs"): what the operations
 * report's failed-job figures open. The jobs are the registrar's, no account's: read in staff's
 * own group, refused (403) to anyone else and in a client's context.
 */
async function jobsScreen(request: Request, context: Route.LoaderArgs['context']) {
  const screen = await reportScreen(request, context, 'staff')
  if (screen.group !== screen.user.group_id) throw data(getInstance(context).t('reports:failedJobs.ownGroupOnly'), { status: 403 })
  return screen
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const screen = await jobsScreen(request, context)
  const { page, headers } = await loadListPage(request, context, failedJobsList, screen.group)
  const t = getInstance(context).getFixedT(null, 'reports')
  return data({ page, meta: pageMeta(request, context, t('failedJobs.title'), t('failedJobs.description')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** Retry: the job back in its queue (the API's retry, audited there), the list again with a snackbar. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await jobsScreen(request, context)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const id = String(form.get('id') ?? '')
  const back = `${screen.url.pathname}${screen.url.search}`
  if (!isUuid(id)) throw data('A job id is needed', { status: 400 })
  try {
    const job = await screen.platform.post('/groups/{context}/jobs/failed/{id}/retry', { path: { context: screen.group, id } })
    return backWith(request, back, { content: t('reports:failedJobs.retried', { queue: job.queue }), color: 'success' })
  } catch (error) {
    return backWith(request, back, { content: refusalTextOf(t, error), color: 'error' })
  }
}

export default function FailedJobs({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const { page } = loaderData
  const def = failedJobsList
  return (
    <div className="space-y-4" data-testid="failed-jobs">
      <PageHeader
        title={t('failedJobs.title')}
        breadcrumb={[
          { label: t('title'), to: '/reports' },
          { label: t('operations.title'), to: '/reports/operations' },
        ]}
      />
      <Card className="flex flex-wrap items-baseline gap-x-4 gap-y-2">
        <span className="text-3xl font-semibold tabular-nums" data-testid="failed-jobs-total">
          {page.meta.total.toLocaleString(i18n.language)}
        </span>
        <span className="text-slate-600 dark:text-slate-400">{t('failedJobs.totalLabel', { count: page.meta.total })}</span>
        <p className="w-full text-sm text-slate-500">{t('failedJobs.description')}</p>
      </Card>
      <DataTable
        def={def}
        page={page}
        labels={(key) => t(`failedJobs.fields.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => {
          const value = row[key]
          if (key === 'queue') return <span className="font-mono text-sm">{String(value ?? '')}</span>
          if (key === 'failed_at' || key === 'created_at') return typeof value === 'string' ? <time dateTime={value}>{formatDateTime(value, i18n.language)}</time> : ''
          if (key === 'error') {
            const text = String(value ?? '')
            return (
              <span className="line-clamp-3 max-w-md font-mono text-xs [overflow-wrap:anywhere]" title={text}>
                {text}
              </span>
            )
          }
          if (key === 'data_keys') return <span className="font-mono text-xs">{Array.isArray(value) ? value.join(', ') : ''}</span>
          if (key === 'data_ids')
            return Array.isArray(value) ? (
              <span className="flex flex-col font-mono text-xs">
                {value.map((id) => (
                  <span key={String(id)} className="break-all">
                    {String(id)}
                  </span>
                ))}
              </span>
            ) : (
              ''
            )
          if (key === 'retries') {
            return (
              <span className="flex items-center gap-3">
                <span className="tabular-nums">{String(value ?? '')}</span>
                <Form method="post" className="inline">
                  <input type="hidden" name="id" value={String(row.id ?? '')} />
                  <Button
                    type="submit"
                    variant="outline"
                    size="sm"
                    aria-label={t('failedJobs.retryTitle', { queue: String(row.queue ?? '') })}
                    title={t('failedJobs.retryBody')}
                    data-testid={`retry-${String(row.id ?? '')}`}
                  >
                    {t('failedJobs.retry')}
                  </Button>
                </Form>
              </span>
            )
          }
          if (key === 'archived') return value ? t('failedJobs.fields.archived') : ''
          return undefined
        }}
      />
    </div>
  )
}

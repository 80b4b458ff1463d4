import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, redirect, useLocation } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { JobPanel, JobRefresh } from '#app/components/job-panel.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { formRules } from '#app/lib/form-messages.ts'
import { backWith, flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { dnsTrayRecordsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/records.ts'
import { refusalErrors, refusalOf, refusalText } from '#app/lib/refusal.server.ts'
import { dnsScreen } from '../domains/dns/shared.server.ts'

const JOB_ID = /^[0-9a-f-]{36}$/i

/** "Replace an address everywhere": what to replace, with what, and where (the tray's records, or every zone). */
const replaceSchema = (t: TFunction) => {
  const rules = formRules(t)
  return z.object({ from: rules.requiredText(), to: rules.requiredText(), where: z.enum(['tray', 'all']).default('tray') })
}

/** /tray/records: the DNS records of the user's server-side tray, and "replace this address everywhere". */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const { page, headers } = await loadListPage(request, context, dnsTrayRecordsList, screen.groupContext)
  const jobId = screen.url.searchParams.get('job')
  const job = jobId && JOB_ID.test(jobId) ? await screen.platform.get('/groups/{context}/record-bulk-actions/{job_id}', { path: { context: screen.groupContext, job_id: jobId } }) : null
  return data({ page, job, canAdmin: screen.canAdmin, meta: pageMeta(request, context, t('tray.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const form = await request.formData()
  // A role the page offers no control for: said on the page, never a 403 problem document from the platform.
  if (!screen.canAdmin) return backWith(request, screen.url.pathname, { content: t('zone.needsAdmin'), color: 'error' })
  const submission = parseWithZod(form, { schema: replaceSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const started = await screen.platform.post('/groups/{context}/record-bulk-actions', {
      path: { context: screen.groupContext },
      body: { action: 'replace_record_content', params: submission.value },
    })
    return redirect(carryContext(`/tray/records?job=${started.job_id}`, screen.url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('tray.replace.started'), color: 'info' }) },
    })
  } catch (error) {
    // What was typed comes back, the refusal above the form and each field's error beside it.
    const r = refusalOf(error)
    const { fieldErrors } = refusalErrors(t, r.problem, ['from', 'to', 'where'], { 'params.from': 'from', 'params.to': 'to', 'params.where': 'where' })
    return data({ result: submission.reply({ fieldErrors, formErrors: [refusalText(t, r.problem, { withFields: false })] }) }, { status: r.status })
  }
}

export default function TrayRecords({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const href = useContextHref()
  const { pathname, search } = useLocation()
  const def = dnsTrayRecordsList
  const { page, job, canAdmin } = loaderData
  const empty = page.meta.total === 0 && page.query.filters.length === 0
  const running = job !== null && (job.state === 'queued' || job.state === 'running')
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('tray.title')}</h1>
      <JobRefresh running={running} />
      {job ? (
        <JobPanel
          title={`${t('tray.replace.jobTitle', { from: job.params.from, to: job.params.to })} — ${t(`tray.replace.states.${job.state}`)}`}
          state={job.state}
          done={job.done}
          total={job.total}
          progressText={t('tray.replace.progress', { done: job.done, total: job.total })}
          columns={[t('fields.zone.name'), t('tray.replace.result')]}
          rows={job.results}
          rowKey={(r) => r.id}
          ok={(r) => r.ok}
          cells={(r) => [
            r.name,
            r.state === 'pending' ? t('tray.replace.pending') : r.ok ? (r.outcome === 'unchanged' ? t('tray.replace.unchanged') : t('tray.replace.applied', { count: r.records ?? 0 })) : r.error,
          ]}
        />
      ) : null}
      {empty ? (
        <p data-testid="tray-records-empty">
          {t('tray.empty')}{' '}
          <Link className="underline" to={href('/domains/search/records')}>
            {t('search.title')}
          </Link>
        </p>
      ) : (
        <>
          <DataTable
            def={def}
            page={page}
            labels={(key) => t(key === 'zone' ? 'fields.zone.name' : key === 'added_at' ? 'tray.addedAt' : `fields.${key}`, { defaultValue: key })}
            renderCell={(row, key) => {
              if (key === 'content')
                return (
                  <span className="break-all font-mono text-xs" data-testid="tray-record">
                    {String(row.content ?? '')}
                  </span>
                )
              if (key === 'added_at') return <time dateTime={String(row.added_at)}>{formatDateTime(String(row.added_at), i18n.language)}</time>
              return undefined
            }}
          />
          <Form method="post" action="/tray/items">
            <input type="hidden" name="redirectTo" value={pathname + search} />
            <input type="hidden" name="entity_type" value="record" />
            <Button type="submit" name="intent" value="clear" variant="outline">
              {t('tray.clear')}
            </Button>
          </Form>
        </>
      )}
      {canAdmin ? (
        <section aria-labelledby="replace-heading" className="space-y-3 rounded-md border border-slate-200 p-4 dark:border-slate-800">
          <h2 id="replace-heading" className="text-lg font-semibold">
            {t('tray.replace.title')}
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('tray.replace.help')}</p>
          <ReplaceForm empty={empty} running={running} lastResult={actionData?.result} />
        </section>
      ) : null}
    </div>
  )
}

function ReplaceForm({ empty, running, lastResult }: { empty: boolean; running: boolean; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('dns')
  const [form, fields] = useZodForm(replaceSchema(t), { id: 'replace', lastResult, defaultValue: { where: empty ? 'all' : 'tray' } })
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-xl gap-3" data-testid="replace-form">
      <FormErrors id={form.errorId} errors={form.errors} testId="replace-error" />
      <Field labelProps={{ children: t('tray.replace.from') }} inputProps={{ ...getInputProps(fields.from, { type: 'text' }), placeholder: '192.0.2.10' }} errors={fields.from.errors} />
      <Field labelProps={{ children: t('tray.replace.to') }} inputProps={{ ...getInputProps(fields.to, { type: 'text' }), placeholder: '198.51.100.7' }} errors={fields.to.errors} />
      <fieldset className="grid gap-1">
        <legend className="text-sm font-medium">{t('tray.replace.where')}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.where, { type: 'radio', value: 'tray' })} disabled={empty} />
          {t('tray.replace.whereTray')}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.where, { type: 'radio', value: 'all' })} />
          {t('tray.replace.whereAll')}
        </label>
      </fieldset>
      <div>
        <Button type="submit" disabled={running}>
          {t('tray.replace.submit')}
        </Button>
      </div>
    </Form>
  )
}

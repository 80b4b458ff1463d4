import { getFormProps } from '@conform-to/react'
import { getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect, useActionData, useNavigation } from 'react-router'
import { JobPanel, JobRefresh } from '#app/components/job-panel.tsx'
import { ErrorList, useZodForm } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { parseDomainName } from '#common/domain-name.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { printPql } from '#common/pql.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/contacts.ts'
import { contactsSchema } from './schemas.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen, splitNames } from './shared.server.ts'

const MAX_DOMAINS = 1000
const JOB_ID = /^[0-9a-f-]{36}$/i
type ItemResult = { id?: string; name: string; ok: boolean; error?: string }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const url = requestUrl(request)
  const contacts = await screen.platform.get('/groups/{context}/contacts', { path: { context: screen.groupContext }, query: { limit: 250, sort: 'name' } })
  const jobId = url.searchParams.get('job')
  const job = jobId && JOB_ID.test(jobId) ? await screen.platform.get('/groups/{context}/bulk-actions/{job_id}', { path: { context: screen.groupContext, job_id: jobId } }) : null
  const t = getInstance(context).getFixedT(null, 'domains')
  return { contacts: contacts.data, job, canManage: screen.canManage, meta: pageMeta(request, context, t('contacts.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'domains')
  // A post the user's role does not allow (an old page, a form sent without the page): said on
  // the page, in the user's language, never an error document instead of it.
  if (!screen.canManage) return data({ refused: t('common:readOnly.refused') }, { status: 403 })
  const submission = parseWithZod(await request.formData(), { schema: contactsSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const names = splitNames(submission.value.names, MAX_DOMAINS)
  const ascii = [
    ...new Set(
      names.map((n) => {
        const p = parseDomainName(n)
        return p.ok ? p.domain.ascii : n.toLowerCase()
      }),
    ),
  ]
  const found = await screen.platform.get('/groups/{context}/domains', {
    path: { context: screen.groupContext },
    query: { pql: printPql([{ field: 'name', operator: 'equals', values: ascii }]), limit: MAX_DOMAINS, fields: 'id,name' },
  })
  const contacts = Object.fromEntries(CONTACT_ROLES.flatMap((role) => (submission.value[role] ? [[role, submission.value[role]]] : [])))
  const missing: ItemResult[] = ascii.filter((n) => !found.data.some((d) => d.name === n)).map((name) => ({ name, ok: false, error: t('contacts.notFound') }))
  if (!found.data.length) return data({ result: submission.reply(), results: missing }, { status: 400 })

  // Many domains at once: one bulk job when the platform offers it (progress and per-item results).
  const bulk = await screen.platform.raw(`${screen.base}/bulk-actions`, { method: 'POST', body: { action: 'set_contacts', ids: found.data.map((d) => d.id), params: { contacts } } })
  if (bulk.status === 202 || bulk.status === 201) {
    const { job_id } = (await bulk.json()) as { job_id: string }
    const url = requestUrl(request)
    const next = new URLSearchParams(url.searchParams)
    next.set('job', job_id)
    return redirect(`${url.pathname}?${next}`)
  }
  await bulk.body?.cancel()
  // Otherwise one versioned PATCH per domain, each reported on its own.
  const results: ItemResult[] = [...missing]
  for (const domain of found.data) {
    const outcome = await attempt(async () => {
      const detail = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: domain.id } })
      return screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: domain.id }, body: { version: detail.version, contacts } })
    })
    if (outcome.ok) results.push({ id: domain.id, name: domain.name, ok: true, ...('material_change_request_id' in outcome.value ? { error: t('contacts.approvalNeeded') } : {}) })
    else results.push({ id: domain.id, name: domain.name, ok: false, error: refusalText(t, outcome.problem) })
  }
  return { result: submission.reply({ resetForm: false }), results }
}

type ActionData = { result?: never; results?: ItemResult[]; refused?: string }

function Results({ results }: { results: ItemResult[] }) {
  const { t } = useTranslation('domains')
  return (
    <table className="w-full text-sm" data-testid="contacts-results">
      <thead>
        <tr className="text-left">
          <th>{t('fields.name')}</th>
          <th>{t('add.outcome')}</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.name} data-ok={r.ok}>
            <td className="font-mono">{r.name}</td>
            <td className={r.ok ? 'text-green-700 dark:text-green-400' : 'text-red-700 dark:text-red-400'}>{r.ok ? (r.error ?? t('contacts.changed')) : r.error}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** /domains/contacts: set the registrant, admin, tech and billing contacts of many domains at once. */
export default function DomainContacts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('domains')
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const { job, contacts } = loaderData
  const running = job ? !['completed', 'failed', 'cancelled', 'done'].includes(job.state) : false
  const schema = contactsSchema(t)
  const [form, fields] = useZodForm(schema, {
    id: 'contacts-form',
    lastResult: actionData?.result,
    shouldValidate: 'onSubmit',
  })
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('list.title'), to: '/domains' }]} title={t('contacts.title')} />
      <JobRefresh running={running} />
      {job ? (
        <JobPanel
          state={job.state}
          done={job.done}
          total={job.total}
          progressText={`${t('job.count', { done: job.done, total: job.total })} — ${t(`job.states.${job.state}`, { defaultValue: job.state })}`}
          columns={[t('fields.name'), t('add.outcome')]}
          rows={job.results}
          rowKey={(r) => r.id ?? r.name}
          ok={(r) => r.ok}
          cells={(r) => [<span className="font-mono">{r.name}</span>, r.ok ? (r.error ?? t('contacts.changed')) : r.error]}
        />
      ) : null}
      {actionData?.results ? (
        <Card>
          <Results results={actionData.results} />
        </Card>
      ) : null}
      {actionData?.refused ? (
        <Alert variant="error" data-testid="action-refused">
          {actionData.refused}
        </Alert>
      ) : null}
      {/* A viewer is told why there is no form, instead of a greyed one that gives no reason. */}
      {!loaderData.canManage ? <Alert data-testid="read-only">{t('common:readOnly.domainContacts')}</Alert> : null}
      {loaderData.canManage ? (
        <Card>
          <CardTitle>{t('contacts.formTitle')}</CardTitle>
          {contacts.length === 0 ? <Alert>{t('contacts.noContacts')}</Alert> : null}
          <Form method="post" {...getFormProps(form)} className="grid max-w-xl gap-3">
            <Label htmlFor={fields.names.id}>{t('contacts.namesLabel')}</Label>
            <textarea {...getTextareaProps(fields.names)} rows={5} className="rounded-md border border-slate-300 p-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900" />
            <ErrorList errors={fields.names.errors} />
            {CONTACT_ROLES.map((role) => (
              <label key={role} className="flex flex-col gap-1 text-sm">
                {t(`roles.${role}`)}
                <Select {...getSelectProps(fields[role])}>
                  <option value="">{t('contacts.keep')}</option>
                  {contacts.map((c) => (
                    <option key={c.id} value={c.id}>
                      {[c.name, c.organisation, c.email].filter(Boolean).join(' · ')}
                    </option>
                  ))}
                </Select>
                <ErrorList errors={fields[role].errors} />
              </label>
            ))}
            <ErrorList errors={form.errors} />
            <Button type="submit" className="justify-self-start" disabled={navigation.state !== 'idle'}>
              {t('contacts.submit')}
            </Button>
          </Form>
        </Card>
      ) : null}
    </div>
  )
}

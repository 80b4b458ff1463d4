import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data, Form, redirect, useLocation } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { JobPanel, JobRefresh } from '#app/components/job-panel.tsx'
import { contactLabel } from '../domains/shared.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalOf, refusalText } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

/** The domains in the user's server-side tray (GET /groups/{context}/tray, entity_type domain). */
const TRAY_LIST = LISTS.tray!

export const ACTIONS = ['renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers'] as const
type Job = { id: string; action: string; state: string; total: number; done: number; results: { id: string; name: string; state: string; ok: boolean | null; outcome?: string; error?: string }[] }
type ContactRow = { id: string; name: string; organisation?: string }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const { page, headers } = await loadListPage(request, context, TRAY_LIST, groupContext)
  const platform = await getPlatform(request, context)
  const jobId = url.searchParams.get('job')
  let job: Job | null = null
  if (jobId && /^[0-9a-f-]{36}$/i.test(jobId)) job = await platform.get<Job>(`/groups/${encodeURIComponent(groupContext)}/bulk-actions/${jobId}`)
  const contacts = await platform
    .get<{ data: ContactRow[] }>(`/groups/${encodeURIComponent(groupContext)}/contacts`, { query: { limit: 250, sort: 'name', fields: 'id,name,organisation' } })
    .then((r) => r.data)
    .catch(() => [] as ContactRow[])
  const t = getInstance(context).getFixedT(null, 'tray')
  return data({ page, job, contacts, meta: pageMeta(request, context, t('title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const form = await request.formData()
  const t = getInstance(context).getFixedT(null, 'tray')
  const action = String(form.get('action') ?? '')
  if (!(ACTIONS as readonly string[]).includes(action)) return data({ error: t('errors.action') }, { status: 400 })
  const params: Record<string, unknown> = {}
  if (action === 'renew') params.period = Number(form.get('period') ?? 1)
  if (action === 'set_contacts') {
    params.contacts = Object.fromEntries(['registrant', 'admin', 'tech', 'billing'].flatMap((role) => (form.get(role) ? [[role, String(form.get(role))]] : [])))
  }
  if (action === 'set_nameservers')
    params.nameservers = String(form.get('nameservers') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
  try {
    const platform = await getPlatform(request, context)
    const started = await platform.post<{ job_id: string }>(`/groups/${encodeURIComponent(groupContext)}/bulk-actions`, { action, params })
    return redirect(carryContext(`/tray?job=${started.job_id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('started'), color: 'info' }) } })
  } catch (error) {
    const refused = refusalOf(error, { screens: [403, 404] })
    return data({ error: refusalText(t, refused.problem, { fallback: t('errors.action') }) }, { status: refused.status })
  }
}

export default function TrayScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('tray')
  const { t: tc, i18n } = useTranslation('common')
  const { page, job, contacts } = loaderData
  const running = job !== null && job.state !== 'completed' && job.state !== 'failed'
  const location = useLocation()
  const here = location.pathname + location.search
  return (
    <div className="space-y-6">
      <PageHeader title={t('title')} />
      <JobRefresh running={running} />
      {job ? (
        <JobPanel
          title={`${t(`actions.${job.action}`)} — ${t(`states.${job.state}`)}`}
          state={job.state}
          done={job.done}
          total={job.total}
          progressText={t('progress', { done: job.done, total: job.total })}
          columns={[t('domain'), t('result')]}
          rows={job.results}
          rowKey={(r) => r.id}
          ok={(r) => r.ok}
          cells={(r) => [r.name, r.state === 'pending' ? t('pending') : r.ok ? t(`outcomes.${r.outcome ?? 'applied'}`) : r.error]}
        />
      ) : null}

      <DataTable
        def={TRAY_LIST}
        page={page}
        labels={(key) => t(`columns.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'expires_at' || key === 'added_at') return <DateText value={row[key] as string | null} lng={i18n.language} />
          if (key === 'auto_renew' || key === 'registry_lock' || key === 'is_material') return row[key] ? t('yes') : t('no')
          if (key === 'name')
            return (
              <span className="flex items-center gap-2">
                {String(row.name)}
                <Form method="post" action="/tray/items">
                  <input type="hidden" name="redirectTo" value={here} />
                  <input type="hidden" name="item" value={`domain|${String(row.id)}|`} />
                  <Button type="submit" name="intent" value="remove" variant="ghost" size="sm" aria-label={t('remove', { name: String(row.name) })}>
                    ×
                  </Button>
                </Form>
              </span>
            )
          return String(row[key] ?? '')
        }}
      />

      {page.meta.total > 0 ? (
        <div className="flex flex-wrap items-start gap-6">
          <Form method="post" className="max-w-xl flex-1 space-y-3 rounded-md border border-slate-200 p-4 dark:border-slate-800" aria-labelledby="bulk-heading">
            <h2 id="bulk-heading" className="text-lg font-semibold">
              {t('run', { count: page.meta.total })}
            </h2>
            {actionData && 'error' in actionData ? (
              <p role="alert" className="text-red-700 dark:text-red-400">
                {actionData.error}
              </p>
            ) : null}
            <fieldset className="space-y-1">
              <legend className="font-medium">{t('action')}</legend>
              {ACTIONS.map((a, i) => (
                <label key={a} className="flex items-center gap-2">
                  <input type="radio" name="action" value={a} defaultChecked={i === 0} required /> {t(`actions.${a}`)}
                </label>
              ))}
            </fieldset>
            <label className="block">
              {t('period')}{' '}
              <select name="period" defaultValue="1" className="rounded border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
                {[1, 2, 3, 5, 10].map((n) => (
                  <option key={n} value={n}>
                    {t('years', { count: n })}
                  </option>
                ))}
              </select>
            </label>
            <fieldset className="grid grid-cols-2 gap-2">
              <legend className="font-medium">{t('contacts')}</legend>
              {['registrant', 'admin', 'tech', 'billing'].map((role) => (
                <label key={role} className="block text-sm">
                  {t(`roles.${role}`)}
                  <select name={role} defaultValue="" className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
                    <option value="">{t('keep')}</option>
                    {contacts.map((c) => (
                      <option key={c.id} value={c.id}>
                        {contactLabel(c)}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </fieldset>
            <label className="block">
              {t('nameservers')}
              <textarea
                name="nameservers"
                rows={3}
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
                placeholder="ns1.example.net&#10;ns2.example.net"
              />
            </label>
            <Button type="submit">{t('start')}</Button>
          </Form>
          <Form method="post" action="/tray/items">
            <input type="hidden" name="redirectTo" value={here} />
            <input type="hidden" name="entity_type" value="domain" />
            <Button type="submit" name="intent" value="clear" variant="outline">
              {tc('tray.clear')}
            </Button>
          </Form>
        </div>
      ) : (
        <p data-testid="tray-empty">{t('empty')}</p>
      )}
    </div>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { ErrorList, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data, Form, redirect, useLocation, useNavigation } from 'react-router'
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
import { trayList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalErrors, refusalOf, refusalText } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'
import { ChargeConfirmation } from '#app/components/charge-confirmation.tsx'
import { formatMoney } from '#common/money.ts'
import type { Answer, Row } from '#app/lib/platform-api.ts'

/** The domains in the user's server-side tray (GET /groups/{context}/tray, entity_type domain). */
const TRAY_LIST = trayList

export const ACTIONS = ['renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers'] as const
const ROLES = ['registrant', 'admin', 'tech', 'billing'] as const

/** The bulk action to run on the tray's domains and what it needs: a period to renew by, contacts to set (empty keeps one), name servers. */
const bulkSchema = (t: TFunction) =>
  z.object({
    action: z.enum(ACTIONS, { error: t('errors.action') }),
    period: z.coerce.number().int().min(1).max(10).default(1),
    registrant: z.string().optional(),
    admin: z.string().optional(),
    tech: z.string().optional(),
    billing: z.string().optional(),
    nameservers: z.string().optional(),
  })

type Job = Answer<'/groups/{context}/bulk-actions/{job_id}'>
type ContactRow = Pick<Row<'/groups/{context}/contacts'>, 'id' | 'name' | 'organisation'>

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const { page, headers } = await loadListPage(request, context, TRAY_LIST, groupContext)
  const platform = await getPlatform(request, context)
  const jobId = url.searchParams.get('job')
  let job: Job | null = null
  if (jobId && /^[0-9a-f-]{36}$/i.test(jobId)) job = await platform.get('/groups/{context}/bulk-actions/{job_id}', { path: { context: groupContext, job_id: jobId } })
  const contacts = await platform
    .get('/groups/{context}/contacts', { path: { context: groupContext }, query: { limit: 250, sort: 'name', fields: 'id,name,organisation' } })
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
  const t = getInstance(context).getFixedT(null, 'tray')
  const form = await request.formData()
  const submission = parseWithZod(form, { schema: bulkSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply(), confirm: undefined }, { status: 400 })
  const { action, period, nameservers } = submission.value
  const params: Record<string, unknown> = {}
  if (action === 'renew') params.period = period
  if (action === 'set_contacts') params.contacts = Object.fromEntries(ROLES.flatMap((role) => (submission.value[role] ? [[role, submission.value[role]]] : [])))
  if (action === 'set_nameservers') params.nameservers = (nameservers ?? '').split(/[\s,]+/).filter(Boolean)
  // An action that charges asks once: its total at the engine's quotes first, nothing started; the
  // confirmation posts the total it showed, which the API holds the action to (issue 28).
  const confirmed = form.get('intent') === 'bulk-confirmed'
  const quoteOf = async (): Promise<BulkConfirm | undefined> => {
    const quote = await (await getPlatform(request, context)).post('/groups/{context}/bulk-actions/quote', { path: { context: groupContext }, body: { action, params } })
    if (!quote.totals.length) return undefined
    return { action, period, count: quote.charged, totals: quote.totals, items: quote.items.slice(0, SHOWN_ITEMS), more: Math.max(0, quote.items.length - SHOWN_ITEMS) }
  }
  try {
    if (!confirmed) {
      const confirm = await quoteOf()
      if (confirm) return { result: undefined, confirm }
    }
    const platform = await getPlatform(request, context)
    const started = await platform.post('/groups/{context}/bulk-actions', {
      path: { context: groupContext },
      body: { action, params, ...(confirmed ? { expected_totals: totalsOf(form.get('totals')) } : {}) },
    })
    return redirect(carryContext(`/tray?job=${started.job_id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('started'), color: 'info' }) } })
  } catch (error) {
    // The choices come back as made, the refusal above the form and each field's error beside it.
    const { status, problem } = refusalOf(error, { screens: [403, 404] })
    const alias = { 'params.period': 'period', 'params.nameservers': 'nameservers', ...Object.fromEntries(ROLES.map((role) => [`params.contacts.${role}`, role])) }
    const { fieldErrors, formErrors } = refusalErrors(t, problem, ['action', 'period', 'nameservers', ...ROLES], alias)
    const whole = refusalText(t, problem, { fallback: t('errors.action'), withFields: false })
    // The total changed in between: nothing was started; the new total is asked again.
    const confirm = problem.code === 'billing.quote_changed' ? await quoteOf() : undefined
    return data({ result: submission.reply({ fieldErrors, formErrors: [...new Set([whole, ...(problem.errors?.length ? formErrors : [])])] }), confirm }, { status })
  }
}

/** A charging bulk action at the engine's quotes, shown to confirm before it starts: its total per currency and its first domains' prices (`more`: those not listed). */
type BulkConfirm = { action: string; period: number; count: number; totals: Price[]; items: ({ id: string; name: string } & Price)[]; more: number }
type Price = { amount_minor: number; currency: string }

/** The domains a confirmation lists by name; the total covers them all. */
const SHOWN_ITEMS = 20

/** The totals a confirmation showed, posted back as `1200 USD,500 EUR` (none: no charge). */
const totalsText = (totals: Price[]) => totals.map((p) => `${p.amount_minor} ${p.currency}`).join(',')
function totalsOf(value: FormDataEntryValue | null): Price[] {
  return String(value ?? '')
    .split(',')
    .flatMap((part) => {
      const match = /^(\d{1,15}) ([A-Z]{3})$/.exec(part.trim())
      return match ? [{ amount_minor: Number(match[1]), currency: match[2]! }] : []
    })
    .slice(0, 10)
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
          return undefined
        }}
      />

      {page.meta.total > 0 ? (
        <div className="flex flex-wrap items-start gap-6">
          {/* At least a phone's width: beside it, Empty the tray goes under it rather than squeezing it. */}
          <div className="max-w-xl min-w-72 flex-1 space-y-3">
            {actionData?.confirm ? <BulkConfirmation confirm={actionData.confirm} /> : null}
            <BulkForm count={page.meta.total} contacts={contacts} lastResult={actionData?.result} />
          </div>
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

/** A charging bulk action (a renewal, the registry lock) asked once: its total and each domain's price (the shared ChargeConfirmation). */
function BulkConfirmation({ confirm }: { confirm: BulkConfirm }) {
  const { t, i18n } = useTranslation('tray')
  const navigation = useNavigation()
  const money = (p: Price) => formatMoney(p.amount_minor, p.currency, i18n.language)
  const price = confirm.totals.map(money).join(' + ')
  const question = confirm.action === 'renew' ? t('confirm.renew', { count: confirm.count, years: t('years', { count: confirm.period }), price }) : t('confirm.lock', { count: confirm.count, price })
  return (
    <ChargeConfirmation
      question={question}
      note={t('confirm.note')}
      confirmLabel={t('confirm.confirm')}
      cancelLabel={t('confirm.cancel')}
      intent="bulk-confirmed"
      fields={{ action: confirm.action, period: confirm.period, totals: totalsText(confirm.totals) }}
      price={confirm.totals[0] ?? null}
      busy={navigation.state !== 'idle'}
      testId="bulk"
      details={
        <table className="my-2 w-full max-w-md text-sm" data-testid="bulk-prices">
          <caption className="sr-only">{t('confirm.perDomain')}</caption>
          <tbody>
            {confirm.items.map((item) => (
              <tr key={item.id} className="border-b border-amber-200 dark:border-amber-900" data-testid="bulk-price">
                <th scope="row" className="py-1 pr-4 text-left font-normal [overflow-wrap:anywhere]">
                  {item.name}
                </th>
                <td className="py-1 text-right tabular-nums whitespace-nowrap">{money(item)}</td>
              </tr>
            ))}
            {confirm.more > 0 ? (
              <tr>
                <td colSpan={2} className="py-1 text-slate-600 dark:text-slate-400">
                  {t('confirm.more', { count: confirm.more })}
                </td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            {confirm.totals.map((total) => (
              <tr key={total.currency} className="font-semibold" data-testid="bulk-total">
                <th scope="row" className="pt-1 pr-4 text-left">
                  {t('confirm.total')}
                </th>
                <td className="pt-1 text-right tabular-nums whitespace-nowrap">{money(total)}</td>
              </tr>
            ))}
          </tfoot>
        </table>
      }
    />
  )
}

function BulkForm({ count, contacts, lastResult }: { count: number; contacts: ContactRow[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('tray')
  const [form, fields] = useZodForm(bulkSchema(t), { id: 'bulk', lastResult, defaultValue: { action: ACTIONS[0], period: '1' } })
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="max-w-xl flex-1 space-y-3 rounded-md border border-slate-200 p-4 dark:border-slate-800"
      aria-labelledby="bulk-heading"
      data-testid="bulk-form"
    >
      <h2 id="bulk-heading" className="text-lg font-semibold">
        {t('run', { count })}
      </h2>
      <FormErrors id={form.errorId} errors={form.errors} />
      <fieldset className="space-y-1">
        <legend className="font-medium">{t('action')}</legend>
        {ACTIONS.map((a) => (
          <label key={a} className="flex items-center gap-2">
            <input {...getInputProps(fields.action, { type: 'radio', value: a })} /> {t(`actions.${a}`)}
          </label>
        ))}
        <ErrorList id={fields.action.errorId} errors={fields.action.errors} />
      </fieldset>
      <label className="block">
        {t('period')}{' '}
        <select {...getSelectProps(fields.period)} className="rounded border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
          {[1, 2, 3, 5, 10].map((n) => (
            <option key={n} value={n}>
              {t('years', { count: n })}
            </option>
          ))}
        </select>
      </label>
      <ErrorList id={fields.period.errorId} errors={fields.period.errors} />
      <fieldset className="grid grid-cols-2 gap-2">
        <legend className="font-medium">{t('contacts')}</legend>
        {ROLES.map((role) => (
          <label key={role} className="block text-sm">
            {t(`roles.${role}`)}
            <select {...getSelectProps(fields[role])} className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 dark:border-slate-700 dark:bg-slate-900">
              <option value="">{t('keep')}</option>
              {contacts.map((c) => (
                <option key={c.id} value={c.id}>
                  {contactLabel(c)}
                </option>
              ))}
            </select>
            <ErrorList id={fields[role].errorId} errors={fields[role].errors} />
          </label>
        ))}
      </fieldset>
      <label className="block">
        {t('nameservers')}
        <textarea
          {...getTextareaProps(fields.nameservers)}
          rows={3}
          className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
          placeholder="ns1.example.net&#10;ns2.example.net"
        />
      </label>
      <ErrorList id={fields.nameservers.errorId} errors={fields.nameservers.errors} />
      <Button type="submit">{t('start')}</Button>
    </Form>
  )
}

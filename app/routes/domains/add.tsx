import { getFormProps } from '@conform-to/react'
import { getInputProps, getTextareaProps } from '#app/components/field-props.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router'
import { ErrorList, Field, useZodForm } from '#app/components/forms.tsx'
import { JobPanel, JobRefresh } from '#app/components/job-panel.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatMoney } from '#common/money.ts'
import { parseDomainName } from '#common/domain-name.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/add.ts'
import { availabilitySchema, importSchema, transferSchema } from './schemas.ts'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen } from './shared.server.ts'
import type { Answer } from '#app/lib/platform-api.ts'

const MODES = ['register', 'transfer', 'import'] as const
type Mode = (typeof MODES)[number]
const JOB_ID = /^[0-9a-f-]{36}$/i
const MAX_NAMES = 10_000

export type ImportJob = Answer<'/groups/{context}/domains/imports/{job_id}'>
export type Availability = Answer<'/groups/{context}/domains/availability', 'post'>['results'][number]

/**
 * The names typed to check: one per line, or separated by commas or semicolons. A blank inside a
 * line is part of the name ("bad name" is one name, refused for its space), never a separator.
 */
export function splitEntries(text: string, max: number): string[] {
  return text
    .split(/[\r\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, max)
}

const isRunning = (state: string) => state === 'pending' || state === 'queued' || state === 'running' || state === 'processing'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const url = requestUrl(request)
  const mode: Mode = (MODES as readonly string[]).includes(url.searchParams.get('mode') ?? '') ? (url.searchParams.get('mode') as Mode) : 'register'
  const jobId = url.searchParams.get('job')
  let job: ImportJob | null = null
  if (mode === 'import' && jobId && JOB_ID.test(jobId)) job = await screen.platform.get('/groups/{context}/domains/imports/{job_id}', { path: { context: screen.groupContext, job_id: jobId } })
  const t = getInstance(context).getFixedT(null, 'domains')
  return { mode, job, jobId: job ? jobId : null, canManage: screen.canManage, meta: pageMeta(request, context, t('add.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const t = getInstance(context).getFixedT(null, 'domains')
  const url = requestUrl(request)
  const form = await request.formData()
  const intent = form.get('intent')
  const checkNames = async (names: string[]) => {
    const result = await attempt(() => screen.platform.post('/groups/{context}/domains/availability', { path: { context: screen.groupContext }, body: { names } }))
    if (!result.ok) return result
    // A name refused by the name rules (an invisible character, a space, mixed scripts, …) says so in the user's words (issue 26).
    const availability = result.value.results.map((a) => {
      const parsed = a.available ? null : parseDomainName(a.name)
      return parsed && !parsed.ok ? { ...a, reason: t(`domains:nameErrors.${parsed.error}`, { defaultValue: a.reason ?? '' }) } : a
    })
    return { ok: true as const, value: availability }
  }

  if (intent === 'check') {
    const submission = parseWithZod(form, { schema: availabilitySchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const result = await checkNames(splitEntries(submission.value.names, 100))
    if (!result.ok) return data({ intent, result: submission.reply({ formErrors: [refusalText(t, result.problem)] }) }, { status: result.status })
    return { intent, result: submission.reply(), availability: result.value }
  }
  if (intent === 'cart') {
    // The cart belongs to the orders screens (/domains/order); this only puts names in it.
    const names = form
      .getAll('name')
      .filter((v): v is string => typeof v === 'string')
      .slice(0, 100)
    const period = Number(form.get('period') ?? 1) || 1
    // Nothing is ticked for the user (issue 28): an empty choice is said, not a cart of everything.
    if (!names.length) {
      // The table comes back as it was (checked again), with the reason beside its button.
      const shown = form
        .getAll('shown')
        .filter((v): v is string => typeof v === 'string')
        .slice(0, 100)
      const again = shown.length ? await checkNames(shown) : null
      return data({ intent, cartErrors: [t('add.chooseOne')], availability: again?.ok ? again.value : undefined }, { status: 400 })
    }
    const failures: string[] = []
    for (const name of names) {
      const added = await attempt(() => screen.platform.post('/groups/{context}/cart/items', { path: { context: screen.groupContext }, body: { type: 'register', name, period } }))
      if (!added.ok) failures.push(`${name}: ${refusalText(t, added.problem)}`)
    }
    if (failures.length) return data({ intent, cartErrors: failures }, { status: 400 })
    return redirect(carryContext('/domains/order', url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('add.addedToCart', { count: names.length }), color: 'success' }) } })
  }
  if (intent === 'transfer') {
    const submission = parseWithZod(form, { schema: transferSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: ['auth_code'] }) }, { status: 400 })
    const { name, auth_code, period } = submission.value
    const added = await attempt(() => screen.platform.post('/groups/{context}/cart/items', { path: { context: screen.groupContext }, body: { type: 'transfer', name, period, auth_code } }))
    if (!added.ok) return data({ intent, result: submission.reply({ formErrors: [refusalText(t, added.problem)], hideFields: ['auth_code'] }) }, { status: added.status })
    return redirect(carryContext('/domains/order', url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('add.addedToCart', { count: 1 }), color: 'success' }) } })
  }
  if (intent === 'import') {
    const submission = parseWithZod(form, { schema: importSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { names, csv } = submission.value
    const body: { names?: string[]; csv?: string } = {}
    // Pasted lines keep their order and count (one per line), so the results match the lines.
    if (names?.trim())
      body.names = names
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, MAX_NAMES)
    if (csv && csv.size > 0) body.csv = await csv.text()
    const started = await attempt(() => screen.platform.post('/groups/{context}/domains/imports', { path: { context: screen.groupContext }, body }))
    if (!started.ok) return data({ intent, result: submission.reply({ formErrors: [refusalText(t, started.problem)] }) }, { status: started.status })
    const next = new URLSearchParams(url.searchParams)
    next.set('mode', 'import')
    next.set('job', started.value.job_id)
    return redirect(`/domains/add?${next}`)
  }
  throw data('Unknown form', { status: 400 })
}

type ActionData = { intent: string; result?: never; availability?: Availability[]; cartErrors?: string[] }

function RegisterMode() {
  const { t, i18n } = useTranslation('domains')
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const schema = availabilitySchema(t)
  const [form, fields] = useZodForm(schema, {
    id: 'availability-form',
    lastResult: actionData?.intent === 'check' ? actionData.result : undefined,
    shouldValidate: 'onSubmit',
  })
  const availability = actionData?.availability
  return (
    <div className="space-y-4">
      <Form method="post" {...getFormProps(form)} className="grid max-w-xl gap-2" data-testid="availability-form">
        <input type="hidden" name="intent" value="check" />
        <Label htmlFor={fields.names.id}>{t('add.namesToCheck')}</Label>
        <textarea
          {...getTextareaProps(fields.names)}
          rows={4}
          className="rounded-md border border-slate-300 p-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
          data-testid="availability-names"
        />
        <ErrorList errors={[...(fields.names.errors ?? []), ...(form.errors ?? [])]} />
        <Button type="submit" className="justify-self-start" disabled={navigation.state !== 'idle'}>
          {t('add.check')}
        </Button>
      </Form>
      {availability ? (
        <Form method="post" className="space-y-2" data-testid="availability-results">
          <input type="hidden" name="intent" value="cart" />
          {/* The portal's table (as the cart's): nothing ticked until the user chooses (issue 28). */}
          <div className="max-w-3xl overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800">
            {/* On a phone each row is a small grid (box, name, price; the availability below the name) so no column is squeezed. */}
            <Table aria-label={t('add.availability')} className="max-sm:block">
              <TableHeader className="max-sm:hidden">
                <TableRow>
                  <TableHead className="w-10">
                    <span className="sr-only">{t('add.choose')}</span>
                  </TableHead>
                  <TableHead className="w-2/5">{t('fields.name')}</TableHead>
                  <TableHead>{t('add.availability')}</TableHead>
                  <TableHead className="text-right">{t('add.price')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody className="max-sm:block">
                {availability.map((a, i) => (
                  <TableRow
                    key={`${i}-${a.name}`}
                    data-testid="availability-row"
                    data-available={a.available ? '' : undefined}
                    className="max-sm:grid max-sm:grid-cols-[1.5rem_minmax(0,1fr)_auto] max-sm:gap-x-2 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2"
                  >
                    <TableCell className="align-top max-sm:p-0">
                      <input type="hidden" name="shown" value={a.name} />
                      {a.available ? <input type="checkbox" name="name" value={a.name} aria-label={t('add.chooseName', { name: a.name })} className="size-4 accent-blue-600" /> : null}
                    </TableCell>
                    <TableCell className="align-top font-mono [overflow-wrap:anywhere] max-sm:p-0">{a.name}</TableCell>
                    <TableCell className="align-top max-sm:order-last max-sm:col-span-2 max-sm:col-start-2 max-sm:p-0">
                      <Badge color={a.available ? 'green' : 'red'}>{a.available ? t('add.available') : t('add.unavailable')}</Badge>
                      {!a.available && a.reason ? (
                        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" data-testid="availability-reason">
                          {a.reason}
                        </p>
                      ) : null}
                    </TableCell>
                    <TableCell className="text-right align-top tabular-nums max-sm:p-0">{a.price ? formatMoney(a.price.minor, a.price.currency, i18n.language) : ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {actionData?.cartErrors?.length ? <ErrorList errors={actionData.cartErrors} /> : null}
          {availability.some((a) => a.available) ? (
            <div className="flex items-end gap-2">
              <label className="flex flex-col gap-1 text-sm">
                {t('detail.period')}
                <input type="number" name="period" defaultValue={1} min={1} max={10} className="h-9 w-20 rounded-md border border-slate-300 px-2 dark:border-slate-700 dark:bg-slate-900" />
              </label>
              <Button type="submit">{t('add.addToCart')}</Button>
            </div>
          ) : null}
        </Form>
      ) : null}
    </div>
  )
}

function TransferMode() {
  const { t } = useTranslation('domains')
  const actionData = useActionData<ActionData>()
  const schema = transferSchema(t)
  const [form, fields] = useZodForm(schema, {
    id: 'transfer-form',
    lastResult: actionData?.intent === 'transfer' ? actionData.result : undefined,
    defaultValue: { period: '1' },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-md gap-1">
      <input type="hidden" name="intent" value="transfer" />
      <Field labelProps={{ children: t('fields.name') }} inputProps={getInputProps(fields.name, { type: 'text' })} errors={fields.name.errors} />
      <Field labelProps={{ children: t('add.authCode') }} inputProps={{ ...getInputProps(fields.auth_code, { type: 'password' }), autoComplete: 'off' }} errors={fields.auth_code.errors} />
      <Field labelProps={{ children: t('detail.period') }} inputProps={getInputProps(fields.period, { type: 'number' })} errors={fields.period.errors} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <Button type="submit" className="justify-self-start">
        {t('add.transfer')}
      </Button>
    </Form>
  )
}

function ImportMode({ job }: { job: ImportJob | null }) {
  const { t } = useTranslation('domains')
  const actionData = useActionData<ActionData>()
  const href = useContextHref()
  const running = job ? isRunning(job.state) : false
  const schema = importSchema(t)
  const [form, fields] = useZodForm(schema, {
    id: 'import-form',
    lastResult: actionData?.intent === 'import' ? actionData.result : undefined,
    shouldValidate: 'onSubmit',
  })
  if (job) {
    const failed = job.results.filter((r) => r.ok === false).length
    return (
      <div className="space-y-4" data-testid="import-job">
        <JobRefresh running={running} />
        <JobPanel
          state={job.state}
          done={job.done}
          total={job.total}
          progressText={`${t('job.count', { done: job.done, total: job.total })} — ${t(`job.states.${job.state}`, { defaultValue: job.state })}`}
          columns={[t('add.line'), t('fields.name'), t('add.outcome')]}
          rows={job.results}
          rowKey={(r) => String(r.line)}
          ok={(r) => r.ok}
          cells={(r) => [r.line, <span className="font-mono">{r.name}</span>, r.ok ? t('add.imported') : r.ok === null ? t('add.waiting') : r.error]}
        >
          {!running ? <Alert variant={failed ? 'error' : 'success'}>{t('add.importSummary', { ok: job.results.filter((r) => r.ok).length, failed })}</Alert> : null}
        </JobPanel>
        <Link to={href('/domains/add?mode=import')} className="text-sm text-blue-700 underline dark:text-blue-300">
          {t('add.importMore')}
        </Link>
      </div>
    )
  }
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="grid max-w-xl gap-2">
      <input type="hidden" name="intent" value="import" />
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('add.importHelp', { max: MAX_NAMES.toLocaleString() })}</p>
      <Label htmlFor={fields.names.id}>{t('add.pasteNames')}</Label>
      <textarea {...getTextareaProps(fields.names)} rows={8} className="rounded-md border border-slate-300 p-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900" data-testid="import-names" />
      <Label htmlFor={fields.csv.id}>{t('add.uploadCsv')}</Label>
      <input {...getInputProps(fields.csv, { type: 'file' })} accept=".csv,text/csv,text/plain" className="text-sm" />
      <ErrorList errors={[...(fields.names.errors ?? []), ...(form.errors ?? [])]} />
      <Button type="submit" className="justify-self-start" data-testid="import-submit">
        {t('add.import')}
      </Button>
    </Form>
  )
}

/** /domains/add: register (availability first), transfer in, or bring existing domains under management. */
export default function AddDomains({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('domains')
  const { mode } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('list.title'), to: '/domains' }]} title={t('add.title')} />
      {loaderData.canManage ? <Tabs label={t('add.modes')} tabs={MODES.map((m) => ({ to: `/domains/add?mode=${m}`, label: t(`add.mode.${m}`), current: m === mode }))} /> : null}
      {loaderData.canManage ? (
        <Card>
          <CardTitle>{t(`add.mode.${mode}`)}</CardTitle>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t(`add.intro.${mode}`)}</p>
          {mode === 'register' ? <RegisterMode /> : mode === 'transfer' ? <TransferMode /> : <ImportMode job={loaderData.job} />}
        </Card>
      ) : (
        // Not a form that ends in "access denied": the reason, and who can change it.
        <Alert data-testid="read-only">{t('common:readOnly.domains')}</Alert>
      )}
    </div>
  )
}

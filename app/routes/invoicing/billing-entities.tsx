import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { billingEntitiesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { billingScreen } from './billing.server.ts'
import { EntityFields } from './billing.tsx'
import { entityBody, entitySchema, ENTITY_FIELDS, runSchema, taxSchema } from './billing-forms.ts'
import type { Route } from './+types/billing-entities.ts'

/** /invoicing/billing-entities: who pays (staff: every entity and a form to make one; a client: its own). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, billingEntitiesList, screen.groupContext)
  const t = getInstance(context).t
  const taxRates = screen.staff ? (await screen.platform.get('/groups/{context}/tax-rates', { path: { context: screen.groupContext } })).data : []
  const now = new Date()
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
  return data(
    { page, taxRates, lastMonth, staff: screen.staff, countries: screen.staff ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, t('billing:entities.title')) },
    { headers },
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const INTENTS = ['create', 'run', 'tax'] as const
type Intent = (typeof INTENTS)[number]

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent: Intent = INTENTS.find((i) => i === form.get('intent')) ?? 'create'
  const back = (content: string, to = screen.url.pathname + screen.url.search) => redirect(to, { headers: { 'Set-Cookie': flashHeader(request, { content, color: 'success' }) } })
  if (intent === 'run') {
    const submission = parseWithZod(form, { schema: runSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await screen.platform.post('/groups/{context}/invoice-runs', { path: { context: screen.groupContext }, body: submission.value })
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ['period'], {}, 'billing')) }, { status: 400 })
    }
    return back(t('billing:invoices.runStarted', { period: submission.value.period }))
  }
  if (intent === 'tax') {
    const submission = parseWithZod(form, { schema: taxSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await screen.platform.put('/groups/{context}/tax-rates/{country}', {
        path: { context: screen.groupContext, country: submission.value.country },
        body: { rate_percent: submission.value.rate_percent },
      })
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ['country', 'rate_percent'], {}, 'billing')) }, { status: 400 })
    }
    return back(t('billing:entities.saved'))
  }
  const submission = parseWithZod(form, { schema: entitySchema(t, true) })
  if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
  try {
    const made = await screen.platform.post('/groups/{context}/billing-entities', { path: { context: screen.groupContext }, body: entityBody(submission.value) })
    return back(t('billing:entities.saved'), `/invoicing/billing-entities/${made.id}${screen.url.search}`)
  } catch (error) {
    return data({ intent, result: submission.reply(formErrorsOf(t, error, ENTITY_FIELDS, {}, 'billing')) }, { status: 400 })
  }
}

type Answer = { intent: Intent; result: SubmissionResult<string[]> } | undefined
const resultOf = (answer: Answer, intent: Intent) => (answer?.intent === intent ? answer.result : undefined)

function NewEntity({ lastResult, countries }: { lastResult: SubmissionResult<string[]> | undefined; countries: { code: string; name: string }[] }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(entitySchema(t, true), { id: 'new-entity', lastResult, defaultValue: { invoice_language: 'en', payment_terms_days: '30' } })
  return (
    <Card>
      <CardTitle>{t('entities.new')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={t('entities.new')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <EntityFields fields={fields} countries={countries} withCredit />
        <Button type="submit" name="intent" value="create">
          {t('entities.create')}
        </Button>
      </Form>
    </Card>
  )
}

function InvoiceRun({ lastResult, lastMonth }: { lastResult: SubmissionResult<string[]> | undefined; lastMonth: string }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(runSchema(t), { id: 'invoice-run', lastResult, defaultValue: { period: lastMonth } })
  return (
    <Card>
      <CardTitle>{t('invoices.runTitle')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('invoices.runHelp')}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-3" aria-label={t('invoices.runTitle')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field labelProps={{ children: t('invoices.period') }} inputProps={getInputProps(fields.period, { type: 'month' })} errors={fields.period.errors} />
        <Button type="submit" name="intent" value="run" className="sm:mt-6">
          {t('invoices.run')}
        </Button>
      </Form>
    </Card>
  )
}

function TaxTable({ lastResult, taxRates }: { lastResult: SubmissionResult<string[]> | undefined; taxRates: { country: string; rate_percent: number; name: string }[] }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(taxSchema(t), { id: 'tax-rate', lastResult })
  return (
    <Card>
      <CardTitle>{t('invoices.taxTitle')}</CardTitle>
      <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="tax-rates">
        {taxRates.map((r) => `${r.country} ${r.rate_percent} % (${r.name})`).join(' · ') || '—'}
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-3" aria-label={t('invoices.taxTitle')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          labelProps={{ children: t('entities.fields.country') }}
          inputProps={{ ...getInputProps(fields.country, { type: 'text' }), maxLength: 2, className: 'w-20 font-mono uppercase' }}
          errors={fields.country.errors}
        />
        <Field
          labelProps={{ children: t('invoices.rate') }}
          inputProps={{ ...getInputProps(fields.rate_percent, { type: 'text' }), inputMode: 'decimal', maxLength: 5, className: 'w-24' }}
          errors={fields.rate_percent.errors}
        />
        <Button type="submit" name="intent" value="tax" variant="outline" className="sm:mt-6">
          {t('invoices.setRate')}
        </Button>
      </Form>
    </Card>
  )
}

export default function BillingEntities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  const answer: Answer = actionData
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('entities.title')}
        breadcrumb={[{ to: '/invoicing', label: t('common:nav.invoicing', { defaultValue: 'Invoicing' }) }]}
        description={loaderData.staff ? t('entities.intro') : t('entities.clientIntro')}
      />
      <DataTable
        def={billingEntitiesList}
        page={loaderData.page}
        labels={(key) => t(`entities.fields.${key}`, { defaultValue: key })}
        empty={loaderData.staff ? undefined : t('entities.none')}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/invoicing/billing-entities/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'invoice_language') return t(`entities.languages.${String(row.invoice_language)}`)
          return undefined
        }}
      />
      {loaderData.staff ? (
        <>
          <NewEntity lastResult={resultOf(answer, 'create')} countries={loaderData.countries} />
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            <InvoiceRun lastResult={resultOf(answer, 'run')} lastMonth={loaderData.lastMonth} />
            {/* A rate set is a new table: the form starts empty again. */}
            <TaxTable key={loaderData.taxRates.map((r) => `${r.country}${r.rate_percent}`).join()} lastResult={resultOf(answer, 'tax')} taxRates={loaderData.taxRates} />
          </div>
        </>
      ) : null}
    </div>
  )
}

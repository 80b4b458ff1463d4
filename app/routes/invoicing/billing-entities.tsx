import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field, FormErrors } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { requireChange } from '../accounts/directory.server.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { billingScreen } from './billing.server.ts'
import { entityBody, EntityFields, ENTITY_FIELDS, readEntityForm } from './billing.tsx'
import type { Route } from './+types/billing-entities.ts'

/** /invoicing/billing-entities: who pays (staff: every entity and a form to make one; a client: its own). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, LISTS['billing-entities']!, screen.groupContext)
  const t = getInstance(context).t
  const taxRates = screen.staff ? (await screen.platform.get<{ data: { country: string; rate_percent: number; name: string }[] }>(`${screen.base}/tax-rates`)).data : []
  const now = new Date()
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
  return data(
    { page, taxRates, lastMonth, staff: screen.staff, countries: screen.staff ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, t('billing:entities.title')) },
    { headers },
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? 'create')
  if (intent === 'run' || intent === 'tax') {
    const period = String(form.get('period') ?? '').trim()
    const country = String(form.get('country') ?? '')
      .trim()
      .toUpperCase()
    const rate = String(form.get('rate_percent') ?? '').trim()
    try {
      if (intent === 'run') await screen.platform.post(`${screen.base}/invoice-runs`, { period })
      else await screen.platform.put(`${screen.base}/tax-rates/${encodeURIComponent(country || 'x')}`, { rate_percent: /^\d{1,2}(\.\d{1,2})?$/.test(rate) ? Number(rate) : -1 })
    } catch (error) {
      return data({ intent, values: null, side: { period, country, rate_percent: rate }, ...formErrorsOf(t, error, ['period', 'country', 'rate_percent']) }, { status: 400 })
    }
    const done = intent === 'run' ? t('billing:invoices.runStarted', { period }) : t('billing:entities.saved')
    return redirect(screen.url.pathname + screen.url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: done, color: 'success' }) } })
  }
  const values = readEntityForm(form)
  try {
    const made = await screen.platform.post<{ id: string }>(`${screen.base}/billing-entities`, { ...entityBody(values), ...(values.credit_limit ? { credit_limit: values.credit_limit } : {}) })
    return redirect(`/invoicing/billing-entities/${made.id}${screen.url.search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('billing:entities.saved'), color: 'success' }) } })
  } catch (error) {
    return data({ intent, values, side: null, ...formErrorsOf(t, error, ENTITY_FIELDS) }, { status: 400 })
  }
}

export default function BillingEntities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  const side = actionData && actionData.intent !== 'create' ? actionData : null
  const created = actionData?.intent === 'create' ? actionData : null
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('entities.title')}
        breadcrumb={[{ to: '/invoicing', label: t('common:nav.invoicing', { defaultValue: 'Invoicing' }) }]}
        description={loaderData.staff ? t('entities.intro') : t('entities.clientIntro')}
      />
      <DataTable
        def={LISTS['billing-entities']!}
        page={loaderData.page}
        labels={(key) => t(`entities.fields.${key}`, { defaultValue: key })}
        empty={loaderData.staff ? undefined : t('entities.none')}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/invoicing/billing-entities/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'invoice_language') return t(`entities.languages.${String(row.invoice_language)}`)
          if (key === 'balance_text') return <span className="tabular-nums">{String(row.balance_text ?? '')}</span>
          return String(row[key] ?? '')
        }}
      />
      {loaderData.staff ? (
        <Card>
          <CardTitle>{t('entities.new')}</CardTitle>
          <Form method="post" className="space-y-3" aria-label={t('entities.new')}>
            <FormErrors errors={created?.formErrors} />
            <EntityFields values={created?.values ?? { invoice_language: 'en', payment_terms_days: '30' }} errors={created?.fieldErrors ?? {}} countries={loaderData.countries} withCredit />
            <Button type="submit" name="intent" value="create">
              {t('entities.create')}
            </Button>
          </Form>
        </Card>
      ) : null}
      {loaderData.staff ? (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Card>
            <CardTitle>{t('invoices.runTitle')}</CardTitle>
            <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('invoices.runHelp')}</p>
            <Form method="post" className="flex flex-wrap items-start gap-3" aria-label={t('invoices.runTitle')}>
              <FormErrors errors={side?.intent === 'run' ? side.formErrors : undefined} />
              <Field
                labelProps={{ children: t('invoices.period') }}
                inputProps={{ id: 'run-period', name: 'period', type: 'month', defaultValue: side?.intent === 'run' ? side.side?.period : loaderData.lastMonth, required: true }}
                errors={side?.intent === 'run' ? side.fieldErrors.period : undefined}
              />
              <Button type="submit" name="intent" value="run" className="sm:mt-6">
                {t('invoices.run')}
              </Button>
            </Form>
          </Card>
          <Card>
            <CardTitle>{t('invoices.taxTitle')}</CardTitle>
            <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="tax-rates">
              {loaderData.taxRates.map((r) => `${r.country} ${r.rate_percent} % (${r.name})`).join(' · ') || '—'}
            </p>
            <Form method="post" className="flex flex-wrap items-start gap-3" aria-label={t('invoices.taxTitle')}>
              <FormErrors errors={side?.intent === 'tax' ? side.formErrors : undefined} />
              <Field
                labelProps={{ children: t('entities.fields.country') }}
                inputProps={{ id: 'tax-country', name: 'country', maxLength: 2, className: 'w-20 font-mono uppercase', defaultValue: side?.intent === 'tax' ? side.side?.country : '', required: true }}
                errors={side?.intent === 'tax' ? side.fieldErrors.country : undefined}
              />
              <Field
                labelProps={{ children: t('invoices.rate') }}
                inputProps={{
                  id: 'tax-rate',
                  name: 'rate_percent',
                  inputMode: 'decimal',
                  maxLength: 5,
                  className: 'w-24',
                  defaultValue: side?.intent === 'tax' ? side.side?.rate_percent : '',
                  required: true,
                }}
                errors={side?.intent === 'tax' ? side.fieldErrors.rate_percent : undefined}
              />
              <Button type="submit" name="intent" value="tax" variant="outline" className="sm:mt-6">
                {t('invoices.setRate')}
              </Button>
            </Form>
          </Card>
        </div>
      ) : null}
    </div>
  )
}

import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { FormErrors } from '#app/components/forms.tsx'
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
  return data({ page, staff: screen.staff, countries: screen.staff ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, t('billing:entities.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const values = readEntityForm(await request.formData())
  try {
    const made = await screen.platform.post<{ id: string }>(`${screen.base}/billing-entities`, { ...entityBody(values), ...(values.credit_limit ? { credit_limit: values.credit_limit } : {}) })
    return redirect(`/invoicing/billing-entities/${made.id}${screen.url.search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('billing:entities.saved'), color: 'success' }) } })
  } catch (error) {
    return data({ values, ...formErrorsOf(t, error, ENTITY_FIELDS) }, { status: 400 })
  }
}

export default function BillingEntities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader title={t('entities.title')} breadcrumb={[{ to: '/invoicing', label: t('common:nav.invoicing', { defaultValue: 'Invoicing' }) }]} description={loaderData.staff ? t('entities.intro') : t('entities.clientIntro')} />
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
            <FormErrors errors={actionData?.formErrors} />
            <EntityFields values={actionData?.values ?? { invoice_language: 'en', payment_terms_days: '30' }} errors={actionData?.fieldErrors ?? {}} countries={loaderData.countries} withCredit />
            <Button type="submit">{t('entities.create')}</Button>
          </Form>
        </Card>
      ) : null}
    </div>
  )
}

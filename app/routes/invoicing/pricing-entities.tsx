import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { FormErrors } from '#app/components/forms.tsx'
import { requireChange } from '../accounts/directory.server.ts'
import type { Route } from './+types/pricing-entities.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

/** /invoicing/pricing-entities: the price lists (staff), and a form to make one. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const { page, headers } = await loadListPage(request, context, LISTS['pricing-entities']!, activeContext(requestUrl(request), user.group_id))
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('pricing:entities.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const currenciesOf = (text: string) => [
  ...new Set(
    text
      .toUpperCase()
      .split(/[\s,]+/)
      .filter(Boolean),
  ),
]

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const values = { name: String(form.get('name') ?? '').trim(), currencies: String(form.get('currencies') ?? '') }
  const fieldErrors: Record<string, string[]> = {}
  if (!values.name) fieldErrors.name = [t('validation:required')]
  const currencies = currenciesOf(values.currencies)
  if (!currencies.length || currencies.some((c) => !/^[A-Z]{3}$/.test(c))) fieldErrors.currencies = [t('pricing:errors.currency.invalid')]
  if (Object.keys(fieldErrors).length) return data({ values, fieldErrors, formErrors: [] as string[] }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post<{ id: string }>('/pricing-entities', { name: values.name, currencies })
    const url = requestUrl(request)
    return redirect(`/invoicing/pricing-entities/${made.id}${url.search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    const refusal = formErrorsOf(t, error, ['name', 'currencies'], {}, 'pricing')
    return data({ values, fieldErrors: refusal.fieldErrors, formErrors: refusal.formErrors }, { status: 400 })
  }
}

export default function PricingEntities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('pricing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('entities.title')}</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('entities.intro')}</p>
      <DataTable
        def={LISTS['pricing-entities']!}
        page={loaderData.page}
        labels={(key) => t(`entities.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/invoicing/pricing-entities/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'currencies') return (row.currencies as string[] | undefined)?.join(', ') ?? ''
          if (key === 'is_default') return t(row.is_default ? 'yes' : 'no')
          return String(row[key] ?? '')
        }}
      />
      <Card>
        <CardTitle>{t('entities.new')}</CardTitle>
        <Form method="post" className="flex flex-wrap items-start gap-3">
          <FormErrors errors={actionData?.formErrors} />
          <Field
            labelProps={{ children: t('entities.fields.name') }}
            inputProps={{ id: 'entity-name', name: 'name', defaultValue: actionData?.values.name ?? '', maxLength: 200 }}
            errors={actionData?.fieldErrors.name}
          />
          <Field
            labelProps={{ children: t('entities.fields.currencies') }}
            inputProps={{ id: 'entity-currencies', name: 'currencies', defaultValue: actionData?.values.currencies ?? 'EUR', placeholder: 'EUR, USD', className: 'font-mono uppercase' }}
            errors={actionData?.fieldErrors.currencies}
          />
          <Button type="submit" className="sm:mt-6">
            {t('entities.create')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}

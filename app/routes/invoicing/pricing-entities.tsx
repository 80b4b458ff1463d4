import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Field, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { pricingEntitiesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { FormErrors } from '#app/components/forms.tsx'
import type { Route } from './+types/pricing-entities.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { PRICING_ENTITY_FIELDS, pricingEntitySchema } from './pricing-forms.ts'

/** /invoicing/pricing-entities: the price lists (staff), and a form to make one. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const { page, headers } = await loadListPage(request, context, pricingEntitiesList, activeContext(requestUrl(request), user.group_id))
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('pricing:entities.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: pricingEntitySchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post('/pricing-entities', { body: submission.value })
    const url = requestUrl(request)
    return redirect(`/invoicing/pricing-entities/${made.id}${url.search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, PRICING_ENTITY_FIELDS, {}, 'pricing')) }, { status: 400 })
  }
}

function NewPriceList({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(pricingEntitySchema(t), { id: 'new-price-list', lastResult, defaultValue: { currencies: 'EUR' } })
  return (
    <Card>
      <CardTitle>{t('entities.new')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field labelProps={{ children: t('entities.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: 200 }} errors={fields.name.errors} />
        <Field
          labelProps={{ children: t('entities.fields.currencies') }}
          inputProps={{ ...getInputProps(fields.currencies, { type: 'text' }), placeholder: 'EUR, USD', className: 'font-mono uppercase' }}
          errors={fields.currencies.errors}
        />
        <Button type="submit" className="sm:mt-6">
          {t('entities.create')}
        </Button>
      </Form>
    </Card>
  )
}

export default function PricingEntities({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('pricing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('entities.title')}</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('entities.intro')}</p>
      <DataTable
        def={pricingEntitiesList}
        page={loaderData.page}
        labels={(key) => t(`entities.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/invoicing/pricing-entities/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'currencies') return (row.currencies as string[] | undefined)?.join(', ') ?? ''
          if (key === 'is_default') return t(row.is_default ? 'yes' : 'no')
          return undefined
        }}
      />
      <NewPriceList lastResult={actionData?.result} />
    </div>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { Field, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { DetailList, SubNav } from '#app/components/screen-parts.tsx'
import { FormErrors } from '#app/components/forms.tsx'
import type { Route } from './+types/pricing-entity.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { editPricingEntitySchema, PRICING_ENTITY_FIELDS } from './pricing-forms.ts'
import type { Answer } from '#app/lib/platform-api.ts'

export type PricingEntity = Answer<'/pricing-entities/{id}'>

/** The tabs of a price list: details, applicable rules, log. */
export function EntityTabs({ id, current }: { id: string; current: 'details' | 'rules' | 'log' }) {
  const { t } = useTranslation('pricing')
  const base = `/invoicing/pricing-entities/${id}`
  return (
    <SubNav
      links={[
        { to: base, label: t('entities.details'), current: current === 'details' },
        { to: `${base}/applicable-rules`, label: t('applicable.title'), current: current === 'rules' },
        { to: `${base}/log`, label: t('log'), current: current === 'log' },
      ]}
    />
  )
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const entity = await (await getPlatform(request, context)).get('/pricing-entities/{id}', { path: { id: params.id } })
  return { entity, meta: pageMeta(request, context, entity.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: editPricingEntitySchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { is_default, ...value } = submission.value
  try {
    await (await getPlatform(request, context)).patch('/pricing-entities/{id}', { path: { id: params.id }, body: { ...value, ...(is_default ? { is_default: true } : {}) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, PRICING_ENTITY_FIELDS, {}, 'pricing')) }, { status: 400 })
  }
  const url = requestUrl(request)
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
}

export default function PricingEntityDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('pricing')
  const href = useContextHref()
  const { entity } = loaderData
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href('/invoicing/pricing-entities')}>
          {t('entities.title')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{entity.name}</h1>
      <EntityTabs id={entity.id} current="details" />
      <Card>
        <DetailList
          rows={[
            [t('entities.fields.currencies'), entity.currencies.join(', ')],
            [t('entities.fields.is_default'), t(entity.is_default ? 'yes' : 'no')],
            [t('entities.fields.notice_days'), t('entities.days', { count: entity.notice_days })],
          ]}
        />
        <p className="mt-3 text-sm">
          <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/invoicing/pricing-entities/${entity.id}/applicable-rules`)}>
            {t('applicable.why')}
          </Link>
        </p>
      </Card>
      <EditPriceList key={entity.version} entity={entity} lastResult={actionData?.result} />
    </div>
  )
}

function EditPriceList({ entity, lastResult }: { entity: PricingEntity; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(editPricingEntitySchema(t), {
    id: 'edit-price-list',
    lastResult,
    defaultValue: { name: entity.name, currencies: entity.currencies.join(', '), notice_days: String(entity.notice_days), version: String(entity.version) },
  })
  return (
    <Card>
      <CardTitle>{t('entities.edit')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input {...getInputProps(fields.version, { type: 'hidden' })} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
          <Field labelProps={{ children: t('entities.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: 200 }} errors={fields.name.errors} />
          <Field
            labelProps={{ children: t('entities.fields.currencies') }}
            inputProps={{ ...getInputProps(fields.currencies, { type: 'text' }), className: 'font-mono uppercase' }}
            errors={fields.currencies.errors}
          />
          <Field
            labelProps={{ children: t('entities.fields.notice_days') }}
            inputProps={{ ...getInputProps(fields.notice_days, { type: 'number' }), min: 0, max: 365 }}
            errors={fields.notice_days.errors}
          />
        </div>
        {entity.is_default ? null : (
          <label className="flex items-center gap-2 text-sm">
            <input {...getInputProps(fields.is_default, { type: 'checkbox' })} />
            {t('entities.makeDefault')}
          </label>
        )}
        <Button type="submit">{t('save')}</Button>
      </Form>
    </Card>
  )
}

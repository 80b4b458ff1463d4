import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useLocation } from 'react-router'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { WATCH_SOURCES } from '#common/watch.ts'
import type { Route } from './+types/new.ts'
import { watchScreen } from './shared.server.ts'

const FIELDS = ['name', 'brand_id', 'template_id', 'sources', 'min_similarity', 'interval_hours'] as const

export const watchSchema = (t: TFunction) =>
  z.object({
    name: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(100),
    brand_id: z.uuid({ message: t('watch:new.brandRequired') }),
    template_id: z.uuid().optional(),
    sources: z.array(z.enum(WATCH_SOURCES)).optional(),
    min_similarity: z.coerce.number().int().min(0).max(100).optional(),
    interval_hours: z.coerce.number().int().min(1).max(720).optional(),
  })

/** /watch/new: a new watch over one of the account's brands, a sheet over the watches (a brand manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const path = { context: screen.groupContext }
  const [brands, templates] = await Promise.all([
    screen.platform.get('/groups/{context}/brands', { path, query: { limit: '200', sort: 'label' } }),
    screen.platform.get('/groups/{context}/watch-templates', { path, query: { limit: '200', sort: 'name' } }),
  ])
  const t = getInstance(context).t
  return { brands: brands.data, templates: templates.data, meta: pageMeta(request, context, t('watch:new.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: watchSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  try {
    const created = await screen.platform.post('/groups/{context}/watches', {
      path: { context: screen.groupContext },
      body: {
        name: v.name,
        brand_id: v.brand_id,
        ...(v.template_id ? { template_id: v.template_id } : {}),
        ...(v.sources?.length ? { sources: v.sources } : {}),
        ...(v.min_similarity !== undefined ? { min_similarity: v.min_similarity } : {}),
        ...(v.interval_hours !== undefined ? { interval_hours: v.interval_hours } : {}),
      },
    })
    return redirect(carryContext(`/watch/${created.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('watch:done.created', { name: v.name }), color: 'success' }) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, FIELDS)) }, { status: 400 })
  }
}

export default function NewWatch({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const { search } = useLocation()
  const { brands, templates } = loaderData
  const [form, fields] = useZodForm(watchSchema(t), { id: 'watch-create', lastResult: actionData?.result, defaultValue: { sources: ['lookalikes'] } })
  const closeTo = `/watch${search}`
  return (
    <Sheet
      title={t('new.title')}
      description={t('new.help')}
      closeTo={closeTo}
      testId="watch-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="watch-create">
          {t('new.submit')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }} errors={fields.name.errors} />
        <SelectField label={t('fields.brand_label')} selectProps={getSelectProps(fields.brand_id)} errors={fields.brand_id.errors}>
          <option value="">{t('new.pickBrand')}</option>
          {brands.map((b) => (
            <option key={b.id} value={b.id}>
              {b.label}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('fields.template')} selectProps={getSelectProps(fields.template_id)} errors={fields.template_id.errors}>
          <option value="">{t('new.noTemplate')}</option>
          {templates.map((tpl) => (
            <option key={tpl.id} value={tpl.id}>
              {tpl.name}
            </option>
          ))}
        </SelectField>
        <fieldset className="space-y-1 pt-2">
          <legend className="text-sm font-medium">{t('fields.sources')}</legend>
          {WATCH_SOURCES.map((s) => (
            <label key={s} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={fields.sources.name} value={s} defaultChecked={s === 'lookalikes'} />
              {t(`source.${s}`)}
            </label>
          ))}
        </fieldset>
        <Field
          labelProps={{ children: t('fields.min_similarity') }}
          inputProps={{ ...getInputProps(fields.min_similarity, { type: 'number' }), placeholder: '70', min: 0, max: 100 }}
          errors={fields.min_similarity.errors}
        />
        <Field
          labelProps={{ children: t('fields.interval_hours') }}
          inputProps={{ ...getInputProps(fields.interval_hours, { type: 'number' }), placeholder: '24', min: 1, max: 720 }}
          errors={fields.interval_hours.errors}
        />
      </Form>
    </Sheet>
  )
}

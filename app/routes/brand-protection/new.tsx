import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useLocation } from 'react-router'
import { getInputProps } from '#app/components/field-props.ts'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { BRAND_FIELDS, brandSchema, words } from './brand-forms.ts'
import { requireBrandManager } from './brand-forms.server.ts'
import type { Route } from './+types/new.ts'

/** /brand-protection/new: a brand's form, a sheet over the brand protection screen (a brand manager's, in an account). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireBrandManager(request, context, params)
  return { meta: pageMeta(request, context, getInstance(context).t('brand:add.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const groupContext = await requireBrandManager(request, context, params)
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: brandSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  try {
    await (
      await getPlatform(request, context)
    ).post('/groups/{context}/brands', { path: { context: groupContext }, body: { label: v.label, domains: words(v.domains), dictionary: words(v.dictionary), fuzzers: words(v.fuzzers) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, BRAND_FIELDS, {}, 'brand')) }, { status: 400 })
  }
  return backWith(request, '/brand-protection', { content: t('brand:done.added', { label: v.label }), color: 'success' })
}

export default function AddBrand({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['brand', 'common'])
  const { search } = useLocation()
  const closeTo = `/brand-protection${search}`
  const [form, fields] = useZodForm(brandSchema(t), { id: 'brand-add', lastResult: actionData?.result })
  return (
    <Sheet
      title={t('add.title')}
      description={t('add.help')}
      closeTo={closeTo}
      testId="brand-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="brand-add-submit">
          {t('add.submit')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field labelProps={{ children: t('fields.label') }} inputProps={{ ...getInputProps(fields.label, { type: 'text' }), placeholder: 'acme', autoComplete: 'off' }} errors={fields.label.errors} />
        <Field
          labelProps={{ children: t('fields.domains') }}
          inputProps={{ ...getInputProps(fields.domains, { type: 'text' }), placeholder: 'acme.com acme.de', autoComplete: 'off', className: 'font-mono' }}
          errors={fields.domains.errors}
        />
        <Field
          labelProps={{ children: t('fields.dictionary') }}
          inputProps={{ ...getInputProps(fields.dictionary, { type: 'text' }), placeholder: 'login secure pay', autoComplete: 'off' }}
          errors={fields.dictionary.errors}
        />
        <Field
          labelProps={{ children: t('fields.fuzzers') }}
          inputProps={{ ...getInputProps(fields.fuzzers, { type: 'text' }), placeholder: t('add.fuzzersPlaceholder'), autoComplete: 'off' }}
          errors={fields.fuzzers.errors}
        />
      </Form>
    </Sheet>
  )
}

import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useLocation } from 'react-router'
import { getTextareaProps } from '#app/components/field-props.ts'
import { FormErrors, LabelledField, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { Textarea } from '#app/components/ui/input.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { importSchema } from './brand-forms.ts'
import { requireBrandManager } from './brand-forms.server.ts'
import type { Route } from './+types/import.ts'

/** /brand-protection/import: brands pasted one a line, a sheet over the brand protection screen (a brand manager's, in an account). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireBrandManager(request, context, params)
  return { meta: pageMeta(request, context, getInstance(context).t('brand:import.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const groupContext = await requireBrandManager(request, context, params)
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: importSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const done = await (await getPlatform(request, context)).post('/groups/{context}/brands/import', { path: { context: groupContext }, body: { text: submission.value.text } })
    return backWith(request, '/brand-protection', { content: t('brand:done.imported', { count: done.created.length, skipped: done.skipped.length }), color: 'success' })
  } catch (error) {
    return data({ result: submission.reply({ formErrors: [refusalTextOf(t, error, { withFields: true })] }) }, { status: 400 })
  }
}

export default function ImportBrands({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['brand', 'common'])
  const { search } = useLocation()
  const closeTo = `/brand-protection${search}`
  const [form, fields] = useZodForm(importSchema(t), { id: 'brand-import', lastResult: actionData?.result })
  return (
    <Sheet
      title={t('import.title')}
      description={t('import.help')}
      closeTo={closeTo}
      testId="brand-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="brand-import-submit">
          {t('import.submit')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <LabelledField label={t('import.label')} errors={fields.text.errors} errorId={fields.text.errorId}>
          <Textarea {...getTextareaProps(fields.text)} rows={10} className="mt-1.5 font-mono" placeholder={'acme\nacmepay.com\nacmecard: acmecard.com acmecard.de'} />
        </LabelledField>
      </Form>
    </Sheet>
  )
}

import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useLocation } from 'react-router'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CONTACT_FIELDS, contactBody, ContactInputs, contactSchema } from './contact-form.tsx'
import { countryOptions } from './countries.server.ts'
import type { Route } from './+types/new.ts'

/** /contacts/new: a new contact's form, a sheet over the contacts list (a contact manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  return { countries: countryOptions(getLocale(context)), meta: pageMeta(request, context, t('directory:contacts.new')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: contactSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const platform = await getPlatform(request, context)
  try {
    const created = await platform.post('/groups/{context}/contacts', { path: { context: activeContext(url, user.group_id) }, body: contactBody(submission.value, true) })
    return redirect(carryContext(`/contacts/${created.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:contacts.created'), color: 'success' }) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, CONTACT_FIELDS)) }, { status: 400 })
  }
}

export default function NewContact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('directory')
  const { search } = useLocation()
  const [form, fields] = useZodForm(contactSchema(t), { id: 'contact-create', lastResult: actionData?.result })
  const closeTo = `/contacts${search}`
  return (
    <Sheet
      title={t('contacts.new')}
      closeTo={closeTo}
      testId="contact-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="contact-create-submit">
          {t('contacts.create')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <ContactInputs fields={fields} countries={loaderData.countries} />
      </Form>
    </Sheet>
  )
}

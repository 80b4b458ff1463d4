import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect, useRouteLoaderData } from 'react-router'
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
import { CONTACT_FIELDS, contactBody, ContactInputs, contactSchema, type ContactValues } from './contact-form.tsx'
import { countryOptions } from './countries.server.ts'
import type { loader as contactLoader } from './detail.tsx'
import type { Route } from './+types/edit.ts'

/** /contacts/{id}/edit: the contact's form, a sheet over its read-only details (a contact manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  return { countries: countryOptions(getLocale(context)), meta: pageMeta(request, context, t('directory:contacts.edit')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: contactSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await (
      await getPlatform(request, context)
    ).patch('/groups/{context}/contacts/{id}', {
      path: { context: activeContext(url, user.group_id), id: params.id },
      body: { ...contactBody(submission.value, false), version: Number(formData.get('version')) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, CONTACT_FIELDS)) }, { status: 400 })
  }
  // Saved: the sheet closes onto the details, which now read the new values.
  return redirect(carryContext(`/contacts/${params.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export default function EditContact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('directory')
  const { contact } = useRouteLoaderData<typeof contactLoader>('routes/contacts/detail')!
  const defaultValue = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, contact[k] ?? ''])) as ContactValues
  const [form, fields] = useZodForm(contactSchema(t), { id: `contact-edit-${contact.id}-${contact.version}`, lastResult: actionData?.result, defaultValue })
  const closeTo = `/contacts/${contact.id}`
  return (
    <Sheet
      title={t('contacts.edit')}
      description={contact.name}
      closeTo={closeTo}
      testId="contact-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="contact-save">
          {t('save')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <input type="hidden" name="version" value={contact.version} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <ContactInputs fields={fields} countries={loaderData.countries} />
      </Form>
    </Sheet>
  )
}

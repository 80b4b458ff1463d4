import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { Field, SelectField, useZodForm } from '#app/components/forms.tsx'
import { CardTable, CardTableRow, FoldedForm } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { formErrorsOf, refusalTextOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { NOTICE_LANGUAGES } from '#common/watch.ts'
import type { Route } from './+types/contacts.ts'
import { useWatchFrame } from './frame.tsx'
import { watchScreen } from './shared.server.ts'

const contactSchema = (t: TFunction) =>
  z.object({
    email: z.email({ message: t('validation:email', { defaultValue: t('validation:required') }) }).max(254),
    name: z.string().trim().max(200).optional(),
    language: z.enum(NOTICE_LANGUAGES).optional(),
  })

/** /watch/{id}/contacts: who is told of new detections and reminders (users of the account or outside addresses). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const contacts = await screen.platform.get('/groups/{context}/watches/{id}/contacts', { path: { context: screen.groupContext, id: params.id } })
  return { contacts: contacts.data }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const t = getInstance(context).t
  const form = await request.formData()
  const path = { context: screen.groupContext, id: params.id }
  const back = `/watch/${params.id}/contacts`
  if (form.get('intent') === 'remove') {
    try {
      await screen.platform.delete('/groups/{context}/watches/{id}/contacts/{contactId}', { path: { ...path, contactId: String(form.get('contact')) } })
      return backWith(request, back, { content: t('watch:done.contactRemoved'), color: 'success' })
    } catch (error) {
      return backWith(request, back, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  const submission = parseWithZod(form, { schema: contactSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await screen.platform.post('/groups/{context}/watches/{id}/contacts', {
      path,
      body: { email: submission.value.email, name: submission.value.name ?? null, language: submission.value.language ?? 'en' },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['email', 'name', 'language'])) }, { status: 400 })
  }
  return backWith(request, back, { content: t('watch:done.contactAdded', { email: submission.value.email }), color: 'success' })
}

type Contact = Route.ComponentProps['loaderData']['contacts'][number]

export default function WatchContacts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const { canManage } = useWatchFrame()
  const [form, fields] = useZodForm(contactSchema(t), { id: 'watch-contact-add', lastResult: actionData?.result })
  return (
    <div className="space-y-4">
      {canManage ? (
        <FoldedForm
          title={t('contacts.add')}
          testId="watch-contact-open"
          open={!!actionData?.result}
          form={form}
          help={t('contacts.help')}
          submit={{ label: t('contacts.submit'), testId: 'watch-contact-submit' }}
        >
          <Field labelProps={{ children: t('contacts.email') }} inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'off' }} errors={fields.email.errors} />
          <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }} errors={fields.name.errors} />
          <SelectField label={t('contacts.language')} selectProps={getSelectProps(fields.language)} errors={fields.language.errors}>
            {NOTICE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`common:languages.${l}`)}
              </option>
            ))}
          </SelectField>
        </FoldedForm>
      ) : null}
      <Card>
        <CardTitle className="mb-3">{t('tabs.contacts')}</CardTitle>
        <CardTable<Contact>
          items={loaderData.contacts}
          minWidth="min-w-[28rem]"
          testId="watch-contacts"
          empty={{ text: t('contacts.empty'), testId: 'watch-contacts-empty' }}
          headings={[{ label: t('contacts.email') }, { label: t('fields.name') }, { label: t('contacts.language') }, { label: '' }]}
          render={(c) => (
            <CardTableRow key={c.id} testId={`contact-${c.email}`}>
              <td className="py-2 pr-3 font-mono text-xs">{c.email}</td>
              <td className="py-2 pr-3">{c.name ?? '—'}</td>
              <td className="py-2 pr-3">{t(`common:languages.${c.language}`)}</td>
              <td className="py-2 text-right">
                {canManage ? (
                  <Form method="post">
                    <input type="hidden" name="contact" value={c.id} />
                    <Button type="submit" name="intent" value="remove" size="sm" variant="outline" aria-label={t('contacts.removeLabel', { email: c.email })}>
                      {t('contacts.remove')}
                    </Button>
                  </Form>
                ) : null}
              </td>
            </CardTableRow>
          )}
        />
      </Card>
    </div>
  )
}

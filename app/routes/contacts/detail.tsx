import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { countryName } from '#common/countries.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { ConfirmAction, DetailList, SubNav, yesNo } from '#app/components/screen-parts.tsx'
import { CONTACT_FIELDS, contactBody, ContactInputs, contactSchema, type ContactValues } from './contact-form.tsx'
import { countryOptions } from './countries.server.ts'
import type { Route } from './+types/detail.ts'
import type { Answer } from '#app/lib/platform-api.ts'

export type Contact = Answer<'/groups/{context}/contacts/{id}'>

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const platform = await getPlatform(request, context)
  const contact = await platform.get('/groups/{context}/contacts/{id}', { path: { context: activeContext(url, user.group_id), id: params.id } })
  const canEdit = canChange(request, user, 'contact-manager')
  return { contact, canEdit, countries: canEdit ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, contact.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const platform = await getPlatform(request, context)

  if (formData.get('intent') === 'delete') {
    try {
      await platform.delete('/groups/{context}/contacts/{id}', { path: { context: activeContext(url, user.group_id), id: params.id } })
    } catch (error) {
      const { formErrors } = formErrorsOf(t, error, [])
      return data({ intent: 'delete' as const, errors: formErrors, result: undefined }, { status: 409 })
    }
    return redirect(carryContext('/contacts', url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:contacts.deleted'), color: 'success' }) } })
  }

  const submission = parseWithZod(formData, { schema: contactSchema(t) })
  if (submission.status !== 'success') return data({ intent: 'update' as const, errors: [], result: submission.reply() }, { status: 400 })
  try {
    await platform.patch('/groups/{context}/contacts/{id}', {
      path: { context: activeContext(url, user.group_id), id: params.id },
      body: { ...contactBody(submission.value, false), version: Number(formData.get('version')) },
    })
  } catch (error) {
    const errors = formErrorsOf(t, error, CONTACT_FIELDS)
    return data({ intent: 'update' as const, errors: [], result: submission.reply(errors) }, { status: 400 })
  }
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export default function ContactDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const { contact, canEdit } = loaderData
  const base = `/contacts/${contact.id}`
  const address = [contact.street1, contact.street2, contact.street3, [contact.postcode, contact.city].filter(Boolean).join(' '), contact.state].filter(Boolean)
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('contacts.title'), to: '/contacts' }]}
        title={<span data-testid="contact-title">{contact.name}</span>}
        status={contact.in_use ? <Badge color="green">{t('contacts.domainCount', { count: contact.domain_count })}</Badge> : null}
        description={[contact.organisation, contact.email].filter(Boolean).join(' · ') || null}
        actions={
          canEdit ? (
            <>
              <HeaderAction to="#contact-edit-section" primary>
                {t('contacts.edit')}
              </HeaderAction>
              <HeaderAction to="#contact-delete-section">{t('contacts.delete')}</HeaderAction>
            </>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: base, label: t('details'), current: true },
          { to: `${base}/log`, label: t('log') },
          { to: `${base}/registry-handles`, label: t('contacts.registryHandles') },
        ]}
      />
      <Card>
        <DetailList
          rows={[
            [t('contacts.fields.name'), contact.name],
            [t('contacts.fields.organisation'), contact.organisation],
            [t('contacts.fields.email'), contact.email],
            [t('contacts.fields.phone'), contact.phone],
            [t('contacts.fields.mobile'), contact.mobile],
            [t('contacts.fields.fax'), contact.fax],
            [t('contacts.address'), address.length ? address.map((line) => <div key={line}>{line}</div>) : ''],
            [t('contacts.fields.country_code'), <span data-testid="contact-country">{countryName(contact.country_code, i18n.language)}</span>],
            [t('contacts.fields.in_use'), `${yesNo(t, contact.in_use)}${contact.in_use ? ` (${t('contacts.domainCount', { count: contact.domain_count })})` : ''}`],
          ]}
        />
      </Card>
      {canEdit ? (
        <>
          <EditContact contact={contact} countries={loaderData.countries} lastResult={actionData?.intent === 'update' ? actionData.result : undefined} />
          <Card id="contact-delete-section" className="scroll-mt-4">
            <CardTitle>{t('contacts.delete')}</CardTitle>
            {actionData?.intent === 'delete' ? <FormErrors errors={actionData.errors} /> : null}
            <ConfirmAction intent="delete" variant="destructive" label={t('contacts.delete')} question={t('contacts.deleteConfirm', { name: contact.name })} confirmLabel={t('contacts.deleteYes')} />
          </Card>
        </>
      ) : null}
    </div>
  )
}

function EditContact({ contact, countries, lastResult }: { contact: Contact; countries: { code: string; name: string }[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('directory')
  const schema = contactSchema(t)
  const defaultValue = Object.fromEntries(CONTACT_FIELDS.map((k) => [k, contact[k] ?? ''])) as ContactValues
  const [form, fields] = useZodForm(schema, { id: `contact-edit-${contact.id}-${contact.version}`, lastResult, defaultValue })
  return (
    <Card id="contact-edit-section" className="scroll-mt-4">
      <CardTitle>{t('contacts.edit')}</CardTitle>
      <Form method="post" className="space-y-2" {...getFormProps(form)}>
        <input type="hidden" name="version" value={contact.version} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <ContactInputs fields={fields} countries={countries} />
        <Button type="submit" name="intent" value="update" data-testid="contact-save">
          {t('save')}
        </Button>
      </Form>
    </Card>
  )
}

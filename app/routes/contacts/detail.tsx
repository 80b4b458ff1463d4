import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Outlet, redirect } from 'react-router'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { countryName } from '#common/countries.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { FormErrors } from '#app/components/forms.tsx'
import { ConfirmAction, DetailList, SubNav, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/detail.ts'
import type { Answer } from '#app/lib/platform-api.ts'

export type Contact = Answer<'/groups/{context}/contacts/{id}'>

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const platform = await getPlatform(request, context)
  const contact = await platform.get('/groups/{context}/contacts/{id}', { path: { context: activeContext(url, user.group_id), id: params.id } })
  const canEdit = canChange(request, user, 'contact-manager')
  return { contact, canEdit, meta: pageMeta(request, context, contact.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'contact-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  // The page's one change is the delete; the edit is the sheet's (/contacts/{id}/edit, edit.tsx).
  if ((await request.formData()).get('intent') !== 'delete') throw data('Unknown intent', { status: 400 })
  const platform = await getPlatform(request, context)
  try {
    await platform.delete('/groups/{context}/contacts/{id}', { path: { context: activeContext(url, user.group_id), id: params.id } })
  } catch (error) {
    const { formErrors } = formErrorsOf(t, error, [])
    return data({ intent: 'delete' as const, errors: formErrors }, { status: 409 })
  }
  return redirect(carryContext('/contacts', url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:contacts.deleted'), color: 'success' }) } })
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
              {/* The details read as text; Edit opens the form in a sheet over them (/contacts/{id}/edit). */}
              <HeaderAction to={`${base}/edit`} primary preventScrollReset data-testid="contact-edit">
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
        <Card id="contact-delete-section" className="scroll-mt-4">
          <CardTitle>{t('contacts.delete')}</CardTitle>
          {actionData?.intent === 'delete' ? <FormErrors errors={actionData.errors} /> : null}
          <ConfirmAction intent="delete" variant="destructive" label={t('contacts.delete')} question={t('contacts.deleteConfirm', { name: contact.name })} confirmLabel={t('contacts.deleteYes')} />
        </Card>
      ) : null}
      <Outlet />
    </div>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { countryName } from '#common/countries.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { contactsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import { CONTACT_FIELDS, contactBody, ContactInputs, contactSchema } from './contact-form.tsx'
import { countryOptions } from './countries.server.ts'
import type { Route } from './+types/index.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, contactsList, activeContext(url, user.group_id))
  const t = getInstance(context).t
  const canEdit = canChange(request, user, 'contact-manager')
  return data({ page, canEdit, countries: canEdit ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, t('directory:contacts.title')) }, { headers })
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
  const platform = await getPlatform(request, context)
  try {
    const created = await platform.post('/groups/{context}/contacts', { path: { context: activeContext(url, user.group_id) }, body: contactBody(submission.value, true) })
    return redirect(carryContext(`/contacts/${created.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:contacts.created'), color: 'success' }) },
    })
  } catch (error) {
    const errors = formErrorsOf(t, error, CONTACT_FIELDS)
    return data({ result: submission.reply(errors) }, { status: 400 })
  }
}

export default function Contacts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('contacts')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('contacts.title')}</h1>
      <SubNav
        links={[
          { to: '/contacts', label: t('contacts.title'), current: true },
          { to: '/contacts/log', label: t('log') },
        ]}
      />
      {loaderData.canEdit ? <CreateContact countries={loaderData.countries} lastResult={actionData?.result} /> : null}
      <DataTable
        def={contactsList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/contacts/${String(row.id)}`)}>{String(row.name ?? '')}</RowLink>
          if (key === 'country_code') return countryName(String(row.country_code ?? ''), i18n.language)
          if (key === 'in_use') return yesNo(t, row.in_use)
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

function CreateContact({ countries, lastResult }: { countries: { code: string; name: string }[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('directory')
  const schema = contactSchema(t)
  const [form, fields] = useZodForm(schema, { id: 'contact-create', lastResult })
  return (
    <Card>
      <details open={lastResult ? true : undefined}>
        <summary className="cursor-pointer text-lg font-semibold" data-testid="contact-new">
          {t('contacts.new')}
        </summary>
        <CardTitle className="sr-only">{t('contacts.new')}</CardTitle>
        <Form method="post" className="mt-4 space-y-2" {...getFormProps(form)}>
          <FormErrors id={form.errorId} errors={form.errors} />
          <ContactInputs fields={fields} countries={countries} />
          <Button type="submit" data-testid="contact-create-submit">
            {t('contacts.create')}
          </Button>
        </Form>
      </details>
    </Card>
  )
}

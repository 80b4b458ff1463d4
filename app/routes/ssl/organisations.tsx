import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { SubNav } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { countryName } from '#common/countries.ts'
import { hasPermission } from '#common/permissions.ts'
import type { SslOrganisationStatus } from '#common/ssl.ts'
import { canChange, requireChange } from '../accounts/directory.server.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { ORGANISATION_FIELDS, organisationBody, OrganisationFields, organisationSchema } from './organisation-form.tsx'
import { OrganisationStatus } from './shared.tsx'
import type { Route } from './+types/organisations.ts'

/** /ssls/organisations: the account's OV/EV organisations with their validation state, and a form to add one. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const { page, headers } = await loadListPage(request, context, LISTS['ssl-organisations']!, groupContext)
  const t = getInstance(context).t
  // An organisation belongs to an account: staff in their own group see every one and add none.
  const canAdd = canChange(request, user, 'ssl-manager') && !(hasPermission(user, 'staff', { ignoreHidden: true }) && groupContext === user.group_id)
  return data({ page, canAdd, countries: canAdd ? countryOptions(getLocale(context)) : [], meta: pageMeta(request, context, t('ssl:organisations.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: organisationSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post<{ id: string }>(`/groups/${activeContext(url, user.group_id)}/ssl-organisations`, organisationBody(submission.value))
    return redirect(carryContext(`/ssls/organisations/${made.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:organisations.added'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ORGANISATION_FIELDS, {}, 'ssl')) }, { status: 400 })
  }
}

export default function SslOrganisations({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader title={t('organisations.title')} description={t('organisations.intro')} />
      <SubNav
        links={[
          { to: '/ssls', label: t('title') },
          { to: '/ssls/organisations', label: t('organisations.title'), current: true },
        ]}
      />
      {loaderData.canAdd ? (
        <Card>
          <details open={actionData ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold" data-testid="ssl-organisation-add-open">
              {t('organisations.add')}
            </summary>
            <AddOrganisation lastResult={actionData?.result} countries={loaderData.countries} />
          </details>
        </Card>
      ) : null}
      <DataTable
        def={LISTS['ssl-organisations']!}
        page={loaderData.page}
        labels={(key) => t(`organisations.fields.${key.replace('.', '_')}`, { defaultValue: key })}
        empty={t('organisations.none')}
        renderCell={(row, key) => {
          if (key === 'legal_name') return <RowLink to={href(`/ssls/organisations/${String(row.id)}`)}>{String(row.legal_name ?? '')}</RowLink>
          if (key === 'status') return <OrganisationStatus status={row.status as SslOrganisationStatus} />
          if (key === 'country') return countryName(String(row.country ?? ''), i18n.language)
          if (key === 'validated_at' || key === 'created_at') return row[key] ? formatDateTime(String(row[key]), i18n.language) : '—'
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

function AddOrganisation({ lastResult, countries }: { lastResult: SubmissionResult<string[]> | undefined; countries: { code: string; name: string }[] }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(organisationSchema(t), { id: 'ssl-organisation-add', lastResult })
  return (
    <Form method="post" className="mt-4 space-y-3" {...getFormProps(form)}>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('organisations.addHelp')}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <OrganisationFields fields={fields} countries={countries} prefix="org-add" />
      <Button type="submit" data-testid="ssl-organisation-add">
        {t('organisations.addSubmit')}
      </Button>
    </Form>
  )
}

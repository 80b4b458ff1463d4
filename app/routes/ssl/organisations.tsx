import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { FoldedFormCard, SubNav } from '#app/components/screen-parts.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { sslOrganisationsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { countryName } from '#common/countries.ts'
import { SSL_ORGANISATION_FIELDS } from '#common/ssl-organisation.ts'
import { hasPermission } from '#common/permissions.ts'
import type { SslOrganisationStatus } from '#common/ssl.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { organisationBody, OrganisationForm, organisationSchema } from './organisation-form.tsx'
import { OrganisationStatus } from './shared.tsx'
import type { Route } from './+types/organisations.ts'

/** /ssls/organisations: the account's OV/EV organisations with their validation state, and a form to add one. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const { page, headers } = await loadListPage(request, context, sslOrganisationsList, groupContext)
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
    const made = await (
      await getPlatform(request, context)
    ).post('/groups/{context}/ssl-organisations', { path: { context: activeContext(url, user.group_id) }, body: organisationBody(submission.value) })
    return redirect(carryContext(`/ssls/organisations/${made.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:organisations.added'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, SSL_ORGANISATION_FIELDS, {}, 'ssl')) }, { status: 400 })
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
        <FoldedFormCard title={t('organisations.add')} testId="ssl-organisation-add-open" open={!!actionData}>
          <OrganisationForm
            id="ssl-organisation-add"
            prefix="org-add"
            help={t('organisations.addHelp')}
            submit={{ label: t('organisations.addSubmit'), testId: 'ssl-organisation-add' }}
            countries={loaderData.countries}
            lastResult={actionData?.result}
          />
        </FoldedFormCard>
      ) : null}
      <DataTable
        def={sslOrganisationsList}
        page={loaderData.page}
        labels={(key) => t(`organisations.fields.${key.replace('.', '_')}`, { defaultValue: key })}
        empty={t('organisations.none')}
        renderCell={(row, key) => {
          if (key === 'legal_name') return <RowLink to={href(`/ssls/organisations/${String(row.id)}`)}>{String(row.legal_name ?? '')}</RowLink>
          if (key === 'status') return <OrganisationStatus status={row.status as SslOrganisationStatus} />
          if (key === 'country') return countryName(String(row.country ?? ''), i18n.language)
          if (key === 'validated_at' || key === 'created_at') return row[key] ? formatDateTime(String(row[key]), i18n.language) : '—'
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return undefined
        }}
      />
    </div>
  )
}

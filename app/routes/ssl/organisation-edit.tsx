import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useLocation, useRouteLoaderData } from 'react-router'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SSL_ORGANISATION_FIELDS, type SslOrganisationField } from '#common/ssl-organisation.ts'
import { organisationBody, OrganisationForm, organisationSchema } from './organisation-form.tsx'
import type { loader as organisationLoader } from './organisation.tsx'
import type { Route } from './+types/organisation-edit.ts'

/** /ssls/organisations/{id}/edit: the organisation's details, a sheet over its page (an SSL manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  return { meta: pageMeta(request, context, getInstance(context).t('ssl:organisations.edit')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const form = await request.formData()
  const submission = parseWithZod(form, { schema: organisationSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await (
      await getPlatform(request, context)
    ).put('/groups/{context}/ssl-organisations/{id}', {
      path: { context: activeContext(url, user.group_id), id: params.id },
      body: { ...organisationBody(submission.value), version: Number(form.get('version')) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, [...SSL_ORGANISATION_FIELDS], {}, 'ssl')) }, { status: 400 })
  }
  // Saved: the sheet closes onto the organisation, which now reads the new details.
  return redirect(carryContext(`/ssls/organisations/${params.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:organisations.saved'), color: 'success' }) } })
}

export default function EditOrganisation({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['ssl', 'common'])
  const { search } = useLocation()
  const { organisation: o, countries } = useRouteLoaderData<typeof organisationLoader>('routes/ssl/organisation')!
  const closeTo = `/ssls/organisations/${o.id}${search}`
  return (
    <Sheet
      title={t('organisations.edit')}
      description={t('organisations.editHelp')}
      closeTo={closeTo}
      testId="ssl-organisation-edit-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={`ssl-organisation-edit-${o.version}`} testId="ssl-organisation-save">
          {t('organisations.save')}
        </SheetSubmit>
      }
    >
      <OrganisationForm
        key={o.version}
        id={`ssl-organisation-edit-${o.version}`}
        prefix="org-edit"
        countries={countries}
        lastResult={actionData?.result}
        defaultValue={Object.fromEntries(SSL_ORGANISATION_FIELDS.map((k) => [k, o[k] ?? ''])) as Record<SslOrganisationField, string>}
      >
        <input type="hidden" name="version" value={o.version} />
      </OrganisationForm>
    </Sheet>
  )
}

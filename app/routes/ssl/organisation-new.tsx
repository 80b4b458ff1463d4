import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, useLocation } from 'react-router'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
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
import { isStaffInContext } from '#common/permissions.ts'
import { SSL_ORGANISATION_FIELDS } from '#common/ssl-organisation.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { organisationBody, OrganisationForm, organisationSchema } from './organisation-form.tsx'
import type { Route } from './+types/organisation-new.ts'

/** An SSL manager adds an organisation in an account: staff in their own group act for no account and add none. */
async function requireAdding(request: Request, context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const groupContext = activeContext(requestUrl(request), user.group_id)
  if (isStaffInContext(user, groupContext)) throw data('An organisation is added in an account: choose one first', { status: 403 })
  return groupContext
}

/** /ssls/organisations/new: an OV/EV organisation's form, a sheet over the organisations list. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdding(request, context, params)
  return { countries: countryOptions(getLocale(context)), meta: pageMeta(request, context, getInstance(context).t('ssl:organisations.add')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const groupContext = await requireAdding(request, context, params)
  const t = getInstance(context).t
  const url = requestUrl(request)
  const submission = parseWithZod(await request.formData(), { schema: organisationSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post('/groups/{context}/ssl-organisations', { path: { context: groupContext }, body: organisationBody(submission.value) })
    return redirect(carryContext(`/ssls/organisations/${made.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:organisations.added'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, SSL_ORGANISATION_FIELDS, {}, 'ssl')) }, { status: 400 })
  }
}

export default function AddOrganisation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['ssl', 'common'])
  const { search } = useLocation()
  const closeTo = `/ssls/organisations${search}`
  return (
    <Sheet
      title={t('organisations.add')}
      description={t('organisations.addHelp')}
      closeTo={closeTo}
      testId="ssl-organisation-add-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="ssl-organisation-add" testId="ssl-organisation-add">
          {t('organisations.addSubmit')}
        </SheetSubmit>
      }
    >
      <OrganisationForm id="ssl-organisation-add" prefix="org-add" countries={loaderData.countries} lastResult={actionData?.result} />
    </Sheet>
  )
}

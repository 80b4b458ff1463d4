import { data, useLocation } from 'react-router'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { hasPermission } from '#common/permissions.ts'
import { ServiceUserForm } from './api-tokens.tsx'
import { serviceUserAction } from './api-tokens.server.ts'
import type { Route } from './+types/service-user-new.ts'

/** /users/service-users/new: a new service user's form, a sheet over the users list (a user admin's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  return { staffOffered: hasPermission(user, 'staff', { ignoreHidden: true }), meta: pageMeta(request, context, getInstance(context).t('tokens:serviceUsers.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'user-admin')
  const url = requestUrl(request)
  const made = await serviceUserAction(request, context, getInstance(context).t, await request.formData(), activeContext(url, user.group_id), hasPermission(user, 'staff', { ignoreHidden: true }))
  return 'result' in made ? data({ result: made.result }, { status: 400 }) : made.redirect
}

export default function NewServiceUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['tokens', 'common'])
  const { search } = useLocation()
  const closeTo = `/users${search}`
  return (
    <Sheet
      title={t('serviceUsers.title')}
      description={t('serviceUsers.intro')}
      closeTo={closeTo}
      testId="service-user-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="service-user" testId="service-user-submit">
          {t('serviceUsers.create')}
        </SheetSubmit>
      }
    >
      <ServiceUserForm lastResult={actionData?.result} staffOffered={loaderData.staffOffered} />
    </Sheet>
  )
}

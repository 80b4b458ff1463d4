import { data } from 'react-router'
import { Sheet, SheetCancel, SheetSubmit } from '#app/components/sheet.tsx'
import { listAccountChoices } from '#app/lib/accounts.server.ts'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { SessionUser } from '#app/lib/session.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { grantablePermissions, tokenAction, type TokenOwner } from './api-tokens.server.ts'
import { NewTokenForm, TokenSecretShown, type TokenActionData } from './api-tokens.tsx'
import type { Route } from './+types/api-token-new.ts'

/**
 * A new API token's form, a sheet over the page that lists the tokens: the signed-in user's own
 * (/my-profile/api-tokens/new) or a service user's, its admins' to make (/users/{id}/api-tokens/new).
 * The secret is answered by the post that made it, shown in the sheet once, never in a page that
 * can be reloaded.
 */
async function ownerOf(request: Request, user: SessionUser, id: string | undefined): Promise<TokenOwner> {
  if (!id) return null
  requireChange(request, user, 'user-admin')
  return { context: activeContext(requestUrl(request), user.group_id), id }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const owner = await ownerOf(request, user, params.id)
  const platform = await getPlatform(request, context)
  const [detail, accounts] = await Promise.all([owner ? platform.get('/groups/{context}/users/{id}', { path: owner }) : Promise.resolve(null), listAccountChoices(request, context, user)])
  // A person's tokens are their own to make, on their profile; only a service user's are made by its admins.
  if (detail && detail.kind !== 'service') throw data('Not found', { status: 404 })
  return { permissions: grantablePermissions(user, detail ?? undefined), accounts, meta: pageMeta(request, context, getInstance(context).t('tokens:new')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const owner = await ownerOf(request, user, params.id)
  const formData = await request.formData()
  if (formData.get('intent') !== 'token-create') throw data('Unknown form', { status: 400 })
  return (await tokenAction(request, context, getInstance(context).t, formData, owner))!
}

export default function NewApiToken({ loaderData, actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation(['tokens', 'common'])
  const closeTo = params.id ? `/users/${params.id}` : '/my-profile'
  const answer = actionData as TokenActionData | undefined
  if (answer?.intent === 'token-created') {
    return (
      <Sheet title={t('new')} closeTo={closeTo} testId="token-sheet" footer={<SheetCancel closeTo={closeTo}>{t('common:actions.close')}</SheetCancel>}>
        <TokenSecretShown name={answer.name} secret={answer.secret} />
      </Sheet>
    )
  }
  return (
    <Sheet
      title={t('new')}
      description={t('intro')}
      closeTo={closeTo}
      testId="token-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="token-new" testId="token-create">
          {t('create')}
        </SheetSubmit>
      }
    >
      <NewTokenForm permissions={loaderData.permissions} accounts={loaderData.accounts} lastResult={answer?.intent === 'token-create' ? answer.result : undefined} />
    </Sheet>
  )
}

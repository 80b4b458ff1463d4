import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { Sheet, SheetCancel, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ENDPOINT_FIELDS, EndpointForm, endpointFormId, endpointSchema, SecretShown } from './webhooks-shared.tsx'
import type { Route } from './+types/webhook-new.ts'

/** /accounts/{id}/webhooks/new: a new endpoint's form, a sheet over the account's endpoints (an account admin's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'account-admin')
  return { meta: pageMeta(request, context, getInstance(context).t('webhooks:new')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'account-admin')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: endpointSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply(), made: null }, { status: 400 })
  const { intent: _intent, ...values } = submission.value
  try {
    const made = await (await getPlatform(request, context)).post('/groups/{context}/webhook_endpoints', { path: { context: params.id }, body: values })
    // The secret is in this answer only: never in a page that can be reloaded.
    return data({ result: submission.reply({ resetForm: true }), made }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ENDPOINT_FIELDS)), made: null }, { status: 400 })
  }
}

export default function NewWebhookEndpoint({ params, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['webhooks', 'common'])
  const closeTo = `/accounts/${params.id}/webhooks`
  const made = actionData?.made
  // Made: the sheet shows the signing secret this once, and closes onto the list that now holds the endpoint.
  if (made) {
    return (
      <Sheet title={t('new')} closeTo={closeTo} testId="webhook-sheet" footer={<SheetCancel closeTo={closeTo}>{t('common:actions.close')}</SheetCancel>}>
        <SecretShown secret={made.secret} title={t('created', { url: made.endpoint.url })} />
      </Sheet>
    )
  }
  return (
    <Sheet
      title={t('new')}
      closeTo={closeTo}
      testId="webhook-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={endpointFormId('endpoint-create')} testId="endpoint-create-submit">
          {t('create')}
        </SheetSubmit>
      }
    >
      <EndpointForm intent="endpoint-create" lastResult={actionData?.result} submitLabel={t('create')} submitInFooter />
    </Sheet>
  )
}

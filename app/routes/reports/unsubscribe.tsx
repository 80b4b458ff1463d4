import { data, Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { PlatformClient } from '#app/lib/platform.server.ts'
import { readBody } from '#app/lib/platform-client.ts'
import { services } from '#app/lib/session.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/unsubscribe.ts'

/**
 * /reports/unsubscribe/{token} (public, login layout): the link in a scheduled report's mail. A GET
 * changes nothing (a mail scanner may follow it); the button stops the mails.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const t = getInstance(context).getFixedT(null, 'reports')
  return { done: false, found: true, meta: pageMeta(request, context, t('subscriptions.unsubscribeTitle')) }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request, { publicUrl: services(context).env.publicUrl })
  const t = getInstance(context).getFixedT(null, 'reports')
  const response = await new PlatformClient(request, context, null).raw('/report-subscriptions/unsubscribe', { method: 'POST', body: { token: params.token }, priority: true })
  if (!response.ok) {
    await response.body?.cancel()
    throw data({ message: t('subscriptions.unavailable') }, { status: response.status >= 500 ? 500 : response.status })
  }
  const { unsubscribed } = (await readBody(response)) as { unsubscribed: boolean }
  return { done: true, found: unsubscribed, meta: pageMeta(request, context, t('subscriptions.unsubscribeTitle')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('reports')
  const state = actionData ?? loaderData
  return (
    <div className="space-y-4" data-testid="report-unsubscribe">
      <h1 className="text-xl font-semibold">{t('subscriptions.unsubscribeTitle')}</h1>
      {state.done ? (
        <p role="status">{state.found ? t('subscriptions.unsubscribed') : t('subscriptions.notFound')}</p>
      ) : (
        <Form method="post" className="space-y-3">
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('subscriptions.unsubscribeHint')}</p>
          <Button type="submit">{t('subscriptions.unsubscribeButton')}</Button>
        </Form>
      )}
    </div>
  )
}

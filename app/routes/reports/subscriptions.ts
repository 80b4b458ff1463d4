import { redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/subscriptions.ts'

/** Where to go back to after a change: a path of the portal only, never another site. */
const backTo = (value: FormDataEntryValue | null) => (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : '/reports')

/**
 * POST /reports/subscriptions (issue 29): subscribe to the report the form names with its filters
 * (weekly, monthly or quarterly), or stop one (`intent=delete`); then back where the form was, a
 * flash saying what happened. Plain forms: they work without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context)
  const platform = await getPlatform(request, context)
  const t = getInstance(context).getFixedT(null, 'reports')
  const form = await request.formData()
  const back = backTo(form.get('redirectTo'))
  const say = (message: string, color: 'success' | 'error') => redirect(back, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color }) } })
  try {
    if (form.get('intent') === 'delete') {
      await platform.delete('/me/report-subscriptions/{id}', { path: { id: String(form.get('id') ?? '') } })
      return say(t('subscriptions.deleted'), 'success')
    }
    const number = (key: string) => (form.get(key) ? Number(form.get(key)) : null)
    await platform.post('/groups/{context}/reports/subscriptions', {
      path: { context: activeContext(requestUrl(request), user.group_id) },
      body: {
        report: String(form.get('report')) as never,
        frequency: String(form.get('frequency')) as never,
        tag: (form.get('tag') as string | null) || null,
        days: number('days'),
        months: number('months'),
      },
    })
    return say(t('subscriptions.created'), 'success')
  } catch {
    return say(t('subscriptions.failed'), 'error')
  }
}

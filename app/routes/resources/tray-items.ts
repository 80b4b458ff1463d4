import { TRAY_ENTITY_TYPES } from '#common/lists/tray.ts'
import { redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requireUser } from '#app/lib/session.server.ts'
import type { Route } from './+types/tray-items.ts'

type TrayType = (typeof TRAY_ENTITY_TYPES)[number]
const isTrayType = (type: string): type is TrayType => (TRAY_ENTITY_TYPES as readonly string[]).includes(type)

/**
 * The selection form of every list: POST item=<type>|<id>|<label> (repeated) adds rows to the
 * server-side bulk tray of the list's context; intent=clear empties it, intent=remove with
 * item=… takes rows out. The tray lives in the database (per user and account).
 */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireUser(request, context)
  const form = await request.formData()
  const t = getInstance(context).t
  const redirectTo = safeRedirect(form.get('redirectTo'))
  const groupContext = activeContext(new URL(redirectTo, 'http://portal.local').searchParams, user.group_id)
  const platform = await getPlatform(request, context)
  const intent = form.get('intent')
  const byType = new Map<TrayType, string[]>()
  for (const value of form.getAll('item')) {
    if (typeof value !== 'string') continue
    const [type, id] = value.split('|')
    if (type && id && isTrayType(type)) byType.set(type, [...(byType.get(type) ?? []), id])
  }
  const headers = new Headers()
  if (intent === 'clear') {
    const type = form.get('entity_type') === 'record' ? 'record' : 'domain'
    await platform.delete('/groups/{context}/tray', { path: { context: groupContext }, body: { entity_type: type } })
    headers.append('Set-Cookie', flashHeader(request, { content: t('tray.cleared'), color: 'info' }))
  } else if (intent === 'remove') {
    for (const [type, ids] of byType) await platform.delete('/groups/{context}/tray', { path: { context: groupContext }, body: { entity_type: type, ids } })
  } else {
    let count = 0
    for (const [type, ids] of byType) {
      await platform.post('/groups/{context}/tray', { path: { context: groupContext }, body: { entity_type: type, ids } })
      count += ids.length
    }
    headers.append('Set-Cookie', flashHeader(request, { content: t('tray.added', { count }), color: 'success', deepLink: '/tray', deepLinkText: t('tray.title') }))
  }
  return redirect(redirectTo, { headers })
}

export const loader = () => redirect('/tray')

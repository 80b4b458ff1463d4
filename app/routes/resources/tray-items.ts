import { redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { safeRedirectPath } from '#app/lib/cookies.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { requireUser } from '#app/lib/session.server.ts'
import { addToTray, readTray, trayHeader, type TrayItem } from '#app/lib/tray.server.ts'
import type { Route } from './+types/tray-items.ts'

/** POST item=<type>|<id>|<label> (repeated) to add rows to the bulk tray; intent=clear empties it. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  await requireUser(request, context)
  const form = await request.formData()
  const t = getInstance(context).t
  const headers = new Headers()
  if (form.get('intent') === 'clear') {
    headers.append('Set-Cookie', trayHeader([]))
    headers.append('Set-Cookie', flashHeader(request, { content: t('tray.cleared'), color: 'info' }))
  } else {
    const items: TrayItem[] = []
    for (const value of form.getAll('item')) {
      if (typeof value !== 'string') continue
      const [type, id, ...label] = value.split('|')
      if (type && id) items.push({ type: type.slice(0, 40), id: id.slice(0, 64), label: label.join('|').slice(0, 200) })
    }
    headers.append('Set-Cookie', trayHeader(addToTray(readTray(request), items)))
    headers.append('Set-Cookie', flashHeader(request, { content: t('tray.added', { count: items.length }), color: 'success', deepLink: '/tray', deepLinkText: t('tray.title') }))
  }
  return redirect(safeRedirectPath(form.get('redirectTo')), { headers })
}

export const loader = () => redirect('/tray')

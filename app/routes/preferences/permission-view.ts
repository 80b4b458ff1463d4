import { data, redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { HIGHLIGHT_COLORS, permissionViewHeader } from '#app/lib/permission-view.server.ts'
import { expandPermissions, hasPermission, type PermissionView } from '#common/permissions.ts'
import { requireUser } from '#app/lib/session.server.ts'
import type { Route } from './+types/permission-view.ts'

/**
 * Staff only: hide permissions or give them a highlight colour, to see the portal as a user
 * without them. `hide` and `color:<permission>` fields come from the form in /my-profile.
 */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireUser(request, context)
  // The check ignores hiding, or hiding "staff" would lock the setting away for good.
  if (!hasPermission(user, 'staff', { ignoreHidden: true })) throw data('Only staff can change the permission view', { status: 403 })
  const form = await request.formData()
  const owned = expandPermissions(user.roles, user.abilities)
  const view: PermissionView = { hiddenPermissions: {}, highlightColors: {} }
  if (form.get('intent') !== 'reset') {
    for (const name of form.getAll('hide')) if (typeof name === 'string' && owned.has(name)) view.hiddenPermissions[name] = true
    for (const [key, value] of form) {
      if (!key.startsWith('color:') || typeof value !== 'string' || !value) continue
      const name = key.slice('color:'.length)
      if (owned.has(name) && (HIGHLIGHT_COLORS as readonly string[]).includes(value)) view.highlightColors[name] = value
    }
  }
  const t = getInstance(context).t
  const headers = new Headers()
  headers.append('Set-Cookie', permissionViewHeader(view))
  headers.append('Set-Cookie', flashHeader(request, { content: t('permissionView.saved'), color: 'success' }))
  return redirect(safeRedirect(form.get('redirectTo'), '/my-profile'), { headers })
}

export const loader = () => redirect('/my-profile')

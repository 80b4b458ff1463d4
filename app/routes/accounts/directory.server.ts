import { data } from 'react-router'
import type { SessionUser } from '#app/lib/session.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'

/** Whether the user may change things needing `permission` (staff may change everything). */
export function canChange(request: Request, user: SessionUser, permission: string): boolean {
  const view = readPermissionView(request)
  return hasPermission(user, permission, { view }) || hasPermission(user, 'staff', { view })
}

/** A change by someone without the permission is the 403 screen, before any form is read. */
export function requireChange(request: Request, user: SessionUser, permission: string): void {
  if (!canChange(request, user, permission)) throw data(`This needs the ${permission} permission`, { status: 403 })
}

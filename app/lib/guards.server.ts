import { data, type RouterContextProvider } from 'react-router'
import { hasPermission, type Permission } from '#common/permissions.ts'
import { isUuid } from './context-param.ts'
import { areaForPath, canSeeArea } from './navigation.ts'
import { readPermissionView } from './permission-view.server.ts'
import { requireUser, type SessionUser } from './session.server.ts'
import { requestUrl } from './request-url.ts'

/** Spec §2 route validation: a failed check is Page Not Found with the path, status 404. */
export function pageNotFound(pathname: string): never {
  throw data(`Page Not Found ${pathname}`, { status: 404 })
}

/** Every `id` route parameter must be a UUID (the 36-character id rule). */
export function validateIds(params: Record<string, string | undefined>, pathname: string) {
  if (params.id !== undefined && !isUuid(params.id)) pageNotFound(pathname)
}

/**
 * Called by EVERY screen loader and action (layouts and screens load in parallel, so a layout's
 * check alone protects nothing): the signed-in user, with the area's permission from the one map.
 */
export async function requireScreen(request: Request, context: Readonly<RouterContextProvider>, params: Record<string, string | undefined> = {}): Promise<SessionUser> {
  const user = await requireUser(request, context)
  const { pathname } = requestUrl(request)
  validateIds(params, pathname)
  const area = areaForPath(pathname)
  if (area && !canSeeArea(user, area, readPermissionView(request))) {
    throw data(`This page needs one of: ${area.anyOf.join(', ')}`, { status: 403 })
  }
  return user
}

/** Whether the user may change things needing `permission` (staff may change everything). */
export function canChange(request: Request, user: SessionUser, permission: Permission): boolean {
  const view = readPermissionView(request)
  return hasPermission(user, permission, { view }) || hasPermission(user, 'staff', { view })
}

/**
 * A screen showing another area's data inside its own (a report) needs that area's permission as
 * well as its own area's (requireScreen): the 403 screen otherwise. Staff read everything.
 */
export function requireRead(request: Request, user: SessionUser, permission: Permission): void {
  const view = readPermissionView(request)
  if (!hasPermission(user, permission, { view }) && !hasPermission(user, 'staff', { view })) throw data(`This page needs the ${permission} permission`, { status: 403 })
}

/** A change by someone without the permission is the 403 screen, before any form is read. */
export function requireChange(request: Request, user: SessionUser, permission: Permission): void {
  if (!canChange(request, user, permission)) throw data(`This needs the ${permission} permission`, { status: 403 })
}

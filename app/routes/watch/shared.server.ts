import type { RouterContextProvider } from 'react-router'
import { activeContext, isUuid } from '#app/lib/context-param.ts'
import { canChange, pageNotFound, requireScreen } from '#app/lib/guards.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { isStaffInContext } from '#common/permissions.ts'

/**
 * Every watch screen's start (issue 31): the screen guard (brand-viewer, the navigation's), the
 * account in context, the platform, and whether the person may change watches and cases
 * (brand-manager; staff work in a client's context, not their own group).
 */
export async function watchScreen(request: Request, context: Readonly<RouterContextProvider>, params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  if (params.caseId !== undefined && !isUuid(params.caseId)) pageNotFound(requestUrl(request).pathname)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const own = !isStaffInContext(user, groupContext)
  return {
    user,
    groupContext,
    platform,
    canManage: own && canChange(request, user, 'brand-manager'),
    canAdmin: own && canChange(request, user, 'brand-admin'),
  }
}

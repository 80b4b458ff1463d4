import { data, type RouterContextProvider } from 'react-router'
import { activeContext } from '#app/lib/context-param.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { isStaffInContext } from '#common/permissions.ts'

/**
 * The guard of the brand sheets (add, import): a brand manager acting in an account's context —
 * staff in their own group keep no brands of their own, so the sheets answer 403 there as the
 * screen offers them no button. Answers the account's context.
 */
export async function requireBrandManager(request: Request, context: Readonly<RouterContextProvider>, params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'brand-manager')
  const groupContext = activeContext(requestUrl(request), user.group_id)
  if (isStaffInContext(user, groupContext)) throw data('Brands are kept in an account: choose one first', { status: 403 })
  return groupContext
}

import type { RouterContextProvider } from 'react-router'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'

/** An item's screen: the guard, the account context, the platform client and the item's path (another account's id answers 404 from the API: the error screen). */
export async function itemScreen(request: Request, context: Readonly<RouterContextProvider>, params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const path = { context: groupContext, id: params.id! }
  return { user, groupContext, platform, path, canManage: canChange(request, user, 'prospect-manager') }
}

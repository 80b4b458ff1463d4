import type { RouterContextProvider } from 'react-router'
import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'

/**
 * What every billing screen starts with: the signed-in user, the account context, the platform
 * and whether the user runs billing (staff in their own group) or reads its own (a client).
 */
export async function billingScreen(request: Request, context: Readonly<RouterContextProvider>, params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const staff = canChange(request, user, 'staff') && groupContext === user.group_id
  return { user, url, groupContext, platform, staff, base: `/groups/${groupContext}` }
}

/** A billing entity the user may read (another's is the 404 screen). */
export async function loadEntity(screen: Awaited<ReturnType<typeof billingScreen>>, id: string | undefined) {
  return screen.platform.get('/groups/{context}/billing-entities/{id}', { path: { context: screen.groupContext, id } })
}

import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'

/** The certificate of /ssls/{id}/… for a screen (another account's or a missing one: the 404 screen). */
export async function loadCertificate(request: Request, context: Parameters<typeof getPlatform>[1], params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const certificate = await platform.get('/groups/{context}/ssls/{id}', { path: { context: groupContext, id: params.id } })
  return { user, url, groupContext, platform, certificate }
}

import type { RouterContextProvider } from 'react-router'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getPlatform, type PlatformClient } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { SessionUser } from '#app/lib/session.server.ts'
import type { Answer } from '#app/lib/platform-api.ts'

type Context = Readonly<RouterContextProvider>

export type DomainScreen = {
  user: SessionUser
  platform: PlatformClient
  /** The account the screen acts in (the ?context= of staff, else the user's own group). */
  groupContext: string
  /** `/groups/{context}` for platform paths. */
  base: string
  /** domain-manager (or staff): the controls shown; actions check again with `requireChange`. */
  canManage: boolean
}

/** Every domains loader and action starts here: the screen guard, then the platform client. */
export async function domainScreen(request: Request, context: Context, params: Record<string, string | undefined> = {}): Promise<DomainScreen> {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const canManage = canChange(request, user, 'domain-manager')
  return { user, platform, groupContext, base: `/groups/${encodeURIComponent(groupContext)}`, canManage }
}

/** Lines of a pasted list: one name per line (commas, semicolons and blanks also separate). */
export function splitNames(text: string, max = 10_000): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, max)
}

export type DomainDetail = Answer<'/groups/{context}/domains/{id}'>

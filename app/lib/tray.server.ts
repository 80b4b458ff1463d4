import type { RouterContextProvider } from 'react-router'
import { getPlatform } from './platform.server.ts'

/**
 * How many domains and records the signed-in user has in the bulk tray of this context. The tray
 * lives on the server (per user and account, GET /groups/{context}/tray), so it survives reloads
 * and new sign-ins; a failure to count never breaks the page around the indicator.
 */
export async function trayCount(request: Request, context: Readonly<RouterContextProvider>, groupContext: string): Promise<number> {
  try {
    const platform = await getPlatform(request, context)
    const sizes = await platform.get('/groups/{context}/tray/size', { path: { context: groupContext } })
    return (sizes?.domain ?? 0) + (sizes?.record ?? 0)
  } catch (error) {
    if (error instanceof Response) throw error
    return 0
  }
}

export type TrayItem = { type: string; id: string; label: string }

/**
 * @deprecated The tray is server-side now: read it with GET /groups/{context}/tray?entity_type=…
 * (list engine). This reads the old cookie only so screens not yet switched keep compiling; the
 * cookie is no longer written, so it is empty for everyone.
 */
export function readTray(_request: Request): TrayItem[] {
  return []
}

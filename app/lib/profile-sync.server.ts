import type { RouterContextProvider } from 'react-router'
import { appServicesContext } from './app-context.ts'
import type { RequestBody } from './platform-api.ts'
import { getPlatform } from './platform.server.ts'
import { updateSessionUser } from './profile.server.ts'
import { getUser } from './session.server.ts'

/**
 * Saves a preference to the signed-in user's profile (PATCH /v1/profile). The cookie already
 * holds the choice, so a failure here (signed out, endpoint missing, platform down) is logged and
 * never blocks the switch.
 */
export async function saveProfilePreference(request: Request, context: Readonly<RouterContextProvider>, patch: RequestBody<'/profile', 'patch'>) {
  try {
    if (!(await getUser(request, context))) return
    const platform = await getPlatform(request, context)
    await platform.patch('/profile', { body: patch })
    await updateSessionUser(request, context, patch)
  } catch (error) {
    context.get(appServicesContext).log('warn', 'profile preference not saved', { patch, error: error instanceof Response ? error.status : String(error) })
  }
}

import type { RouterContextProvider } from 'react-router'
import { appServicesContext } from './app-context.ts'
import { getSession } from './session.server.ts'

/**
 * PUT /v1/profile/password ends every session and answers new tokens for this one; they must
 * replace the stored pair or the next call would be refused.
 * TODO(sign-in): move into session.server.ts as an exported helper owned by the session code.
 */
export async function replaceSessionTokens(request: Request, context: Readonly<RouterContextProvider>, tokens: { access_token: string; refresh_token: string }) {
  const session = await getSession(request, context)
  if (!session) return
  await context.get(appServicesContext).sql.query('UPDATE portal_sessions SET access_token = $2, refresh_token = $3 WHERE id = $1', [session.key, tokens.access_token, tokens.refresh_token])
}

/** Keeps the session's copy of the user in step after a profile change. */
export async function updateSessionUser(request: Request, context: Readonly<RouterContextProvider>, patch: Record<string, unknown>) {
  const session = await getSession(request, context)
  if (!session) return
  await context.get(appServicesContext).sql.query('UPDATE portal_sessions SET user_data = user_data || $2::jsonb WHERE id = $1', [session.key, JSON.stringify(patch)])
}

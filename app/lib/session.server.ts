// CONTRACT (owned by the sign-in work, issue 3): the portal's server-side session.
// The signatures below are what the rest of the portal calls; the implementation is replaced.
import { redirect, type RouterContextProvider } from 'react-router'

/** The signed-in user as the portal knows it (spec §3 User, plus display fields). */
export type SessionUser = {
  id: string
  group_id: string
  email: string
  name: string
  roles: string[]
  abilities: string[]
  language: string
  dark_theme: boolean
}

/** The signed-in user of this request, or null. */
export async function getUser(_request: Request, _context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  return null
}

/** The signed-in user, or a redirect to /login that keeps the requested address. */
export async function requireUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const user = await getUser(request, context)
  if (!user) {
    const url = new URL(request.url)
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`)
  }
  return user
}

import { redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { clearCookie, serializeCookie, YEAR_SECONDS } from '#app/lib/cookies.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { saveProfilePreference } from '#app/lib/profile-sync.server.ts'
import { isTheme } from '#app/lib/theme.ts'
import type { Route } from './+types/theme.ts'

/** POST theme=light|dark|system (a plain form: the toggle works without JavaScript). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const form = await request.formData()
  const theme = form.get('theme')
  const back = safeRedirect(form.get('redirectTo'))
  if (isTheme(theme)) {
    await saveProfilePreference(request, context, { dark_theme: theme === 'dark' })
    return redirect(back, { headers: { 'Set-Cookie': serializeCookie('theme', theme, { maxAge: YEAR_SECONDS }) } })
  }
  return redirect(back, { headers: { 'Set-Cookie': clearCookie('theme') } })
}

export const loader = () => redirect('/')

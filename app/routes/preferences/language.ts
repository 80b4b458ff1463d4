import { redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { serializeCookie, YEAR_SECONDS } from '#app/lib/cookies.server.ts'
import { safeRedirect } from '#app/lib/safe-redirect.ts'
import { isUiLanguage } from '#app/lib/i18n.ts'
import { saveProfilePreference } from '#app/lib/profile-sync.server.ts'
import type { Route } from './+types/language.ts'

/** POST lng=<code>: the `lng` cookie for 365 days (spec §9), and the profile when signed in. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request)
  const form = await request.formData()
  const lng = form.get('lng')
  const back = safeRedirect(form.get('redirectTo'))
  if (!isUiLanguage(lng)) return redirect(back)
  await saveProfilePreference(request, context, { language: lng })
  return redirect(back, { headers: { 'Set-Cookie': serializeCookie('lng', lng, { maxAge: YEAR_SECONDS }) } })
}

export const loader = () => redirect('/')

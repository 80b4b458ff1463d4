import type { TFunction } from 'i18next'
import { refusalOf } from '#app/lib/refusal.server.ts'

/**
 * A refused call's words, each field's beside its field: our codes (`ssl:errors.<code>`, dots as underscores) in the
 * user's language, else the API's own message. The refusal is the portal's one (`refusalOf`): anything but a 4xx
 * goes to the error screen, a 403 or 404 to its screen.
 */
export function sslRefusal(t: TFunction, error: unknown, fields: readonly string[]): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const { problem } = refusalOf(error, { screens: [403, 404] })
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  const say = (code: string | undefined, fallback: string) => (code ? t(`ssl:errors.${code.replace(/\./g, '_')}`, { defaultValue: fallback }) : fallback)
  for (const e of problem.errors ?? []) {
    const field = fields.find((f) => f === e.field || f === e.field?.split('.')[0])
    const message = say(e.code, e.message ?? '')
    if (field) (fieldErrors[field] ??= []).push(message)
    else formErrors.push(message)
  }
  if (!formErrors.length && !Object.keys(fieldErrors).length) formErrors.push(say(problem.code, problem.detail ?? problem.title ?? t('directory:errors.unknown')))
  return { fieldErrors, formErrors }
}

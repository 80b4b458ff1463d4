import type { TFunction } from 'i18next'
import { PlatformError } from '#app/lib/platform-client.ts'

/**
 * A refused pricing call as words beside its fields: each coded field error in the user's
 * language (`pricing:errors.<code>`, the API's English otherwise); what names no field of the form
 * goes above it. A 403, 404 or 5xx is the error screen, as everywhere.
 */
const DETAILED = new Set(['template.schema_invalid', 'pricing_rule.overlap'])

export function pricingRefusal(error: unknown, t: TFunction, fields: readonly string[]): { fieldErrors: Record<string, string[]>; formErrors: string[]; problem: Record<string, unknown> } {
  if (!(error instanceof PlatformError) || error.status >= 500 || error.status === 403 || error.status === 404) throw error
  const problem = (error.data && typeof error.data === 'object' ? error.data : { detail: error.message }) as Record<string, unknown> & { code?: string; detail?: string; errors?: { field?: string; code?: string; message?: string }[] }
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  const say = (code: string | undefined, message: string | undefined) => {
    if (!code) return message ?? ''
    const words = t([`pricing:errors.${code}`, `validation:${code}`], { defaultValue: message ?? '' })
    // Where the API's detail says what to fix (which part of a schema, which window), it follows.
    return DETAILED.has(code) && message && words !== message ? `${words} — ${message}` : words
  }
  for (const e of problem.errors ?? []) {
    const field = (e.field ?? '').split('.')[0]!
    const text = say(e.code, e.message)
    if (fields.includes(field)) (fieldErrors[field] ??= []).push(text)
    else formErrors.push(text)
  }
  if (!problem.errors?.length) formErrors.push(say(problem.code, problem.detail))
  return { fieldErrors, formErrors, problem }
}

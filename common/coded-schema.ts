import { z } from 'zod'

/**
 * Zod rules whose every refusal carries a stable code (`field.required`, `phone.missing_plus`, …),
 * for a schema both sides parse with: the portal's form (conform + zod) says each code in the
 * user's language beside its field, and the Platform API answers the same codes with their English
 * words (`codedErrors`). The words come from `say`, given by the side that parses.
 */

/** The words of a coded refusal: the portal's translator, or the API's English. */
export type SayCode = (code: string, values?: { max?: number }) => string

/** One field's coded refusal, as the API answers it (`errors[]` of a problem). */
export type CodedIssue = { field: string; code: string; message: string; allowed?: string[] }

/** The English words of the general codes; an area adds its own. */
export const GENERAL_WORDS: Record<string, (values: { max?: number }) => string> = {
  'field.required': () => 'This field is required',
  'field.too_long': ({ max }) => `At most ${max} characters`,
  'email.invalid': () => 'Not an email address',
  'country.invalid': () => 'Not an ISO 3166 country code',
  'date.invalid': () => 'Not a date (YYYY-MM-DD)',
}

/**
 * The rules of a schema whose refusals say `say`'s words. `later` are the codes a check finds only
 * while parsing (a phone's reason): they are said when the schema is made, as the others are, so
 * that a page which makes the schema carries their words to the browser.
 */
export function codedRules(say: SayCode, later: readonly string[] = []) {
  const required = { error: say('field.required') }
  const tooLong = (max: number) => ({ error: say('field.too_long', { max }) })
  const words = new Map(later.map((code) => [code, say(code)]))
  return {
    /** A refusal with its code (and the values it allows) on a custom check. */
    issue: (ctx: z.RefinementCtx, code: string, options: { allowed?: readonly string[]; path?: string[] } = {}) =>
      ctx.addIssue({
        code: 'custom',
        message: words.get(code) ?? say(code),
        params: options.allowed ? { code, allowed: [...options.allowed] } : { code },
        ...(options.path ? { path: options.path } : {}),
      }),
    /** A check that refuses with its code. */
    coded: (code: string) => ({ error: say(code), params: { code } }),
    /** Text, trimmed, of at most `max` characters when given; empty or missing refused. */
    requiredText: (max?: number) => (max === undefined ? z.string(required).trim().min(1, required) : z.string(required).trim().min(1, required).max(max, tooLong(max))),
    /** Text, trimmed, of at most `max` characters when given; missing is ''. */
    optionalText: (max?: number) => (max === undefined ? z.string().trim() : z.string().trim().max(max, tooLong(max))).default(''),
  }
}

/** The code of an issue of a `codedRules` schema: its own on a custom check, else what zod's says. */
function codeOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return String(issue.params?.code ?? 'field.invalid')
  return issue.code === 'too_big' ? 'field.too_long' : 'field.required'
}

/** A refused parse as the API's field errors: each issue's field, code and words, in the order of `fields` (a rule across fields beside the one it names). */
export function codedErrors(error: z.ZodError, fields: readonly string[] = []): CodedIssue[] {
  const coded = error.issues.map((issue): CodedIssue => {
    const allowed = issue.code === 'custom' && Array.isArray(issue.params?.allowed) ? (issue.params.allowed as string[]) : undefined
    const field = { field: issue.path.join('.'), code: codeOf(issue), message: issue.message }
    return allowed ? { ...field, allowed } : field
  })
  const rank = (e: CodedIssue) => (fields.includes(e.field) ? fields.indexOf(e.field) : fields.length)
  return coded.sort((a, b) => rank(a) - rank(b))
}

import type { TFunction } from 'i18next'
import { z } from 'zod'

/** Zod pieces carrying the default form messages of spec §5, in the user's language. */
export function formRules(t: TFunction) {
  const v = (key: string, values?: Record<string, unknown>) => t(`validation:${key}`, values ?? {})
  return {
    requiredText: (max = 1024) =>
      z
        .string({ error: v('required') })
        .trim()
        .min(1, v('required'))
        .max(max, v('maxLength', { max })),
    email: () =>
      z
        .string({ error: v('required') })
        .trim()
        .min(1, v('required'))
        .pipe(z.email(v('email'))),
    digits: () => z.string({ error: v('required') }).regex(/^\d+$/, v('number')),
    integer: () => z.coerce.number({ error: v('integer') }).int(v('integer')),
    minText: (min: number, max = 1024) =>
      z
        .string({ error: v('required') })
        .min(1, v('required'))
        .min(min, v('minLength', { min }))
        .max(max, v('maxLength', { max })),
    format: (pattern: RegExp) => z.string({ error: v('required') }).regex(pattern, v('format')),
  }
}

/**
 * A rule across fields runs beside the other fields' errors (zod runs it only when no field failed,
 * unless told): when none of the fields it reads failed. `.refine(check, { path, when: unless([…]), error })`.
 */
export const unless =
  (fields: string[]) =>
  (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }): boolean =>
    payload.issues.every((issue) => !fields.includes(String(issue.path?.[0])))

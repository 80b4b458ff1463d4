import type { TFunction } from 'i18next'
import type { SayCode } from '#common/coded-schema.ts'

/**
 * Our refusal codes in the user's words, in the browser and on the server alike: a refusal of the
 * API (`refusal.server.ts`) and a shared schema's refusal found in the browser (common/coded-schema.ts)
 * say a code the same way.
 */

/** The namespaces whose `errors` say our codes, in the order they are asked; a screen's own area is asked first. */
const CODE_NAMESPACES = ['domains', 'directory', 'billing', 'pricing', 'ssl', 'blocks', 'dns', 'change-sets', 'brand', 'intelligence', 'watch'] as const
export type RefusalArea = (typeof CODE_NAMESPACES)[number]

/** Codes whose words are general: the API's message, which says what to fix (which part of a schema, which window), follows them. */
const DETAILED = new Set(['template.schema_invalid', 'pricing_rule.overlap'])

/**
 * A coded refusal in the user's language (`<area>:errors.<code>` for the screen's area first, then
 * every area's, then `validation:<code>`), or the fallback. `values` fill the words' blanks (a
 * shortfall, a country).
 */
export function sayCode(t: TFunction, code: string | undefined, fallback: string, values: Record<string, unknown> = {}, area?: RefusalArea): string {
  if (!code) return fallback
  const areas = area ? [area, ...CODE_NAMESPACES.filter((ns) => ns !== area)] : CODE_NAMESPACES
  const words = t([...areas.map((ns) => `${ns}:errors.${code}`), `validation:${code}`], { ...textValues(values), defaultValue: fallback })
  return DETAILED.has(code) && fallback && words !== fallback ? `${words} — ${fallback}` : words
}

/** The plain text values of a problem or a field error, for the blanks of its words. */
const textValues = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string' || typeof v === 'number'))

/**
 * The words of a shared schema's coded refusals (common/coded-schema.ts) in the user's language, as
 * a refusal of the API with the same code would say them beside its field; `english` when no
 * language has words for the code.
 */
export const sayCodes =
  (t: TFunction, area: RefusalArea, english: SayCode): SayCode =>
  (code, values = {}) =>
    sayCode(t, code, english(code, values), values, area)

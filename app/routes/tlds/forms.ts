import type { TFunction } from 'i18next'
import { z } from 'zod'
import { unless } from '#app/lib/form-messages.ts'
import { TLD_KINDS } from '#common/lists/directory.ts'
import { isCurrencyCode, parseMoney } from '#common/money.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { SCRIPT_CODES } from '#common/idna.ts'
import type { Schema } from '#app/lib/platform-api.ts'

export const TLD_GRACE = ['add_grace_days', 'renew_grace_days', 'auto_renew_grace_days', 'transfer_grace_days', 'redemption_days'] as const
export const TLD_FLAGS = ['is_offered', 'dnssec', 'idn', 'registry_lock'] as const
export const TLD_PERIODS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const
/** The largest list price the API takes, in minor units. */
const MAX_PRICE_MINOR = 100_000_000_00

/** A list price typed in `currency`'s format (no decimals in JPY), as minor units the API takes; else null. */
export function priceMinorOf(text: string, currency: string): number | null {
  const parsed = parseMoney(text, currency)
  return parsed.ok && parsed.minor >= 0 && parsed.minor <= MAX_PRICE_MINOR ? parsed.minor : null
}

/** ISO 15924 codes typed in any case, separated by commas or spaces (`latn, Cyrl`), as the API's list. */
export function scriptCodesOf(text: string | undefined): string[] | null {
  const codes = (text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((code) => SCRIPT_CODES.find((known) => known.toLowerCase() === code.toLowerCase()) ?? code)
  return codes.every((code) => SCRIPT_CODES.includes(code)) ? [...new Set(codes)] : null
}

/**
 * A TLD's catalogue entry (staff, on its page): what the API's `updateTld` refuses, refused beside
 * its field in the user's words first — the grace days (0–365), the registration periods (at least
 * one, 1–10 years), an ISO 4217 currency, a list price in that currency's format, and a price for
 * an offered TLD. The API's own refusals (a stale version) come back as the form's alert.
 */
export function tldSchema(t: TFunction) {
  const days = t('directory:tlds.daysInvalid')
  const periods = t('directory:errors.tld.periods_invalid')
  const currency = t('directory:errors.currency.invalid')
  const day = z.number({ error: days }).int(days).min(0, days).max(365, days)
  const flag = z.boolean().optional()
  return z
    .object({
      version: z.number().int(),
      kind: z.enum(TLD_KINDS, { error: t('validation:required') }),
      registry_operator: z
        .string()
        .trim()
        .max(200, t('validation:maxLength', { max: 200 }))
        .optional(),
      add_grace_days: day,
      renew_grace_days: day,
      auto_renew_grace_days: day,
      transfer_grace_days: day,
      redemption_days: day,
      list_price: z.string().trim().optional(),
      currency: z.string({ error: currency }).trim().toUpperCase().refine(isCurrencyCode, currency),
      // The checkboxes' values, checked as one field (a value that is no period is refused beside them, not beside a box).
      periods: z
        .array(z.string(), { error: periods })
        .transform((list) => [...new Set(list.map(Number))].sort((a, b) => a - b))
        .refine((list) => list.length > 0 && list.every((p) => Number.isInteger(p) && p >= 1 && p <= 10), periods),
      required_contacts: z
        .array(z.string())
        .refine((list) => list.every((r) => (CONTACT_ROLES as readonly string[]).includes(r)), t('validation:format'))
        .transform((list) => list as (typeof CONTACT_ROLES)[number][])
        .optional(),
      // The scripts its labels may be in (issue 26): empty is the default.
      idn_scripts: z
        .string()
        .trim()
        .optional()
        .refine((v) => scriptCodesOf(v) !== null, t('directory:tlds.scriptsInvalid', { codes: SCRIPT_CODES.join(', ') })),
      is_offered: flag,
      dnssec: flag,
      idn: flag,
      registry_lock: flag,
    })
    .refine((v) => !v.list_price || priceMinorOf(v.list_price, v.currency) !== null, {
      path: ['list_price'],
      when: unless(['list_price', 'currency']),
      error: t('common:money.invalid'),
    })
    .refine((v) => !v.is_offered || Boolean(v.list_price), { path: ['list_price'], when: unless(['list_price', 'is_offered']), error: t('directory:errors.tld.price_required') })
}
export type TldForm = z.output<ReturnType<typeof tldSchema>>
/** The fields of the form an API refusal can be beside (`list_price_minor` is the price's). */
export const TLD_FIELDS = ['kind', 'registry_operator', 'periods', 'required_contacts', 'idn_scripts', 'currency', 'list_price', ...TLD_GRACE, ...TLD_FLAGS] as const
export const TLD_ALIAS = { list_price_minor: 'list_price' }

/** The form's values as the API's catalogue patch: every field, an empty price as none. */
export function tldBody(v: TldForm): Schema<'PatchTld'> {
  const { list_price, registry_operator, required_contacts, idn_scripts, is_offered, dnssec, idn, registry_lock, ...rest } = v
  const scripts = scriptCodesOf(idn_scripts) ?? []
  return {
    ...rest,
    // scriptCodesOf answers only codes of the script list the API takes.
    idn_scripts: scripts.length ? (scripts as NonNullable<Schema<'PatchTld'>['idn_scripts']>) : null,
    registry_operator: registry_operator ?? '',
    required_contacts: required_contacts ?? [],
    is_offered: Boolean(is_offered),
    dnssec: Boolean(dnssec),
    idn: Boolean(idn),
    registry_lock: Boolean(registry_lock),
    list_price_minor: list_price ? priceMinorOf(list_price, v.currency) : null,
  }
}

/**
 * Phone numbers in E.164 (ITU-T E.164: "+", a country calling code, the national number; at most
 * 15 digits). Shared by the portal forms and the Platform API so both accept the same input.
 *
 * We check the shape and that the country calling code is assigned; we do not check national
 * numbering plans (that needs libphonenumber's metadata, which is not among our dependencies).
 */

// Assigned country calling codes (ITU-T E.164 list, including shared/global services codes).
const CALLING_CODES = new Set<string>([
  '1',
  '7',
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
  '211',
  '212',
  '213',
  '216',
  '218',
  ...range(220, 258),
  ...range(260, 269),
  '290',
  '291',
  '297',
  '298',
  '299',
  ...range(350, 359),
  ...range(370, 378),
  '380',
  '381',
  '382',
  '383',
  '385',
  '386',
  '387',
  '389',
  '420',
  '421',
  '423',
  ...range(500, 509),
  ...range(590, 599),
  '670',
  ...range(672, 683),
  ...range(685, 692),
  '800',
  '808',
  '850',
  '852',
  '853',
  '855',
  '856',
  '870',
  '878',
  '880',
  '881',
  '882',
  '883',
  '886',
  '888',
  ...range(960, 968),
  ...range(970, 977),
  '979',
  '992',
  '993',
  '994',
  '995',
  '996',
  '998',
])

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i))
}

export type PhoneError = 'phone.invalid' | 'phone.missing_plus' | 'phone.too_short' | 'phone.too_long' | 'phone.unknown_country_code'

export type PhoneResult = { ok: true; e164: string; countryCallingCode: string } | { ok: false; error: PhoneError }

// Separators people type between groups of digits; anything else is refused, not silently dropped.
const SEPARATORS = /[\s\-.()/\u00a0]/g

/**
 * Reads a phone number typed as "+34 600 12 34 56", "+1 (555) 010-0199" or "0049 30 1234567" and
 * returns its E.164 form ("+34600123456"), or the reason it is not one.
 */
export function parsePhone(input: string): PhoneResult {
  let text = input.trim().replace(SEPARATORS, '')
  if (text.startsWith('00')) text = `+${text.slice(2)}`
  if (!text.startsWith('+')) return { ok: false, error: /^\d+$/.test(text) ? 'phone.missing_plus' : 'phone.invalid' }
  const digits = text.slice(1)
  if (!/^\d+$/.test(digits) || digits.startsWith('0')) return { ok: false, error: 'phone.invalid' }
  if (digits.length > 15) return { ok: false, error: 'phone.too_long' }
  const code = [1, 2, 3].map((n) => digits.slice(0, n)).find((prefix) => CALLING_CODES.has(prefix))
  if (!code) return { ok: false, error: 'phone.unknown_country_code' }
  // The shortest numbers in use (e.g. Niue, Tokelau) have 4 national digits.
  if (digits.length - code.length < 4) return { ok: false, error: 'phone.too_short' }
  return { ok: true, e164: `+${digits}`, countryCallingCode: code }
}

/** True when the text is already in canonical E.164 form. */
export const isE164 = (text: string) => {
  const parsed = parsePhone(text)
  return parsed.ok && parsed.e164 === text
}

const MESSAGES: Record<PhoneError, string> = {
  'phone.invalid': 'Enter the number in international format, like +34 600 123 456',
  'phone.missing_plus': 'Start the number with + and the country calling code',
  'phone.too_short': 'The number is too short',
  'phone.too_long': 'An international number has at most 15 digits',
  'phone.unknown_country_code': 'The country calling code does not exist',
}

/** English text for a phone error code; the portal translates by code. */
export const phoneErrorMessage = (error: PhoneError) => MESSAGES[error]

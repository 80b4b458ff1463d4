/** Billing (issue 18): the vocabularies both sides show, and the shape of a VAT id per country. */

export const TRANSACTION_STATES = ['reserved', 'settled', 'released', 'refunded'] as const
export type TransactionState = (typeof TRANSACTION_STATES)[number]

export const INVOICE_LANGUAGES = ['en', 'es', 'ja'] as const
export type InvoiceLanguage = (typeof INVOICE_LANGUAGES)[number]

export const PAYMENT_KINDS = ['payment', 'adjustment'] as const
export type PaymentKind = (typeof PAYMENT_KINDS)[number]

/**
 * The shape of a VAT (tax) id per country, with its country prefix where the EU uses one
 * (VIES formats; GB, CH, NO and JP as their tax offices write them). A country not listed takes
 * any 2–20 letters and digits. Spaces, dots and hyphens are ignored.
 */
const VAT_SHAPES: Record<string, RegExp> = {
  AT: /^ATU\d{8}$/,
  BE: /^BE[01]\d{9}$/,
  BG: /^BG\d{9,10}$/,
  CY: /^CY\d{8}[A-Z]$/,
  CZ: /^CZ\d{8,10}$/,
  DE: /^DE\d{9}$/,
  DK: /^DK\d{8}$/,
  EE: /^EE\d{9}$/,
  GR: /^EL\d{9}$/,
  ES: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^FI\d{8}$/,
  FR: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^HR\d{11}$/,
  HU: /^HU\d{8}$/,
  IE: /^IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^IT\d{11}$/,
  LT: /^LT(\d{9}|\d{12})$/,
  LU: /^LU\d{8}$/,
  LV: /^LV\d{11}$/,
  MT: /^MT\d{8}$/,
  NL: /^NL\d{9}B\d{2}$/,
  PL: /^PL\d{10}$/,
  PT: /^PT\d{9}$/,
  RO: /^RO\d{2,10}$/,
  SE: /^SE\d{12}$/,
  SI: /^SI\d{8}$/,
  SK: /^SK\d{10}$/,
  GB: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  CH: /^CHE\d{9}(MWST|TVA|IVA)?$/,
  NO: /^NO\d{9}(MVA)?$/,
  JP: /^T?\d{13}$/,
}

/** EU member states: B2B with a valid VAT id across their borders is reverse-charged. */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'GR',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
])

/** A VAT id as stored: upper case, without spaces, dots or hyphens. */
export const normaliseVatId = (text: string) => text.toUpperCase().replace(/[\s.-]/g, '')

/** Whether a (normalised) VAT id has the shape of its country's. */
export function vatIdFits(country: string, vatId: string): boolean {
  const shape = VAT_SHAPES[country.toUpperCase()]
  const id = normaliseVatId(vatId)
  return shape ? shape.test(id) : /^[A-Z0-9]{2,20}$/.test(id)
}

/** An example of the shape, for the message beside the field ("DE123456789"). */
export const VAT_EXAMPLES: Record<string, string> = {
  DE: 'DE123456789',
  ES: 'ESB12345678',
  FR: 'FR12345678901',
  NL: 'NL123456789B01',
  GB: 'GB123456789',
  JP: 'T1234567890123',
  IT: 'IT12345678901',
  AT: 'ATU12345678',
}

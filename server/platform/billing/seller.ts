import { normaliseVatId, vatIdFits } from '#common/billing.ts'
import type { InvoiceSeller } from '#server/db/schema-billing.ts'

/**
 * Who invoices (issue 18): the registrar's legal identity, printed on every PDF and named as the
 * supplier of every EN 16931 e-invoice. Configuration (SELLER_* in server/config.ts), with the
 * demo's registrar as the default; each document keeps the seller it was issued by
 * (`invoices.seller`), so a later change of configuration does not rewrite what was issued.
 */
export const DEMO_SELLER: InvoiceSeller = {
  name: 'Registrar Operations B.V.',
  street: 'Herengracht 100',
  city: 'Amsterdam',
  postcode: '1015 BS',
  country: 'NL',
  vat_id: 'NL123456789B01',
  registration: '12345678',
  email: 'billing@registrar.example',
  // How to pay (issue 28): a demo account of the right shape (ISO 13616 check digits), no real one.
  iban: 'NL91ABNA0417164300',
  bic: 'ABNANL2A',
  bank_name: 'ABN AMRO Bank N.V.',
}

/** The configuration's names of the seller's parts. */
export const SELLER_ENV = {
  name: 'SELLER_NAME',
  street: 'SELLER_STREET',
  city: 'SELLER_CITY',
  postcode: 'SELLER_POSTCODE',
  country: 'SELLER_COUNTRY',
  vat_id: 'SELLER_VAT_ID',
  registration: 'SELLER_REGISTRATION',
  email: 'SELLER_EMAIL',
  iban: 'SELLER_IBAN',
  bic: 'SELLER_BIC',
  bank_name: 'SELLER_BANK_NAME',
} as const satisfies Record<keyof InvoiceSeller, string>

export type SellerConfig = Partial<Record<(typeof SELLER_ENV)[keyof typeof SELLER_ENV], string>>

/**
 * The seller the configuration names, each part not set being the demo's. Any configuration
 * object: the server's carries SELLER_* (server/config.ts), a test's may carry none.
 */
export function sellerOf(config: object): InvoiceSeller {
  const env: SellerConfig = config
  const part = (key: keyof InvoiceSeller) => env[SELLER_ENV[key]]?.trim() || DEMO_SELLER[key] || ''
  return {
    name: part('name'),
    street: part('street'),
    city: part('city'),
    postcode: part('postcode'),
    country: part('country').toUpperCase(),
    vat_id: normaliseVatId(part('vat_id')),
    registration: part('registration'),
    email: part('email'),
    iban: compactIban(part('iban')),
    bic: part('bic').replace(/\s+/g, '').toUpperCase(),
    bank_name: part('bank_name'),
  }
}

/** An IBAN without its spaces, in capitals (the form the e-invoice carries). */
export const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase()
/** An IBAN as it is printed for people: groups of four (ISO 13616's paper form). */
export const printedIban = (iban: string) => compactIban(iban).replace(/(.{4})(?=.)/g, '$1 ')

/** Whether an IBAN has its shape and its ISO 13616 check digits (mod 97 = 1). */
export function ibanValid(value: string): boolean {
  const iban = compactIban(value)
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55))
  let rest = 0
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97
  return rest === 1
}

/** A BIC (ISO 9362): bank, country, location and an optional branch. */
export const bicValid = (value: string) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value)

/** Why the configured seller cannot be invoiced as (a VAT id of another shape than its country's, an IBAN whose check digits fail, a BIC not of its shape), or null. */
export function sellerProblem(config: object): string | null {
  const seller = sellerOf(config)
  if (!/^[A-Z]{2}$/.test(seller.country)) return `${SELLER_ENV.country}: must be a two-letter country code`
  if (!vatIdFits(seller.country, seller.vat_id)) return `${SELLER_ENV.vat_id}: ${seller.vat_id} is not a VAT id of ${seller.country}`
  if (!ibanValid(seller.iban ?? '')) return `${SELLER_ENV.iban}: ${seller.iban} is not an IBAN (its shape or check digits)`
  if (!bicValid(seller.bic ?? '')) return `${SELLER_ENV.bic}: ${seller.bic} is not a BIC (8 or 11 letters and digits)`
  return null
}

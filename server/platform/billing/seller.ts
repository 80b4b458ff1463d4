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
} as const satisfies Record<keyof InvoiceSeller, string>

export type SellerConfig = Partial<Record<(typeof SELLER_ENV)[keyof typeof SELLER_ENV], string>>

/**
 * The seller the configuration names, each part not set being the demo's. Any configuration
 * object: the server's carries SELLER_* (server/config.ts), a test's may carry none.
 */
export function sellerOf(config: object): InvoiceSeller {
  const env: SellerConfig = config
  const part = (key: keyof InvoiceSeller) => env[SELLER_ENV[key]]?.trim() || DEMO_SELLER[key]
  return {
    name: part('name'),
    street: part('street'),
    city: part('city'),
    postcode: part('postcode'),
    country: part('country').toUpperCase(),
    vat_id: normaliseVatId(part('vat_id')),
    registration: part('registration'),
    email: part('email'),
  }
}

/** Why the configured seller cannot be invoiced as (a VAT id of another shape than its country's), or null. */
export function sellerProblem(config: object): string | null {
  const seller = sellerOf(config)
  if (!/^[A-Z]{2}$/.test(seller.country)) return `${SELLER_ENV.country}: must be a two-letter country code`
  if (!vatIdFits(seller.country, seller.vat_id)) return `${SELLER_ENV.vat_id}: ${seller.vat_id} is not a VAT id of ${seller.country}`
  return null
}

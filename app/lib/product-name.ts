import type { TFunction } from 'i18next'

// The name migration 0700's trigger gives a TLD's domain products: ".<unicode TLD> <action>".
const GENERATED = /^(\.\S+) ([a-z-]+)$/

/**
 * A product's name in the user's language. The TLD catalogue makes each offered TLD's six domain
 * products itself (code `domain:<tld>:<action>`, named ".com register"): those names are the
 * portal's words, not the registrar's, and read in the user's language (".com renovación",
 * ".com 更新"). A product staff named — a certificate, a service, a block, or a domain product
 * they renamed — is shown as named: the catalogue's name is the registrar's own word, the one its
 * price list and invoices print. A product no longer in the catalogue has no name: its code
 * stands in.
 */
export function productName(t: TFunction, product: { name?: string | null; code?: string | null }): string {
  const name = product.name ?? ''
  const generated = GENERATED.exec(name)
  const action = generated?.[2]
  if (generated && product.code?.startsWith('domain:') && product.code.endsWith(`:${action}`)) {
    return t(`common:domainProduct.${action}`, { tld: generated[1], defaultValue: name })
  }
  return name || product.code || ''
}

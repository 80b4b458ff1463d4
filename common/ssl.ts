/**
 * SSL certificates (issue 19): the words both sides use — states, products, key types, the RFC 5280
 * revocation reasons — and the name rules of an order. Browser-safe, no I/O.
 */

/** A certificate's life: ordered (draft) → validation → issuing → issued, then expiring/expired, or revoked, failed, cancelled. */
export const SSL_STATES = ['draft', 'pending_validation', 'issuing', 'issued', 'expiring', 'expired', 'revoked', 'failed', 'cancelled'] as const
export type SslState = (typeof SSL_STATES)[number]

/** States in which the CA is still working on the certificate (the issuance job runs). */
export const SSL_IN_FLIGHT: readonly SslState[] = ['pending_validation', 'issuing']

export const SSL_VALIDATION_LEVELS = ['dv', 'ov', 'ev'] as const
export type SslValidationLevel = (typeof SSL_VALIDATION_LEVELS)[number]

/**
 * The SSL products offered. Prices are not here: a product's price comes from the pricing engine
 * (product kind 'ssl', issue 17); until it answers, the portal shows no price rather than one of its own.
 */
export const SSL_PRODUCTS = {
  'dv-single': { level: 'dv', maxNames: 1, wildcard: false },
  'dv-multi': { level: 'dv', maxNames: 100, wildcard: false },
  'dv-wildcard': { level: 'dv', maxNames: 2, wildcard: true },
  'ov-single': { level: 'ov', maxNames: 1, wildcard: false },
  'ov-multi': { level: 'ov', maxNames: 100, wildcard: false },
  'ev-single': { level: 'ev', maxNames: 1, wildcard: false },
} as const satisfies Record<string, { level: SslValidationLevel; maxNames: number; wildcard: boolean }>
export type SslProduct = keyof typeof SSL_PRODUCTS
export const SSL_PRODUCT_IDS = Object.keys(SSL_PRODUCTS) as SslProduct[]

/** Periods offered, in months (the coverage term; certificates inside it are short-lived and renewed). */
export const SSL_PERIODS = [12, 24] as const

/** Keys the server generates; ECDSA P-256 by default. */
export const SSL_KEY_TYPES = ['ecdsa-p256', 'ecdsa-p384', 'rsa-2048', 'rsa-3072', 'rsa-4096'] as const
export type SslKeyType = (typeof SSL_KEY_TYPES)[number]
export const DEFAULT_SSL_KEY_TYPE: SslKeyType = 'ecdsa-p256'

/** How a name is proven (RFC 8555 §8): DNS-01 where we host the zone, else the record or file to create. */
export const SSL_VALIDATION_METHODS = ['dns-01', 'http-01'] as const
export const SSL_VALIDATION_STATES = ['pending', 'valid', 'invalid'] as const
export type SslValidationState = (typeof SSL_VALIDATION_STATES)[number]

/** RFC 5280 §5.3.1 reason codes an ACME revocation may carry (RFC 8555 §7.6). */
export const REVOCATION_REASONS = { unspecified: 0, keyCompromise: 1, affiliationChanged: 3, superseded: 4, cessationOfOperation: 5 } as const
export type RevocationReason = keyof typeof REVOCATION_REASONS

/** The files of an issued certificate (/ssls/{id}/files). */
export const SSL_FILES = ['certificate', 'chain', 'fullchain', 'private-key'] as const
export type SslFile = (typeof SSL_FILES)[number]
export const SSL_FILE_FORMATS = ['pem', 'der'] as const

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** A certificate name as ordered: lower-case ASCII, optionally one leading `*.` label; null when not a host name. */
export function normaliseCertificateName(input: string): string | null {
  const name = input.trim().toLowerCase().replace(/\.$/, '')
  const bare = name.startsWith('*.') ? name.slice(2) : name
  const labels = bare.split('.')
  if (labels.length < 2 || name.length > 253 || !labels.every((l) => LABEL.test(l))) return null
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null
  return name
}

/** Days before expiry at which a coverage term's notice goes out. */
export const SSL_EXPIRY_NOTICE_DAYS = [30, 14, 7, 1] as const
/** A certificate is "expiring" from this many days before its end. */
export const SSL_EXPIRING_DAYS = 30

/**
 * OV/EV organisations: the checks staff make before a CA may name the organisation (the CA/B
 * Forum's Baseline and EV Guidelines: the entity exists, the subscriber agreement is signed, its
 * documents, a callback on a verified number, the approver's authority), each waiting, needing the
 * customer's attention, or validated. The organisation is validated when every check is.
 */
export const SSL_ORGANISATION_CHECKS = ['organisation', 'agreement', 'documents', 'callback', 'approver'] as const
export type SslOrganisationCheck = (typeof SSL_ORGANISATION_CHECKS)[number]
export const SSL_CHECK_STATES = ['waiting', 'attention', 'validated'] as const
export type SslCheckState = (typeof SSL_CHECK_STATES)[number]
export const SSL_ORGANISATION_STATES = SSL_CHECK_STATES
export type SslOrganisationStatus = SslCheckState

/** The organisation's state from its checks: validated when all are, attention when one needs the customer, else waiting. */
export function organisationStatus(checks: Partial<Record<SslOrganisationCheck, { state: SslCheckState }>>): SslOrganisationStatus {
  const states = SSL_ORGANISATION_CHECKS.map((c) => checks[c]?.state ?? 'waiting')
  if (states.every((s) => s === 'validated')) return 'validated'
  return states.includes('attention') ? 'attention' : 'waiting'
}

/**
 * EV organisations' business category (CA/B Forum EV Guidelines §7.1.4.2.3), as the certificate's
 * businessCategory (2.5.4.15) says it: the keys here, the words in EV_BUSINESS_CATEGORY_TEXT.
 */
export const SSL_BUSINESS_CATEGORIES = ['private_organization', 'government_entity', 'business_entity', 'non_commercial_entity'] as const
export type SslBusinessCategory = (typeof SSL_BUSINESS_CATEGORIES)[number]
export const EV_BUSINESS_CATEGORY_TEXT: Record<SslBusinessCategory, string> = {
  private_organization: 'Private Organization',
  government_entity: 'Government Entity',
  business_entity: 'Business Entity',
  non_commercial_entity: 'Non-Commercial Entity',
}

/** Documents uploaded for an organisation's validation: PDF or images, up to 5 MB each. */
export const SSL_DOCUMENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const
export const SSL_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024

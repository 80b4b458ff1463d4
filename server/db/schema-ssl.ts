import type { ColumnType, Generated, Selectable } from 'kysely'
import type { SslBusinessCategory, SslCheckState, SslOrganisationCheck, SslOrganisationStatus, SslState, SslValidationLevel, SslValidationState } from '#common/ssl.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface SslAcmeAccountsTable {
  directory_url: string
  account_key_enc: string
  account_url: string | null
  created_at: Timestamp
}

export interface SslTermsTable {
  id: Generated<string>
  account_id: string
  product: string
  period_months: number
  starts_at: Timestamp
  ends_at: Timestamp
  notices_sent: Defaulted<number[]>
  created_at: Timestamp
}

export interface SslCertificatesTable {
  id: Generated<string>
  account_id: string
  term_id: string
  status: Defaulted<SslState>
  product: string
  validation_level: Defaulted<SslValidationLevel>
  common_name: string
  names: string[]
  key_type: string
  key_source: 'generated' | 'csr' | 'imported'
  csr_pem: string
  private_key_enc: string | null
  ca: string
  directory_url: string
  acme_order_url: string | null
  certificate_pem: string | null
  chain_pem: string | null
  serial: string | null
  not_before: Date | null
  not_after: Date | null
  issued_at: Date | null
  renew_after: Date | null
  renewal_of: string | null
  /** Where it came from: the first order of its term, a renewal, a reissue, or an import (bought elsewhere). */
  origin: Defaulted<'order' | 'renewal' | 'reissue' | 'import'>
  revoked_at: Date | null
  revocation_reason: string | null
  failure_reason: string | null
  /** The billing transaction it is charged under (its idempotency key); null when free (a reissue, a renewal inside the term). */
  charge_key: string | null
  /** The organisation an OV/EV certificate names (its order waits in draft until it is validated). */
  organisation_id: ColumnType<string | null, string | null | undefined, string | null>
  /** A renewal of the coverage term: the months it adds to the term once issued. */
  term_months_added: Defaulted<number>
  created_by: Defaulted<string>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SslValidationsTable {
  id: Generated<string>
  certificate_id: string
  account_id: string
  name: string
  method: Defaulted<'dns-01' | 'http-01'>
  state: Defaulted<SslValidationState>
  record_name: string | null
  record_value: string | null
  /** HTTP-01: the token (the file's name under /.well-known/acme-challenge/) and the file's content (the key authorisation). */
  http_token: ColumnType<string | null, string | null | undefined, string | null>
  http_content: ColumnType<string | null, string | null | undefined, string | null>
  zone_id: string | null
  dns_record_id: string | null
  authorization_url: string | null
  challenge_url: string | null
  problem: ColumnType<Record<string, unknown> | null, string | null, string | null>
  checked_at: Date | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type SslCheck = { state: SslCheckState; note: string; by: string; at: string | null }

export interface SslOrganisationsTable {
  id: Generated<string>
  account_id: string
  legal_name: string
  registration_number: Defaulted<string>
  street1: string
  street2: Defaulted<string>
  city: string
  region: Defaulted<string>
  postcode: Defaulted<string>
  country: string
  phone: string
  approver_name: string
  approver_email: string
  approver_phone: Defaulted<string>
  jurisdiction_country: Defaulted<string>
  jurisdiction_state: Defaulted<string>
  jurisdiction_locality: Defaulted<string>
  business_category: Defaulted<SslBusinessCategory | ''>
  /** A date (YYYY-MM-DD), read as text so no time zone moves it. */
  incorporation_date: ColumnType<string | null, string | null | undefined, string | null>
  status: Defaulted<SslOrganisationStatus>
  checks: ColumnType<Partial<Record<SslOrganisationCheck, SslCheck>>, string | undefined, string>
  validated_at: Date | null
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface SslOrganisationDocumentsTable {
  id: Generated<string>
  organisation_id: string
  account_id: string
  filename: string
  content_type: string
  size_bytes: number
  content: Buffer
  uploaded_by: string
  created_at: Timestamp
}

/** A CA's pacing lock (decision 401): one row per directory URL, locked while a slot is taken. */
export interface SslCaPacingTable {
  directory_url: string
}

/** A new order sent to a CA: the slots of its interval (decision 401). */
export interface SslCaOrdersTable {
  id: Generated<string>
  directory_url: string
  certificate_id: string
  ordered_at: Timestamp
}

export type SslOrganisation = Selectable<SslOrganisationsTable>
export type SslCertificate = Selectable<SslCertificatesTable>
export type SslValidation = Selectable<SslValidationsTable>

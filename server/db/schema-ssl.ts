import type { ColumnType, Generated, Selectable } from 'kysely'
import type { SslState, SslValidationLevel, SslValidationState } from '#common/ssl.ts'

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
  zone_id: string | null
  dns_record_id: string | null
  authorization_url: string | null
  challenge_url: string | null
  problem: ColumnType<Record<string, unknown> | null, string | null, string | null>
  checked_at: Date | null
  created_at: Timestamp
  updated_at: Timestamp
}

export type SslCertificate = Selectable<SslCertificatesTable>
export type SslValidation = Selectable<SslValidationsTable>

import type { ColumnType, Generated, Selectable } from 'kysely'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export type PublishState = 'pending' | 'published' | 'failed'
export type DnssecState = 'unsigned' | 'signing' | 'signed' | 'unsigning'

export interface DnsZonesTable {
  id: Generated<string>
  account_id: string
  domain_id: string | null
  name: string
  kind: Defaulted<'native'>
  serial: number
  publish_state: Defaulted<PublishState>
  published_serial: number | null
  published_at: Date | null
  last_error: string | null
  dnssec_state: Defaulted<DnssecState>
  ds_records: Defaulted<string[]>
  pending_deletes: Defaulted<string[]>
  drift: ColumnType<DriftReport | null, string | null, string | null>
  drift_checked_at: Date | null
  /** How the account's control of the name was established (issue 26): its portfolio, or a proof. */
  control: Defaulted<ZoneControl>
  /** The token of the proof's TXT record (control 'proof'). */
  proof_token: ColumnType<string | null, string | null | undefined, string | null>
  /** When control was established; null: waiting for the proof (kept, never published). */
  verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type ZoneControl = 'portfolio' | 'proof'

export interface DnsRecordsTable {
  id: Generated<string>
  zone_id: string
  account_id: string
  name: string
  type: string
  ttl: number
  content: string
  priority: number | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** Differences between PowerDNS and our records, per RRset. */
export type DriftReport = {
  missing: { name: string; type: string; ttl: number; contents: string[] }[]
  unexpected: { name: string; type: string; ttl: number; contents: string[] }[]
  different: { name: string; type: string; ours: { ttl: number; contents: string[] }; powerdns: { ttl: number; contents: string[] } }[]
}

export interface DnsDB {
  dns_zones: DnsZonesTable
  dns_records: DnsRecordsTable
}

export type DnsZone = Selectable<DnsZonesTable>
export type DnsRecord = Selectable<DnsRecordsTable>

export interface DnsZoneStatisticsTable {
  zone_id: string
  bucket_start: Timestamp
  queries: Defaulted<number>
}

/** A zone's posture as the DNS report counts it (migration 1550), current while `zone_version` is the zone's version. */
export interface DnsZonePosturesTable {
  zone_id: string
  zone_version: number
  spf: string
  dmarc: string
  caa: boolean
  caa_issuers: string
  mx: boolean
  records: number
  /** The zone's records by type (position i: DNS_RECORD_TYPES[i]) and by TTL bucket (TTL_BUCKETS[i]), migration 1560. */
  record_types: ColumnType<number[], number[] | undefined, number[]>
  record_ttls: ColumnType<number[], number[] | undefined, number[]>
  computed_at: Timestamp
}

export interface DnsStatisticsCursorTable {
  server: string
  total_queries: number
  uptime: number
  ring_wrapped: boolean
  ring_counts: ColumnType<Record<string, number>, string, string>
  collected_at: Timestamp
}

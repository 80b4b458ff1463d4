import type { ZoneImportResult } from '#common/dns.ts'
import { EDITABLE_RECORD_TYPES } from '#common/lists/dns.ts'
/** Shapes of the DNS Platform API answers the screens read (server/platform/dns/http.ts). */
export type DriftReport = {
  missing: { name: string; type: string; ttl: number; contents: string[] }[]
  unexpected: { name: string; type: string; ttl: number; contents: string[] }[]
  different: { name: string; type: string; ours: { ttl: number; contents: string[] }; powerdns: { ttl: number; contents: string[] } }[]
}

export type Zone = {
  id: string
  name: string
  domain_id: string | null
  serial: number
  publish_state: 'pending' | 'published' | 'failed'
  published: boolean
  published_serial: number | null
  published_at: string | null
  last_error: string | null
  powerdns_configured: boolean
  dnssec_state: 'unsigned' | 'signing' | 'signed' | 'unsigning'
  ds_records: string[]
  drift: DriftReport | null
  drift_checked_at: string | null
  /** Issue 26: a name of the portfolio, or one hosted elsewhere proven by a TXT record (`proof` while awaited; not published until then). */
  control: 'portfolio' | 'proof'
  verified: boolean
  proof: { name: string; type: 'TXT'; value: string } | null
  version: number
}

export type { ChangeDiff, RecordValue, ZoneIssue } from '#common/dns.ts'
export type ImportResult = ZoneImportResult

export const RECORD_TYPES = EDITABLE_RECORD_TYPES

/** An owner name as typed in the zone: '@' for the apex, relative inside the zone. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@'
  if (name.endsWith(`.${zone}`)) return name.slice(0, -zone.length - 1)
  return `${name}.`
}

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
  version: number
}

export type RecordValue = { name: string; type: string; ttl: number; content: string; priority: number | null }
export type ChangeDiff = { added: RecordValue[]; updated: { id: string; before: RecordValue; after: RecordValue }[]; removed: (RecordValue & { id: string })[] }
export type ImportResult = {
  applied: boolean
  counts: { added: number; changed: number; removed: number; unchanged: number }
  added: RecordValue[]
  changed: { before: RecordValue; after: RecordValue }[]
  removed: RecordValue[]
  errors: ZoneIssue[]
  warnings: ZoneIssue[]
  notes: string[]
}

/** A line of a zone file with an error or warning; `code` and `params` say it in the user's language (dns `import.issues`). */
export type ZoneIssue = { line: number; column: number; message: string; code?: string; params?: Record<string, string | number> }

export const RECORD_TYPES = EDITABLE_RECORD_TYPES

/** An owner name as typed in the zone: '@' for the apex, relative inside the zone. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@'
  if (name.endsWith(`.${zone}`)) return name.slice(0, -zone.length - 1)
  return `${name}.`
}

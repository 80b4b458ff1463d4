import type { ZoneImportResult } from '#common/dns.ts'
import { EDITABLE_RECORD_TYPES } from '#common/lists/dns.ts'
import type { Schema } from '#app/lib/platform-api.ts'

/** Shapes of the DNS Platform API answers the screens read: the OpenAPI document's (decision 023). */
export type DriftReport = Schema<'DnsDriftReport'>

export type Zone = Schema<'DnsZone'>

export type { ChangeDiff, RecordValue, ZoneIssue } from '#common/dns.ts'
export type ImportResult = ZoneImportResult

export const RECORD_TYPES = EDITABLE_RECORD_TYPES

/** An owner name as typed in the zone: '@' for the apex, relative inside the zone. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@'
  if (name.endsWith(`.${zone}`)) return name.slice(0, -zone.length - 1)
  return `${name}.`
}

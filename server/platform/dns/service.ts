/**
 * The DNS area's operations, one concern per file: zones (`zones.ts`), change sets
 * (`changes.ts`), BIND import (`import.ts`) and export (`export.ts`), DNSSEC (`dnssec.ts`).
 * Callers outside the area import them from here.
 */
export {
  DEFAULT_NAMESERVERS,
  DEFAULT_TTL,
  DNS_JOBS,
  createZone,
  deleteZone,
  ensureZoneForDomain,
  getZone,
  nextSerial,
  powerDnsSettings,
  soaContent,
  verifyZone,
  zoneView,
  type ZoneView,
} from './zones.ts'
export { findZoneOverlaps, foreignHolders, reportZoneOverlaps, type ZoneOverlap } from './control.ts'
export { applyChangeSet, validateRecord, type Change, type RecordDiff, type RecordInput, type RecordValue } from './changes.ts'
export { importZone, type ImportSummary } from './import.ts'
export { exportZone } from './export.ts'
export { requestSigning, requestUnsigning } from './dnssec.ts'

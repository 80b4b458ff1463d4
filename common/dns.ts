/**
 * The shapes of the DNS answers both sides read: the API builds them (server/platform/dns), the
 * portal's zone and import screens show them (app/routes/domains/dns). `Type` narrows a record's
 * type where the API knows it is one of ours.
 */

/** A line of a zone file with an error or warning; `code` and `params` say it in the user's language (dns `import.issues`). */
export type ZoneIssue = { line: number; column: number; message: string; code?: string; params?: Record<string, string | number> }

/** A record's value: owner name, type, TTL, content (presentation form) and priority. */
export type RecordValue<Type extends string = string> = { name: string; type: Type; ttl: number; content: string; priority: number | null }

/** What a change set adds, changes and removes (the preview before it is applied). */
export type ChangeDiff<Type extends string = string> = {
  added: RecordValue<Type>[]
  updated: { id: string; before: RecordValue<Type>; after: RecordValue<Type> }[]
  removed: (RecordValue<Type> & { id: string })[]
}

/** A zone file import's outcome, previewed or applied. */
export type ZoneImportResult<Type extends string = string> = {
  applied: boolean
  counts: { added: number; changed: number; removed: number; unchanged: number }
  added: RecordValue<Type>[]
  changed: { before: RecordValue<Type>; after: RecordValue<Type> }[]
  removed: RecordValue<Type>[]
  errors: ZoneIssue[]
  /** Lines the import adjusted (an RRset's TTL, RFC 2181 §5.2). */
  warnings: ZoneIssue[]
  notes: string[]
}

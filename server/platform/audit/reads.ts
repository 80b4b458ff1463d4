/**
 * What other areas may read of the audit trail (decision 024). The trail is written by
 * `core/change.ts`'s audit writer only; an area's own log (the DNS log of a zone) is a list over
 * the entries of its area, whose resource names them through this one fragment.
 */

/** The SQL naming the audit entries as `<alias>` (in a list resource's `from` or a subquery); the alias is trusted, never input. */
export const auditEntries = (alias: string) => `audit_entries ${alias}`

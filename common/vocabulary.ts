/**
 * Words both sides use with one meaning: the portal's screens and the Platform API's schemas take
 * them from here, so a role or an area is named once.
 */

/** The four contact roles of a domain (RFC 5731: the registrant and the admin, tech and billing contacts). */
export const CONTACT_ROLES = ['registrant', 'admin', 'tech', 'billing'] as const
export type ContactRole = (typeof CONTACT_ROLES)[number]

/** The EPP status that is the registrar's transfer lock (RFC 5731), as the registry last reported it. */
export const REGISTRAR_LOCK_STATUS = 'clientTransferProhibited'

/** The areas of the audit trail (spec §3); each /log screen reads one or more of them. */
export const AUDIT_AREAS = ['accounts', 'users', 'contacts', 'tlds', 'domains', 'dns', 'ssl', 'invoicing', 'watch', 'intelligence', 'products', 'blocks', 'jobs'] as const
export type AuditArea = (typeof AUDIT_AREAS)[number]

/** The languages an account or a user works in (spec §9: the portal's complete translations). */
export const UI_LANGUAGES = ['en', 'es', 'ja'] as const
export type UiLanguage = (typeof UI_LANGUAGES)[number]

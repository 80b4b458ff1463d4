import type { Tx } from '#server/platform/core/change.ts'
import type { ContactRole } from '#server/db/schema-directory.ts'

/**
 * The changes other areas make to the contacts area's tables (decision 024), inside the caller's
 * transaction (it audits them as its own change).
 */

/** Sets a domain's contact in each given role (the one a role had is replaced). */
export async function setDomainContacts(tx: Tx, domainId: string, roles: { role: ContactRole; contactId: string }[]): Promise<void> {
  if (roles.length === 0) return
  await tx
    .insertInto('domain_contacts')
    .values(roles.map((r) => ({ domain_id: domainId, role: r.role, contact_id: r.contactId })))
    .onConflict((oc) => oc.columns(['domain_id', 'role']).doUpdateSet((eb) => ({ contact_id: eb.ref('excluded.contact_id') })))
    .execute()
}

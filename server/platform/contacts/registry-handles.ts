import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import { newAuthCode, RegistryError, type RegistryConnection } from '#server/integrations/registry/index.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { eppContactFields } from './registry-sync.ts'

// Handles we give contacts at registries: "RP" and ten characters of Crockford's base32 (EPP's
// clIDType allows 3 to 16 characters); 50 random bits, so a clash is rare and simply redrawn.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const newContactHandle = () => `RP${[...randomBytes(10)].map((b) => ALPHABET[b & 31]).join('')}`

/**
 * The contact's handle at the registry of `connection`, created there first when it has none
 * (EPP contact:create with the postal info, e-mail and phones the contact sync sends later on):
 * a contact chosen for a registration or a contact change needs no step of its own. The new
 * handle is recorded as synced and audited on the contact, in the same transaction as a lock on
 * (contact, registry), so that two items registering with one new contact create it once.
 * A contact of another account is refused as unknown.
 */
export async function ensureRegistryHandle(
  deps: Pick<PlatformDeps, 'db' | 'now'>,
  scope: Scope & { accountId: string },
  contactId: string,
  connection: RegistryConnection,
  field = 'contacts',
): Promise<string> {
  return change(deps.db, scope, async (tx, audit) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`registry-handle:${contactId}:${connection.registry}`}))`.execute(tx)
    const contact = await tx.selectFrom('contacts').selectAll().where('id', '=', contactId).where('account_id', '=', scope.accountId).executeTakeFirst()
    if (!contact) throw badRequest(`Contact ${contactId} not found in this account`, [{ field, message: 'Unknown contact' }])
    const known = await tx.selectFrom('registry_handles').select('handle').where('contact_id', '=', contactId).where('registry', '=', connection.registry).executeTakeFirst()
    if (known) return known.handle
    for (let attempt = 1; ; attempt++) {
      const handle = newContactHandle()
      try {
        await connection.createContact({ id: handle, ...eppContactFields(contact), authInfo: newAuthCode() })
      } catch (error) {
        // 2302: the registry has an object of that id already (someone else's): draw another.
        if (error instanceof RegistryError && error.code === 2302 && attempt < 3) continue
        throw error
      }
      await tx.insertInto('registry_handles').values({ contact_id: contactId, registry: connection.registry, handle, sync_state: 'synced', last_synced_at: deps.now() }).execute()
      await audit.record({
        area: 'contacts',
        entityType: 'contact',
        entityId: contactId,
        accountId: scope.accountId,
        action: 'registry-handle',
        after: { registry: connection.registry, handle, sync_state: 'synced', created_at_registry: true },
      })
      return handle
    }
  })
}

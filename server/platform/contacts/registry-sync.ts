import type { PostalInfo } from '#server/integrations/registry/index.ts'
import { RegistryConnectionError, RegistryThrottled } from '#server/integrations/registry/index.ts'
import { sql } from 'kysely'
import type { Contact } from '#server/db/schema-directory.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { servedRegistries } from '#server/platform/registries/registries.ts'
import { parsePhone } from '#common/phone.ts'

export const CONTACT_SYNC_JOB = 'contacts.registry-sync'
/** Handles pushed per run, oldest change first. */
export const CONTACT_SYNC_BATCH = 200

type Deps = Pick<PlatformDeps, 'db' | 'registries' | 'now' | 'logger'>
export type SyncResult = { registry: string; handle: string; state: 'synced' | 'failed' | 'pending'; error?: string }

/**
 * A contact as EPP postal info (RFC 5733): `loc` as written, and `int` folded to ASCII (accents
 * dropped, other characters as "?"), both sent every time so that neither form stays stale at the
 * registry (contact:chg replaces a form; it cannot remove one).
 */
export function postalInfoOf(contact: Pick<Contact, 'name' | 'organisation' | 'street1' | 'street2' | 'street3' | 'city' | 'state' | 'postcode' | 'country_code'>): PostalInfo[] {
  const street = [contact.street1, contact.street2, contact.street3].filter((s) => s.trim() !== '')
  const loc: PostalInfo = { type: 'loc', name: contact.name, city: contact.city || '-', cc: contact.country_code }
  if (contact.organisation) loc.org = contact.organisation
  if (street.length) loc.street = street
  if (contact.state) loc.sp = contact.state
  if (contact.postcode) loc.pc = contact.postcode
  // ASCII is what the int form allows: accents dropped, anything else a '?'.
  const ascii = (text: string) =>
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      // eslint-disable-next-line no-control-regex -- the range starts at U+0000 on purpose
      .replace(/[^\x00-\x7f]/g, '?')
  const int: PostalInfo = { ...loc, type: 'int', name: ascii(loc.name), city: ascii(loc.city) }
  if (loc.org) int.org = ascii(loc.org)
  if (loc.street) int.street = loc.street.map(ascii)
  if (loc.sp) int.sp = ascii(loc.sp)
  if (loc.pc) int.pc = ascii(loc.pc)
  return [int, loc]
}

/** E.164 (+4930123456) as EPP writes a number (RFC 5733: +49.30123456), or undefined. */
export function eppPhone(e164: string | null): string | undefined {
  if (!e164) return undefined
  const parsed = parsePhone(e164)
  return parsed.ok ? `+${parsed.countryCallingCode}.${parsed.e164.slice(parsed.countryCallingCode.length + 1)}` : undefined
}

/** What a registry keeps of a contact (RFC 5733), as sent by contact:create and contact:update alike. */
export function eppContactFields(contact: Contact): { postalInfo: PostalInfo[]; email: string; voice?: string; fax?: string } {
  const voice = eppPhone(contact.phone)
  const fax = eppPhone(contact.fax)
  return { postalInfo: postalInfoOf(contact), email: contact.email, ...(voice ? { voice } : {}), ...(fax ? { fax } : {}) }
}

/**
 * Pushes edited contacts to the registries that hold a copy (EPP contact:update of the handle):
 * every handle marked pending by a contact change, oldest first. A handle is marked synced only if
 * the contact did not change again meanwhile (the edit marked it pending again: it goes next run);
 * a registry refusal marks it failed with the registry's message; a registry that cannot be reached
 * leaves it pending for the next run. A registry with no connection here is left alone.
 */
export async function syncContactHandles(deps: Deps, limit = CONTACT_SYNC_BATCH): Promise<SyncResult[]> {
  const connections = await servedRegistries(deps)
  if (!connections.size) return []
  const pending = await deps.db
    .selectFrom('registry_handles as h')
    .innerJoin('contacts as c', 'c.id', 'h.contact_id')
    .selectAll('c')
    .select(['h.id as handle_id', 'h.handle', 'h.registry', sql<string>`h.updated_at::text`.as('handle_stamp')])
    .where('h.sync_state', '=', 'pending')
    .where('h.registry', 'in', [...connections.keys()])
    .orderBy('h.updated_at')
    .orderBy('h.id')
    .limit(limit)
    .execute()
  const results: SyncResult[] = []
  for (const row of pending) {
    const { connection } = connections.get(row.registry)!
    let state: SyncResult['state'] = 'synced'
    let error: string | undefined
    try {
      await connection.updateContact({ id: row.handle, change: eppContactFields(row) })
    } catch (failure) {
      if (failure instanceof RegistryConnectionError || failure instanceof RegistryThrottled) state = 'pending'
      else state = 'failed'
      error = failure instanceof Error ? failure.message : String(failure)
    }
    if (state !== 'pending') {
      await deps.db
        .updateTable('registry_handles')
        .set({ sync_state: state, error: error ?? null, ...(state === 'synced' ? { last_synced_at: deps.now() } : {}) })
        .where('id', '=', row.handle_id)
        .where(sql<boolean>`updated_at::text = ${row.handle_stamp}`)
        .execute()
    } else deps.logger.warn('contact sync: registry unreachable', { registry: row.registry, handle: row.handle, error })
    results.push({ registry: row.registry, handle: row.handle, state, ...(error ? { error } : {}) })
  }
  return results
}

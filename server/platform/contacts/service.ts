import { sql, type Kysely } from 'kysely'
import { parsePhone, phoneErrorMessage } from '#common/phone.ts'
import type { DB } from '#server/db/schema.ts'
import type { Contact, RegistryHandle, SyncState } from '#server/db/schema-directory.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { domainOfAccount } from '#server/platform/domains/reads.ts'
import { isCountryCode } from '#common/countries.ts'
import { CONTACTS_LIST, REGISTRY_HANDLES_LIST } from '#common/lists/directory.ts'
import { joinAccounts } from '#server/platform/accounts/reads.ts'

export const CONTACT_FIELDS = ['name', 'organisation', 'email', 'phone', 'mobile', 'fax', 'street1', 'street2', 'street3', 'city', 'state', 'postcode', 'country_code'] as const

export type ContactInput = {
  name: string
  organisation?: string
  email: string
  phone?: string | null
  mobile?: string | null
  fax?: string | null
  street1?: string
  street2?: string
  street3?: string
  city?: string
  state?: string
  postcode?: string
  country_code: string
}
export type ContactPatch = Partial<ContactInput> & { version: number }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Contacts as a list resource (client scopes add the account column). */
export const contactsResource = listResource(CONTACTS_LIST, {
  from: `contacts c ${joinAccounts('a', 'c.account_id')}`,
  tiebreak: 'c.id',
  columns: {
    id: 'c.id',
    group_id: 'c.account_id',
    'account.name': 'a.name',
    name: 'c.name',
    organisation: 'c.organisation',
    email: 'c.email',
    phone: 'c.phone',
    mobile: 'c.mobile',
    fax: 'c.fax',
    street1: 'c.street1',
    street2: 'c.street2',
    street3: 'c.street3',
    city: 'c.city',
    state: 'c.state',
    postcode: 'c.postcode',
    country_code: 'c.country_code',
    in_use: '(EXISTS (SELECT 1 FROM domain_contacts dc WHERE dc.contact_id = c.id))',
    version: 'c.version',
    created_at: 'c.created_at',
    updated_at: 'c.updated_at',
  },
})
export const scopedContactsResource: ListResource = { ...contactsResource, accountColumn: 'c.account_id' }

/** A contact's registry handles; always filtered to one contact by the route. */
export const registryHandlesResource = listResource(REGISTRY_HANDLES_LIST, {
  from: 'registry_handles h JOIN contacts c ON c.id = h.contact_id',
  accountColumn: 'c.account_id',
  tiebreak: 'h.id',
  columns: {
    id: 'h.id',
    contact_id: 'h.contact_id',
    registry: 'h.registry',
    handle: 'h.handle',
    sync_state: 'h.sync_state',
    last_synced_at: 'h.last_synced_at',
    error: 'h.error',
    created_at: 'h.created_at',
    updated_at: 'h.updated_at',
  },
})

type Cleaned = Partial<Omit<ContactInput, 'phone' | 'mobile' | 'fax'>> & { phone?: string | null; mobile?: string | null; fax?: string | null }

/**
 * Validates and normalises contact fields: trimmed text, lower-case email, E.164 phone numbers,
 * an upper-case ISO 3166-1 alpha-2 country. Every broken rule is reported, each with its code.
 */
export function cleanContact(input: Partial<ContactInput>, creating: boolean): Cleaned {
  const errors: CodedFieldError[] = []
  const out: Cleaned = {}
  for (const key of ['name', 'organisation', 'street1', 'street2', 'street3', 'city', 'state', 'postcode'] as const) {
    const value = input[key]
    if (value !== undefined) out[key] = value.trim()
  }
  if ((creating || input.name !== undefined) && !out.name) errors.push(fieldError('name', 'field.required', 'This field is required'))
  if (creating || input.email !== undefined) {
    const email = (input.email ?? '').trim().toLowerCase()
    if (!EMAIL.test(email)) errors.push(fieldError('email', 'email.invalid', 'Please enter a valid email'))
    out.email = email
  }
  for (const key of ['phone', 'mobile', 'fax'] as const) {
    const value = input[key]
    if (value === undefined) continue
    if (value === null || value.trim() === '') {
      out[key] = null
      continue
    }
    const parsed = parsePhone(value)
    if (parsed.ok) out[key] = parsed.e164
    else errors.push({ ...fieldError(key, 'phone.invalid', phoneErrorMessage(parsed.error)), reason: parsed.error } as CodedFieldError)
  }
  if (creating || input.country_code !== undefined) {
    const code = (input.country_code ?? '').trim().toUpperCase()
    if (!isCountryCode(code)) errors.push(fieldError('country_code', 'country.invalid', 'Choose a country (ISO 3166-1 alpha-2 code)'))
    out.country_code = code
  }
  if (errors.length) throw invalid(errors[0]!.code, 'The contact is not valid', errors)
  return out
}

async function findContact(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string, lock = false): Promise<Contact> {
  let query = db.selectFrom('contacts').selectAll().where('id', '=', id)
  const reach = reachOf(scope)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const contact = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!contact) throw notFound('Contact not found')
  return contact
}

export type ContactDetail = Contact & { in_use: boolean; domain_count: number; registry_handles: RegistryHandle[] }

/** One contact, with how many domains use it and its registry handles. */
export async function getContact(db: Kysely<DB>, scope: Scope, id: string): Promise<ContactDetail> {
  const contact = await findContact(db, scope, id)
  requirePermission(scope.actor, 'contact-viewer')
  return detail(db, contact)
}

async function detail(db: Pick<Kysely<DB>, 'selectFrom'>, contact: Contact): Promise<ContactDetail> {
  const uses = await db
    .selectFrom('domain_contacts')
    .select(sql<number>`count(DISTINCT domain_id)::int`.as('n'))
    .where('contact_id', '=', contact.id)
    .executeTakeFirstOrThrow()
  const handles = await db.selectFrom('registry_handles').selectAll().where('contact_id', '=', contact.id).orderBy('registry').execute()
  return { ...contact, in_use: uses.n > 0, domain_count: uses.n, registry_handles: handles }
}

/** Creates a contact in the scope's account. */
export async function createContact(db: Kysely<DB>, scope: Scope, input: ContactInput): Promise<ContactDetail> {
  if (!scope.accountId) throw notFound('Account not found')
  requirePermission(scope.actor, 'contact-manager')
  const accountId = scope.accountId
  const values = cleanContact(input, true) as ContactInput
  return change(db, scope, async (tx, audit) => {
    const contact = await tx
      .insertInto('contacts')
      .values({ ...values, account_id: accountId })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'contacts', entityType: 'contact', entityId: contact.id, accountId, action: 'create', after: contact })
    return detail(tx, contact)
  })
}

/** Edits a contact from the version the client read. */
export async function updateContact(db: Kysely<DB>, scope: Scope, id: string, patch: ContactPatch): Promise<ContactDetail> {
  const { version, ...fields } = patch
  return change(db, scope, async (tx, audit) => {
    const before = await findContact(tx, scope, id, true)
    requirePermission(scope.actor, 'contact-manager')
    const values = cleanContact(fields, false)
    if (before.version !== version) throw staleVersion(before.version)
    const after = await tx
      .updateTable('contacts')
      .set({ ...values, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'contacts', entityType: 'contact', entityId: id, accountId: after.account_id, action: 'update', before, after })
    // Registries hold a copy: a changed contact is pending until the sync job pushes it.
    await tx.updateTable('registry_handles').set({ sync_state: 'pending', updated_at: new Date() }).where('contact_id', '=', id).execute()
    return detail(tx, after)
  })
}

/** Deletes a contact that no domain uses; its registry handles go with it. */
export async function deleteContact(db: Kysely<DB>, scope: Scope, id: string): Promise<void> {
  await change(db, scope, async (tx, audit) => {
    const contact = await findContact(tx, scope, id, true)
    requirePermission(scope.actor, 'contact-manager')
    // linkDomainContact takes the same row lock, so no link can appear between this check and the delete.
    const uses = await tx
      .selectFrom('domain_contacts')
      .select(sql<number>`count(DISTINCT domain_id)::int`.as('n'))
      .where('contact_id', '=', id)
      .executeTakeFirstOrThrow()
    if (uses.n > 0) {
      throw refused('contact.in_use', `This contact is used by ${uses.n} domain${uses.n === 1 ? '' : 's'}; replace it there first`, undefined, { domain_count: uses.n })
    }
    await tx.deleteFrom('contacts').where('id', '=', id).execute()
    await audit.record({ area: 'contacts', entityType: 'contact', entityId: id, accountId: contact.account_id, action: 'delete', before: contact })
  })
}

/** Makes sure a contact exists in the scope before listing its handles (else 404). */
export async function requireContact(db: Kysely<DB>, scope: Scope, id: string): Promise<Contact> {
  const contact = await findContact(db, scope, id)
  requirePermission(scope.actor, 'contact-viewer')
  return contact
}

/** Links a contact to a domain in a role; both must be in the same account. */
export async function linkDomainContact(db: Kysely<DB>, scope: Scope, input: { domain_id: string; contact_id: string; role: 'registrant' | 'admin' | 'tech' | 'billing' }) {
  return change(db, scope, async (tx, audit) => {
    const contact = await findContact(tx, scope, input.contact_id, true)
    const domain = await domainOfAccount(tx, contact.account_id, input.domain_id).select(['id', 'account_id']).executeTakeFirst()
    if (!domain) throw notFound('Domain not found')
    await tx
      .insertInto('domain_contacts')
      .values(input)
      .onConflict((oc) => oc.columns(['domain_id', 'role']).doUpdateSet({ contact_id: input.contact_id }))
      .execute()
    await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, accountId: domain.account_id, action: 'set-contact', after: { role: input.role, contact_id: input.contact_id } })
  })
}

/** Records a contact's handle at a registry and its sync state (used by the registry sync and the seed). */
export async function upsertRegistryHandle(
  db: Kysely<DB>,
  scope: Scope,
  input: { contact_id: string; registry: string; handle: string; sync_state: SyncState; last_synced_at?: Date | null; error?: string | null },
): Promise<RegistryHandle> {
  return change(db, scope, async (tx, audit) => {
    const contact = await findContact(tx, scope, input.contact_id)
    const row = await tx
      .insertInto('registry_handles')
      .values({ ...input, last_synced_at: input.last_synced_at ?? null, error: input.error ?? null })
      .onConflict((oc) =>
        oc
          .columns(['contact_id', 'registry'])
          .doUpdateSet({ handle: input.handle, sync_state: input.sync_state, last_synced_at: input.last_synced_at ?? null, error: input.error ?? null, updated_at: new Date() }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'contacts',
      entityType: 'contact',
      entityId: contact.id,
      accountId: contact.account_id,
      action: 'registry-handle',
      after: { registry: row.registry, handle: row.handle, sync_state: row.sync_state },
    })
    return row
  })
}

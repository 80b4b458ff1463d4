import type { Selectable } from 'kysely'
import type { ContactRole } from '#server/db/schema-directory.ts'
import type { MaterialChange } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { registryErrorToAppError } from '#server/integrations/registry/app-errors.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * One change to one domain, as the bulk actions and approved material requests make it.
 *
 * The domains core owns the PATCH; until it exports a service these writes go straight through
 * change()/audit here, registry first (so a refusal changes nothing of ours), then our row.
 */
export type DomainChange = {
  auto_renew?: boolean
  registry_lock?: boolean
  renew_years?: number
} & MaterialChange

export type DomainRow = Selectable<DB['domains']>
export type ApplyDeps = Pick<PlatformDeps, 'db' | 'registries' | 'now'>

/** Client statuses that make up a registry lock at the registries we speak EPP to. */
export const LOCK_STATUSES = ['clientUpdateProhibited', 'clientDeleteProhibited', 'clientTransferProhibited']
const ROLES: ContactRole[] = ['registrant', 'admin', 'tech', 'billing']

/** True when the change touches what a material domain needs approval for. */
export const isMaterialChange = (c: MaterialChange) => Boolean((c.contacts && Object.keys(c.contacts).length) || c.nameservers)

/** The domain, in the scope's reach (another account's id is 404). */
export async function loadDomain(db: ApplyDeps['db'] | Tx, scope: Scope, domainId: string, reachAll = false): Promise<DomainRow> {
  let query = db.selectFrom('domains').selectAll().where('id', '=', domainId).where('status', '<>', 'deleted')
  if (!reachAll) query = query.where('account_id', '=', scope.accountId ?? '00000000-0000-0000-0000-000000000000')
  const domain = await query.executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  return domain
}

/** Error text of a failed item: the registry's own message when it refused. */
export function errorMessage(error: unknown): string {
  const mapped = registryErrorToAppError(error)
  if (mapped instanceof AppError) return mapped.message
  return error instanceof Error ? error.message : String(error)
}

async function handleFor(deps: ApplyDeps | { db: Tx }, contactId: string, registry: string, accountId: string): Promise<string> {
  const row = await deps.db
    .selectFrom('contacts as c')
    .leftJoin('registry_handles as h', (j) => j.onRef('h.contact_id', '=', 'c.id').on('h.registry', '=', registry))
    .select(['c.id', 'h.handle'])
    .where('c.id', '=', contactId)
    .where('c.account_id', '=', accountId)
    .executeTakeFirst()
  if (!row) throw badRequest(`Contact ${contactId} not found in this account`, [{ field: 'contacts', message: 'Unknown contact' }])
  if (!row.handle) throw new AppError(422, 'no-registry-handle', `Contact ${contactId} has no handle at registry ${registry} yet`)
  return row.handle
}

/**
 * Applies a change to a domain: the registry first (when one serves the TLD), then our row with
 * its audit entry in one transaction. Returns 'unchanged' when there was nothing to do.
 */
export async function applyDomainChange(deps: ApplyDeps, scope: Scope, domain: DomainRow, wanted: DomainChange, action = 'update'): Promise<'applied' | 'unchanged'> {
  const registry: RegistryConnection | null = deps.registries?.forTld(domain.tld) ?? null
  const itemScope: Scope = { ...scope, accountId: domain.account_id }
  const next: Partial<DomainRow> = {}

  // Contacts: validated against the account before anything is sent anywhere.
  const currentContacts = await deps.db.selectFrom('domain_contacts').select(['role', 'contact_id']).where('domain_id', '=', domain.id).execute()
  const contactChanges: { role: ContactRole; from: string | null; to: string }[] = []
  for (const role of ROLES) {
    const to = wanted.contacts?.[role]
    if (!to) continue
    const from = currentContacts.find((c) => c.role === role)?.contact_id ?? null
    if (from === to) continue
    const owned = await deps.db.selectFrom('contacts').select('id').where('id', '=', to).where('account_id', '=', domain.account_id).executeTakeFirst()
    if (!owned) throw badRequest(`Contact ${to} not found in this account`, [{ field: `contacts.${role}`, message: 'Unknown contact' }])
    contactChanges.push({ role, from, to })
  }

  let nsAdd: string[] = []
  let nsRem: string[] = []
  if (wanted.nameservers) {
    const clean = [...new Set(wanted.nameservers.map((n) => n.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))]
    for (const ns of clean) {
      if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(ns)) throw badRequest(`Invalid nameserver ${ns}`, [{ field: 'nameservers', message: `Invalid host name ${ns}` }])
    }
    if (clean.length > 13) throw badRequest('At most 13 nameservers', [{ field: 'nameservers', message: 'At most 13 nameservers' }])
    nsAdd = clean.filter((n) => !domain.nameservers.includes(n))
    nsRem = domain.nameservers.filter((n) => !clean.includes(n))
    if (nsAdd.length || nsRem.length) next.nameservers = clean
  }
  if (wanted.auto_renew !== undefined && wanted.auto_renew !== domain.auto_renew) next.auto_renew = wanted.auto_renew
  if (wanted.registry_lock !== undefined && wanted.registry_lock !== domain.registry_lock) next.registry_lock = wanted.registry_lock

  const renewing = wanted.renew_years !== undefined
  if (!renewing && Object.keys(next).length === 0 && contactChanges.length === 0) return 'unchanged'

  try {
    if (registry) {
      if (renewing) {
        if (!domain.expires_at) throw badRequest('The domain has no expiry date to renew from')
        const result = await registry.renewDomain({ name: domain.name, currentExpiry: domain.expires_at, years: wanted.renew_years })
        next.expires_at = result.expiresAt ?? addYears(domain.expires_at, wanted.renew_years!)
      }
      const statusAdd = next.registry_lock === true ? LOCK_STATUSES : []
      const statusRem = next.registry_lock === false ? LOCK_STATUSES : []
      const add = { nameservers: nsAdd, contacts: [] as { type: 'admin' | 'tech' | 'billing'; id: string }[], statuses: statusAdd }
      const rem = { nameservers: nsRem, contacts: [] as { type: 'admin' | 'tech' | 'billing'; id: string }[], statuses: statusRem }
      let registrant: string | undefined
      for (const c of contactChanges) {
        const handle = await handleFor(deps, c.to, registry.registry, domain.account_id)
        if (c.role === 'registrant') registrant = handle
        else {
          add.contacts.push({ type: c.role, id: handle })
          if (c.from) {
            const old = await deps.db.selectFrom('registry_handles').select('handle').where('contact_id', '=', c.from).where('registry', '=', registry.registry).executeTakeFirst()
            if (old) rem.contacts.push({ type: c.role, id: old.handle })
          }
        }
      }
      const hasUpdate = add.nameservers.length + add.contacts.length + add.statuses.length + rem.nameservers.length + rem.contacts.length + rem.statuses.length > 0 || registrant
      if (hasUpdate) await registry.updateDomain({ name: domain.name, add: trimAddRem(add), rem: trimAddRem(rem), ...(registrant ? { registrant } : {}) })
    } else if (renewing) {
      if (!domain.expires_at) throw badRequest('The domain has no expiry date to renew from')
      // No registry serves this TLD here (an unmanaged or demo TLD): the renewal is recorded only.
      next.expires_at = addYears(domain.expires_at, wanted.renew_years!)
    }
  } catch (error) {
    throw registryErrorToAppError(error)
  }

  await change(deps.db, itemScope, async (tx, audit) => {
    const before = await tx.selectFrom('domains').selectAll().where('id', '=', domain.id).forUpdate().executeTakeFirstOrThrow()
    const after = await tx
      .updateTable('domains')
      .set({ ...next, version: before.version + 1, updated_at: deps.now() } as never)
      .where('id', '=', domain.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    for (const c of contactChanges) {
      await tx.deleteFrom('domain_contacts').where('domain_id', '=', domain.id).where('role', '=', c.role).execute()
      await tx.insertInto('domain_contacts').values({ domain_id: domain.id, contact_id: c.to, role: c.role }).execute()
    }
    const pick = (row: DomainRow) => Object.fromEntries(Object.keys(next).map((k) => [k, row[k as keyof DomainRow]]))
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: domain.id,
      action,
      before: { ...pick(before), ...Object.fromEntries(contactChanges.map((c) => [`contact_${c.role}`, c.from])) },
      after: { ...pick(after), ...Object.fromEntries(contactChanges.map((c) => [`contact_${c.role}`, c.to])) },
    })
  })
  return 'applied'
}

function trimAddRem(x: { nameservers: string[]; contacts: { type: 'admin' | 'tech' | 'billing'; id: string }[]; statuses: string[] }) {
  const out: { nameservers?: string[]; contacts?: typeof x.contacts; statuses?: string[] } = {}
  if (x.nameservers.length) out.nameservers = x.nameservers
  if (x.contacts.length) out.contacts = x.contacts
  if (x.statuses.length) out.statuses = x.statuses
  return Object.keys(out).length ? out : undefined
}

function addYears(date: Date, years: number): Date {
  const next = new Date(date)
  next.setUTCFullYear(next.getUTCFullYear() + years)
  return next
}

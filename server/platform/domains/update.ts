import { ensureRegistryHandle } from '#server/platform/contacts/registry-handles.ts'
import type { Selectable } from 'kysely'
import type { ContactRole } from '#server/db/schema-directory.ts'
import type { MaterialChange } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { registryErrorToAppError } from '#server/integrations/registry/app-errors.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, conflict, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createMaterialChangeRequest } from '#server/platform/material-changes/service.ts'

/**
 * The one way a domain's settings change: PATCH /groups/{context}/domains/{id}, the bulk actions
 * and approved material change requests all come through here. Registry first (so a refusal
 * changes nothing of ours), then our row with its audit entry in one change().
 */
export type DomainChange = {
  auto_renew?: boolean
  registry_lock?: boolean
  tags?: string[]
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
  if (wanted.tags !== undefined) {
    const tags = cleanTags(wanted.tags)
    if (tags.join('\n') !== [...domain.tags].sort().join('\n')) next.tags = tags
  }

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
        // A contact new to this registry is created there first.
        const handle = await ensureRegistryHandle(deps, { ...itemScope, accountId: domain.account_id }, c.to, registry, `contacts.${c.role}`)
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
      // Name servers are host objects at the registry (RFC 5732): external ones it does not know
      // yet are created first; a subordinate host without addresses is refused with its message.
      if (add.nameservers.length) {
        const unknown = (await registry.checkHosts(add.nameservers)).filter((h) => h.available).map((h) => h.name)
        for (const name of unknown) await registry.createHost({ name })
      }
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

/** Tags: trimmed, without duplicates, sorted, at most 50 of at most 64 characters. */
function cleanTags(tags: string[]): string[] {
  const clean = [...new Set(tags.map((t) => t.trim()).filter(Boolean))].sort()
  const long = clean.find((t) => t.length > 64)
  if (long) throw badRequest(`Tag too long: ${long.slice(0, 20)}…`, [{ field: 'tags', message: 'At most 64 characters per tag' }])
  if (clean.length > 50) throw badRequest('At most 50 tags', [{ field: 'tags', message: 'At most 50 tags' }])
  return clean
}

export type UpdateOutcome = { outcome: 'applied' | 'unchanged' } | { outcome: 'approval_requested'; material_change_request_id: string }

/**
 * Changes one domain of the scope's reach (PATCH and every bulk item). With `version`, a domain
 * changed since that version answers 409 and nothing is sent anywhere. On a material domain the
 * contact and nameserver part becomes a material change request (the approvers are mailed) while
 * the rest (auto-renew, lock, tags, renewal) applies at once.
 */
export async function updateDomain(
  deps: ApplyDeps & Pick<PlatformDeps, 'jobs'>,
  scope: Scope,
  domainId: string,
  wanted: DomainChange,
  options: { version?: number; action?: string; reachAll?: boolean } = {},
): Promise<UpdateOutcome> {
  const domain = await loadDomain(deps.db, scope, domainId, options.reachAll)
  if (options.version !== undefined && options.version !== domain.version) {
    throw conflict(`The domain changed since version ${options.version} (now ${domain.version}); reload and try again`, { version: domain.version })
  }
  const itemScope: Scope = { ...scope, accountId: domain.account_id }
  const material: MaterialChange = {}
  if (wanted.contacts && Object.keys(wanted.contacts).length) material.contacts = wanted.contacts
  if (wanted.nameservers) material.nameservers = wanted.nameservers
  if (!domain.is_material || !isMaterialChange(material)) {
    return { outcome: await applyDomainChange(deps, itemScope, domain, wanted, options.action) }
  }
  const { contacts: _contacts, nameservers: _nameservers, ...rest } = wanted
  if (Object.values(rest).some((v) => v !== undefined)) await applyDomainChange(deps, itemScope, domain, rest, options.action)
  const request = await change(deps.db, itemScope, (tx) => createMaterialChangeRequest(tx, itemScope, { domainId: domain.id, change: material }, deps))
  return { outcome: 'approval_requested', material_change_request_id: request.id }
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

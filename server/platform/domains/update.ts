import { ensureRegistryHandle } from '#server/platform/contacts/registry-handles.ts'
import { contactsOfAccount, domainContactIds, registryHandleOf } from '#server/platform/contacts/reads.ts'
import { setDomainContacts } from '#server/platform/contacts/writes.ts'
import type { Selectable, Updateable } from 'kysely'
import type { ContactRole } from '#server/db/schema-directory.ts'
import type { MaterialChange } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { registryErrorToAppError } from '#server/integrations/registry/app-errors.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { releaseDirect, reserveDirect, settleCharge, type ExpectedPrice } from '#server/platform/billing/transactions.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { checkVersion, updateVersioned } from '#server/platform/core/versioned.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createMaterialChangeRequest, isMaterialChange } from '#server/platform/material-changes/service.ts'
import { addYears, renewOnce } from './idempotent.ts'
import { checkRenewal } from './lifecycle.ts'
import { refuseWhileLocked } from './rules.ts'
import { liveDomains } from './reads.ts'

/**
 * The one way a domain's settings change: PATCH /groups/{context}/domains/{id}, the bulk actions
 * and approved material change requests all come through here. The rules first (version, registry
 * lock, renewal), so that what would be refused is refused before anything is sent; then the
 * registry (so a refusal changes nothing of ours); then our row with its audit entry in one
 * change(), where the version is checked again under the row lock (decision 006).
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

/** The domain, in the scope's reach (another account's id is 404). */
export async function loadDomain(db: ApplyDeps['db'] | Tx, scope: Scope, domainId: string, reachAll = false): Promise<DomainRow> {
  let query = liveDomains(db).selectAll().where('id', '=', domainId)
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
 * A repeat of a change whose earlier attempt may have reached the registry (a bulk item resumed
 * after its process died): `renewFrom` is the expiry the first attempt renewed from.
 */
export type Resume = { renewFrom?: Date | null }

/**
 * How a change is applied: the audit action, a resumed attempt, the version the user edited from
 * (none for system writes), and the price the person confirmed for the change's charge — the
 * registry-lock fee, or a bulk renewal's (`expected`, issue 28: a charge whose quote is now
 * otherwise is refused, 409 billing.quote_changed, and nothing changes).
 */
export type ApplyOptions = { action?: string; resume?: Resume; version?: number; expected?: ExpectedPrice }

// Changes to one domain made by this process, one at a time: the second of two edits from the same
// version then reads the first one's version and is refused before it sends anything to the
// registry. Across processes the version check under the row lock still lets only one win.
const domainQueues = new Map<string, Promise<unknown>>()

/** Runs `work` after every earlier change of this process to the same domain has finished. */
export async function oneAtATime<T>(domainId: string, work: () => Promise<T>): Promise<T> {
  const run = (domainQueues.get(domainId) ?? Promise.resolve()).then(work, work)
  const tail = run.catch(() => undefined)
  domainQueues.set(domainId, tail)
  try {
    return await run
  } finally {
    if (domainQueues.get(domainId) === tail) domainQueues.delete(domainId)
  }
}

/**
 * Applies a change to a domain: the registry first (when one serves the TLD), then our row with
 * its audit entry in one transaction. Returns 'unchanged' when there was nothing to do. With
 * `resume`, what the registry holds is read first and only what is still missing there is sent
 * (decision 102): a renewal already made is recorded, not made twice.
 */
export async function applyDomainChange(deps: ApplyDeps, scope: Scope, domain: DomainRow, wanted: DomainChange, options: ApplyOptions = {}): Promise<'applied' | 'unchanged'> {
  const { action = 'update', resume } = options
  if (options.version !== undefined) checkVersion(domain.version, options.version, 'domain')
  const registry: RegistryConnection | null = deps.registries?.forTld(domain.tld) ?? null
  const itemScope: Scope = { ...scope, accountId: domain.account_id }
  const next: Partial<DomainRow> = {}

  // Contacts: validated against the account before anything is sent anywhere.
  const currentContacts = await domainContactIds(deps.db, domain.id)
  const contactChanges: { role: ContactRole; from: string | null; to: string }[] = []
  for (const role of ROLES) {
    const to = wanted.contacts?.[role]
    if (!to) continue
    const from = currentContacts.find((c) => c.role === role)?.contact_id ?? null
    if (from === to) continue
    const owned = await contactsOfAccount(deps.db, domain.account_id).select('id').where('id', '=', to).executeTakeFirst()
    if (!owned) throw badRequest(`Contact ${to} not found in this account`, [{ field: `contacts.${role}`, message: 'Unknown contact' }])
    contactChanges.push({ role, from, to })
  }

  let nsAdd: string[] = []
  let nsRem: string[] = []
  if (wanted.nameservers) {
    const clean = [...new Set(wanted.nameservers.map((n) => n.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))]
    for (const ns of clean) {
      if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(ns))
        throw badRequest(`Invalid nameserver ${ns}`, [{ field: 'nameservers', message: `Invalid host name ${ns}` }])
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
  // A repeat goes on to the registry even when our row already says so: the registry decides.
  if (!renewing && !resume && Object.keys(next).length === 0 && contactChanges.length === 0) return 'unchanged'
  // What the registry would refuse is refused here, before anything is sent.
  refuseWhileLocked(domain, { registry_lock: wanted.registry_lock, touchesRegistryRecord: Boolean(next.nameservers) || contactChanges.length > 0 })
  if (renewing) await checkRenewal(deps, domain, wanted.renew_years!)

  // Charged before the registry is asked (issue 18), each in a transaction of its own: a renewal
  // as on the domain's page (its key names the expiry it renews from and the period and price, so a
  // resumed item finds its charge), and a registry lock's fee where the price list prices one (the lock of this version).
  // Settled with our record, released when the registry refuses.
  const charges: string[] = []
  if (renewing) {
    const from = resume?.renewFrom ?? domain.expires_at
    const key = await reserveDirect(deps.db, itemScope, {
      key: `renew:${domain.id}:${from?.toISOString() ?? ''}`,
      accountId: domain.account_id,
      tld: domain.tld,
      action: 'renew',
      period: wanted.renew_years!,
      objectName: domain.unicode_name,
      domainId: domain.id,
      ...(options.expected !== undefined ? { expected: options.expected } : {}),
    })
    if (key) charges.push(key)
  }
  if (next.registry_lock === true) {
    const lock = {
      key: `registry-lock:${domain.id}:${domain.version}`,
      accountId: domain.account_id,
      tld: domain.tld,
      action: 'registry-lock',
      period: 1,
      objectName: domain.unicode_name,
      domainId: domain.id,
      unpricedIsFree: true,
      ...(options.expected !== undefined ? { expected: options.expected } : {}),
    }
    const key = await reserveDirect(deps.db, itemScope, lock).catch(async (error: unknown) => Promise.reject(await releaseAll(error)))
    if (key) charges.push(key)
  }
  async function releaseAll(error: unknown) {
    for (const key of charges) await releaseDirect(deps.db, itemScope, key, errorMessage(error))
    return error
  }
  const settleAll = async (tx: Tx) => {
    for (const key of charges) await settleCharge(tx, itemScope, key, domain.id)
  }

  try {
    if (registry) {
      // A repeat reads back what the registry holds and sends only the difference from it.
      const held = resume ? await registry.infoDomain(domain.name) : null
      if (renewing) {
        const from = resume?.renewFrom ?? domain.expires_at
        if (!from) throw badRequest('The domain has no expiry date to renew from')
        const renewed = await renewOnce(registry, { name: domain.name, from, years: wanted.renew_years!, held })
        // Renewed by the interrupted attempt and recorded by it too: nothing left to write.
        if (!(renewed.repeated && domain.expires_at?.getTime() === renewed.expiresAt.getTime())) next.expires_at = renewed.expiresAt
      }
      let statusAdd = next.registry_lock === true ? LOCK_STATUSES : []
      let statusRem = next.registry_lock === false ? LOCK_STATUSES : []
      if (held && wanted.registry_lock !== undefined) {
        statusAdd = wanted.registry_lock ? LOCK_STATUSES.filter((s) => !held.statuses.includes(s)) : []
        statusRem = wanted.registry_lock ? [] : LOCK_STATUSES.filter((s) => held.statuses.includes(s))
      }
      if (held && wanted.nameservers) {
        const clean = next.nameservers ?? domain.nameservers
        const there = held.nameservers.map((n) => n.toLowerCase())
        nsAdd = clean.filter((n) => !there.includes(n))
        nsRem = there.filter((n) => !clean.includes(n))
      }
      const add = { nameservers: nsAdd, contacts: [] as { type: 'admin' | 'tech' | 'billing'; id: string }[], statuses: statusAdd }
      const rem = { nameservers: nsRem, contacts: [] as { type: 'admin' | 'tech' | 'billing'; id: string }[], statuses: statusRem }
      let registrant: string | undefined
      if (held) {
        // Every wanted contact against the registry's own list: what it lacks is added, the rest of that role removed.
        for (const role of ROLES) {
          const to = wanted.contacts?.[role]
          if (!to) continue
          const handle = await ensureRegistryHandle(deps, { ...itemScope, accountId: domain.account_id }, to, registry, `contacts.${role}`)
          if (role === 'registrant') {
            if (held.registrant !== handle) registrant = handle
            continue
          }
          if (!held.contacts.some((c) => c.type === role && c.id === handle)) add.contacts.push({ type: role, id: handle })
          rem.contacts.push(...held.contacts.filter((c) => c.type === role && c.id !== handle))
        }
      } else {
        for (const c of contactChanges) {
          // A contact new to this registry is created there first.
          const handle = await ensureRegistryHandle(deps, { ...itemScope, accountId: domain.account_id }, c.to, registry, `contacts.${c.role}`)
          if (c.role === 'registrant') registrant = handle
          else {
            add.contacts.push({ type: c.role, id: handle })
            if (c.from) {
              const old = await registryHandleOf(deps.db, c.from, registry.registry)
              if (old) rem.contacts.push({ type: c.role, id: old.handle })
            }
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
      const from = resume?.renewFrom ?? domain.expires_at
      if (!from) throw badRequest('The domain has no expiry date to renew from')
      // No registry serves this TLD here (an unmanaged or demo TLD): the renewal is recorded only,
      // once — a repeat that finds it recorded writes nothing.
      const target = addYears(from, wanted.renew_years!)
      if (domain.expires_at?.getTime() !== target.getTime()) next.expires_at = target
    }
  } catch (error) {
    throw registryErrorToAppError(await releaseAll(error))
  }
  // A renewed domain is active again, as after its own renewal.
  if (next.expires_at && domain.status === 'expired') next.status = 'active'
  // Nothing of ours to write: a repeat that found everything done (a renewal counts as applied).
  if (Object.keys(next).length === 0 && contactChanges.length === 0) {
    if (charges.length) await change(deps.db, itemScope, settleAll)
    return renewing ? 'applied' : 'unchanged'
  }

  await change(deps.db, itemScope, async (tx, audit) => {
    await settleAll(tx)
    // Decision 006: the version the user edited from, checked again under the row lock; an edit
    // that landed meanwhile (another process) makes this one the stale one, and nothing is written.
    const { before, after } = await updateVersioned(tx, 'domains', domain.id, options.version ?? null, next as Updateable<DB['domains']>, { accountId: domain.account_id, label: 'domain' })
    await setDomainContacts(
      tx,
      domain.id,
      contactChanges.map((c) => ({ role: c.role, contactId: c.to })),
    )
    const pick = (row: DomainRow) => Object.fromEntries(Object.keys(next).map((k) => [k, row[k as keyof DomainRow]]))
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: domain.id,
      action,
      before: { ...pick(before), ...Object.fromEntries(contactChanges.map((c) => [`contact_${c.role}`, c.from])) },
      after: { ...pick(after), ...Object.fromEntries(contactChanges.map((c) => [`contact_${c.role}`, c.to])) },
    })
  }).catch(async (error: unknown) => Promise.reject(await releaseAll(error)))
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
  options: { version?: number; action?: string; reachAll?: boolean; resume?: Resume; approved?: boolean; expected?: ExpectedPrice } = {},
): Promise<UpdateOutcome> {
  return oneAtATime(domainId, async () => {
    const domain = await loadDomain(deps.db, scope, domainId, options.reachAll)
    // A stale version is refused before anything is sent to the registry; the write checks it again under the row lock.
    if (options.version !== undefined) checkVersion(domain.version, options.version, 'domain')
    const itemScope: Scope = { ...scope, accountId: domain.account_id }
    const apply: ApplyOptions = { action: options.action, resume: options.resume, version: options.version, expected: options.expected }
    const material: MaterialChange = {}
    if (wanted.contacts && Object.keys(wanted.contacts).length) material.contacts = wanted.contacts
    if (wanted.nameservers) material.nameservers = wanted.nameservers
    // `approved`: the change was approved already as a whole (a change set's approval, issue 33).
    if (!domain.is_material || !isMaterialChange(material) || options.approved) {
      return { outcome: await applyDomainChange(deps, itemScope, domain, wanted, apply) }
    }
    // Refused up front, before the rest applies and before approvers are mailed a change the registry would refuse.
    refuseWhileLocked(domain, { registry_lock: wanted.registry_lock, touchesRegistryRecord: true })
    const { contacts: _contacts, nameservers: _nameservers, ...rest } = wanted
    if (Object.values(rest).some((v) => v !== undefined)) await applyDomainChange(deps, itemScope, domain, rest, apply)
    const request = await change(deps.db, itemScope, (tx) => createMaterialChangeRequest(tx, itemScope, { domainId: domain.id, change: material }, deps))
    return { outcome: 'approval_requested' as const, material_change_request_id: request.id }
  })
}

function trimAddRem(x: { nameservers: string[]; contacts: { type: 'admin' | 'tech' | 'billing'; id: string }[]; statuses: string[] }) {
  const out: { nameservers?: string[]; contacts?: typeof x.contacts; statuses?: string[] } = {}
  if (x.nameservers.length) out.nameservers = x.nameservers
  if (x.contacts.length) out.contacts = x.contacts
  if (x.statuses.length) out.statuses = x.statuses
  return Object.keys(out).length ? out : undefined
}

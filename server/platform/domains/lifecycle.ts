import { checkTldScripts, IDN_NAME_MESSAGES, parseDomainName, type DomainNameError, type ParsedDomain } from '#common/domain-name.ts'
import { tldScripts } from '#common/idna.ts'
import type { DomainStatus } from '#server/db/schema.ts'
import type { DsRecord } from '#server/db/schema-domains.ts'
import { newAuthCode, REGISTRY_THROTTLE_MESSAGE, RegistryConnectionError, RegistryError, registryErrorToAppError, type DomainInfo, type DsData } from '#server/integrations/registry/index.ts'
import { AppError, badRequest, conflict, tooManyRequests } from '#server/platform/core/errors.ts'
import { hit } from '#server/platform/core/rate-limit.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { deleteOnce, renewOnce, restoreOnce } from './idempotent.ts'
import { registerAtRegistry, requestTransfer } from './registration.ts'
import { registryFor } from '#server/platform/registries/connection.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { tldNamed } from '#server/platform/tlds/reads.ts'
import { quoteDirect, refundDomainCharges, releaseDirect, reserveDirect, settleCharge, type DirectPrice, type ExpectedPrice } from '#server/platform/billing/transactions.ts'
import { findDomain, requireDomainManager, requireDomainViewer } from './portfolio.ts'
import { subordinateHosts } from './rules.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { liveDomainNamed } from './reads.ts'

/**
 * The domain lifecycle against the registry. Every operation asks the registry first and records
 * the registry's answer afterwards, in one change() with its audit entry; when the registry
 * refuses or cannot be reached nothing changes here and the error carries the registry's message.
 * The orders and bulk jobs call these functions.
 */

export type LifecycleDeps = Pick<PlatformDeps, 'db' | 'registries' | 'now' | 'logger'>

const NAME_ERRORS: Record<DomainNameError, string> = {
  ...IDN_NAME_MESSAGES,
  empty: 'The name is empty',
  'too-long': 'The name is longer than 253 characters',
  'label-empty': 'The name has an empty label',
  'label-too-long': 'A label is longer than 63 characters',
  'label-hyphen-edge': 'A label starts or ends with a hyphen',
  'label-hyphen-34': 'A label has hyphens in places 3 and 4 but is not an xn-- label',
  'label-characters': 'A label has characters that are not allowed',
  'idn-round-trip': 'The internationalised name does not round-trip (punycode and Unicode disagree)',
  'single-label': 'The name needs a label before the TLD',
  'label-space': 'A domain name has no spaces',
  'unknown-tld': 'The TLD is not in the list of TLDs',
}

/** A failure that belongs to one item (one name, one domain): the message is shown per line. */
export type ItemError = { status: number; code: string; message: string; registry_code?: number; hosts?: string[] }

/** Registry failures as AppErrors; a time-out or broken session says so instead of a generic text. */
export function registryFailure(error: unknown): unknown {
  if (error instanceof RegistryConnectionError) {
    return new AppError(503, 'registry-unavailable', `The registry could not be reached (${error.message}); try again later`, { cause: error })
  }
  return registryErrorToAppError(error)
}

export function itemError(error: unknown): ItemError {
  const e = registryFailure(error)
  if (e instanceof AppError) {
    const { registry_code: registryCode, hosts } = (e.extra ?? {}) as { registry_code?: number; hosts?: string[] }
    return { status: e.status, code: e.code, message: e.message, ...(registryCode ? { registry_code: registryCode } : {}), ...(hosts ? { hosts } : {}) }
  }
  return { status: 500, code: 'internal', message: e instanceof Error ? e.message : String(e) }
}

async function callRegistry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw registryFailure(error)
  }
}

/** Validates a name for an operation: label rules, IANA list, and offered by us. */
export async function validateName(
  deps: Pick<LifecycleDeps, 'db'>,
  input: string,
  field = 'name',
): Promise<{ domain: ParsedDomain; tld: { name: string; periods: number[]; list_price_minor: number | null; currency: string } }> {
  const parsed = parseDomainName(input)
  if (!parsed.ok) throw badRequest(`${NAME_ERRORS[parsed.error]}: ${input}`, [{ field, message: NAME_ERRORS[parsed.error] }])
  const row = await tldNamed(deps.db, parsed.domain.tld).select(['name', 'unicode_name', 'periods', 'list_price_minor', 'currency', 'is_offered', 'idn_scripts']).executeTakeFirst()
  if (!row || !row.is_offered) throw badRequest(`.${parsed.domain.tld} is not offered`, [{ field, message: `The TLD .${parsed.domain.tld} is not offered` }])
  // The scripts the TLD takes (its catalogue entry, else the default: issue 26).
  const scriptError = checkTldScripts(parsed.domain, tldScripts(row.name, row.unicode_name, row.idn_scripts))
  if (scriptError) throw badRequest(`${NAME_ERRORS[scriptError]}: ${input}`, [{ field, message: NAME_ERRORS[scriptError] }])
  const { unicode_name: _unicode, idn_scripts: _scripts, ...tld } = row
  return { domain: parsed.domain, tld }
}

function checkPeriod(period: number, tld: { name: string; periods: number[] }, field = 'period') {
  if (!tld.periods.includes(period)) {
    throw badRequest(`.${tld.name} does not allow a period of ${period} years`, [{ field, message: `Allowed periods for .${tld.name}: ${tld.periods.join(', ')}`, allowed: tld.periods.map(String) }])
  }
}

export const dsToRecord = (d: DsData): DsRecord => ({ key_tag: d.keyTag, alg: d.alg, digest_type: d.digestType, digest: d.digest.toUpperCase() })

/** Our status from the registry's EPP and RGP statuses. */
export function statusFromRegistry(info: Pick<DomainInfo, 'statuses' | 'rgpStatuses' | 'expiresAt'>, now: Date): DomainStatus {
  if (info.rgpStatuses.includes('redemptionPeriod')) return 'redemption'
  if (info.rgpStatuses.includes('pendingDelete') || info.statuses.includes('pendingDelete')) return 'pending-delete'
  if (info.statuses.includes('pendingTransfer')) return 'transferring'
  if (info.statuses.includes('pendingCreate')) return 'pending'
  if (info.expiresAt && info.expiresAt < now) return 'expired'
  return 'active'
}

/** The columns that mirror the registry, from an info answer. */
export function registryColumns(info: DomainInfo, registry: string, now: Date) {
  return {
    registry,
    registry_roid: info.roid,
    registry_statuses: [...info.statuses].sort(),
    nameservers: info.nameservers.map((n) => n.toLowerCase()).sort(),
    ds_data: JSON.stringify(info.dsData.map(dsToRecord)),
    dnssec: info.dsData.length > 0,
    expires_at: info.expiresAt ?? null,
    status: statusFromRegistry(info, now),
    reconciled_at: now,
  }
}

function requireAccount(scope: Scope): string {
  if (!scope.accountId) throw badRequest('An account is required')
  return scope.accountId
}

async function assertNotManaged(deps: LifecycleDeps, name: string) {
  const existing = await liveDomainNamed(deps.db, name).select('id').executeTakeFirst()
  if (existing) throw conflict(`${name} is already in a portfolio`)
}

// ----------------------------------------------------------------------------- availability

export type AvailabilityResult = { name: string; available: boolean; reason?: string; price?: { minor: number; currency: string } }

/** Registry check per TLD; an invalid or unoffered name answers unavailable with the reason. */
export async function checkAvailability(deps: LifecycleDeps, scope: Scope, names: string[]): Promise<AvailabilityResult[]> {
  requireDomainViewer(scope)
  const results: AvailabilityResult[] = names.map((name) => ({ name, available: false }))
  const byTld = new Map<string, { index: number; ascii: string; price: AvailabilityResult['price'] }[]>()
  // An account's user sees the account's price (its price list, its currency, through the pricing
  // engine, decision 300) for the shortest period the TLD allows; staff without an account see
  // the TLD's list price. A TLD the list does not price shows none.
  const quoter = scope.accountId ? await accountQuoter(deps.db, scope.accountId, deps.now()) : null
  const priceOf = new Map<string, AvailabilityResult['price']>()
  for (const [index, name] of names.entries()) {
    try {
      const { domain, tld } = await validateName(deps, name)
      results[index]!.name = domain.ascii
      if (!priceOf.has(tld.name)) {
        if (!quoter) priceOf.set(tld.name, tld.list_price_minor === null ? undefined : { minor: Number(tld.list_price_minor), currency: tld.currency })
        else {
          const period = tld.periods.length ? Math.min(...tld.periods) : 1
          const quote = await quoter.quote([{ tld: tld.name, action: 'register', period }]).then(
            ([q]) => q,
            () => undefined,
          )
          priceOf.set(tld.name, quote ? { minor: quote.total_minor, currency: quote.currency } : undefined)
        }
      }
      const price = priceOf.get(tld.name)
      const list = byTld.get(domain.tld) ?? []
      list.push({ index, ascii: domain.ascii, price })
      byTld.set(domain.tld, list)
    } catch (error) {
      results[index]!.reason = itemError(error).message
    }
  }
  for (const [tld, items] of byTld) {
    try {
      const registry = registryFor(deps, tld)
      // EPP servers commonly cap a check at a few names; ask in small batches.
      for (let i = 0; i < items.length; i += 10) {
        const batch = items.slice(i, i + 10)
        const answers = await callRegistry(() => registry.checkDomains(batch.map((b) => b.ascii)))
        for (const item of batch) {
          const answer = answers.find((a) => a.name.toLowerCase() === item.ascii)
          const result = results[item.index]!
          result.available = answer?.available ?? false
          if (answer?.reason) result.reason = answer.reason
          if (result.available && item.price) result.price = item.price
        }
      }
    } catch (error) {
      for (const item of items) results[item.index]!.reason = itemError(error).message
    }
  }
  return results
}

// ----------------------------------------------------------------------------- register / transfer

export type RegisterInput = { name: string; period: number; nameservers?: string[] }

export async function registerDomain(deps: LifecycleDeps, scope: Scope, input: RegisterInput) {
  requireDomainManager(scope)
  const accountId = requireAccount(scope)
  const { domain, tld } = await validateName(deps, input.name)
  checkPeriod(input.period, tld)
  await assertNotManaged(deps, domain.ascii)
  const registry = registryFor(deps, domain.tld)
  // The one registration path (decision 026): a create whose answer is lost is recognised by its auth code, not made twice.
  const created = await callRegistry(() =>
    registerAtRegistry(registry, { name: domain.ascii, period: input.period, authCode: newAuthCode(), ...(input.nameservers ? { nameservers: input.nameservers } : {}) }),
  )
  const now = deps.now()
  // Record what the registry holds (statuses such as inactive, its dates); the create answer is
  // the fallback when the read-back fails, since the domain exists at the registry either way.
  const info = await registry.infoDomain(domain.ascii).catch(() => null)
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('domains')
      .values({
        account_id: accountId,
        name: domain.ascii,
        unicode_name: domain.unicode,
        tld: domain.tld,
        ...(info
          ? registryColumns(info, registry.registry, now)
          : { status: 'active' as const, expires_at: created.expiresAt ?? null, registry: registry.registry, nameservers: (input.nameservers ?? []).map((n) => n.toLowerCase()).sort() }),
        registered_at: created.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'domains', entityType: 'domain', entityId: row.id, action: 'register', after: { name: row.name, period: input.period, expires_at: row.expires_at } })
    await recordEvent(tx, { accountId, type: 'domain.registered', data: { id: row.id, name: row.name, expires_at: row.expires_at?.toISOString() ?? null } })
    return row
  })
}

export type TransferInput = { name: string; auth_code?: string | null; period?: number }

/** Transfer in with the auth code; pending at the registry until the losing registrar acts. */
export async function transferInDomain(deps: LifecycleDeps, scope: Scope, input: TransferInput) {
  requireDomainManager(scope)
  const accountId = requireAccount(scope)
  if (!input.auth_code?.trim()) throw badRequest('A transfer needs the auth code', [{ field: 'auth_code', message: 'Required for a transfer' }])
  const { domain, tld } = await validateName(deps, input.name)
  if (input.period !== undefined) checkPeriod(input.period, tld)
  await assertNotManaged(deps, domain.ascii)
  const registry = registryFor(deps, domain.tld)
  const transfer = await callRegistry(() => requestTransfer(registry, { name: domain.ascii, authCode: input.auth_code!.trim(), ...(input.period !== undefined ? { period: input.period } : {}) }))
  const done = transfer.status === 'serverApproved' || transfer.status === 'clientApproved'
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('domains')
      .values({
        account_id: accountId,
        name: domain.ascii,
        unicode_name: domain.unicode,
        tld: domain.tld,
        status: done ? 'active' : 'transferring',
        expires_at: transfer.expiresAt ?? null,
        registry: registry.registry,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'domains', entityType: 'domain', entityId: row.id, action: 'transfer-in', after: { name: row.name, transfer_status: transfer.status } })
    return { domain: row, transfer_status: transfer.status }
  })
}

// ----------------------------------------------------------------------------- renew

/** Statuses of ours from which a domain can be renewed. */
export const RENEWABLE_STATUSES: readonly DomainStatus[] = ['active', 'expired']

/**
 * The one renewal rule set, for the domain's own renewal and for every bulk renewal item alike:
 * its TLD still offered, a period the TLD allows, an expiry to renew from and a status that can
 * renew. Checked before anything is sent to the registry; the same error, code and message
 * whichever path asked.
 */
export async function checkRenewal(deps: Pick<LifecycleDeps, 'db'>, domain: { name: string; status: DomainStatus; expires_at: Date | null }, period: number): Promise<void> {
  const { tld } = await validateName(deps, domain.name)
  checkPeriod(period, tld)
  if (!domain.expires_at) throw conflict(`${domain.name} has no expiry date to renew from; run a reconciliation first`)
  if (!RENEWABLE_STATUSES.includes(domain.status)) throw conflict(`${domain.name} is ${domain.status} and cannot be renewed`)
}

/** What renewing a domain for `period` years charges: the one description the quote and the charge price alike. */
const renewalCharge = (domain: { id: string; account_id: string; tld: string; name: string; unicode_name: string | null; expires_at: Date | null }, period: number) => ({
  key: `renew:${domain.id}:${domain.expires_at?.toISOString() ?? ''}`,
  accountId: domain.account_id,
  tld: domain.tld,
  action: 'renew',
  period,
  objectName: domain.unicode_name ?? domain.name,
  domainId: domain.id,
})

/** What a direct action on a domain would charge now (issue 28): shown and confirmed before the charge. */
export type DirectQuote = {
  action: 'renew' | 'restore' | 'registry-lock'
  domain_id: string
  name: string
  period: number
  price: { amount_minor: number; currency: string } | null
  quote: Record<string, unknown> | null
}

const directQuote = (action: DirectQuote['action'], domain: { id: string; name: string; unicode_name: string | null }, period: number, price: DirectPrice): DirectQuote => ({
  action,
  domain_id: domain.id,
  name: domain.unicode_name ?? domain.name,
  period,
  price: price ? { amount_minor: price.amount_minor, currency: price.currency } : null,
  quote: price ? (price.quote as unknown as Record<string, unknown>) : null,
})

/** The price a renewal for `period` years charges now, under the renewal's own rules (read-only: nothing is reserved). */
export async function quoteRenewal(deps: LifecycleDeps, scope: Scope, domainId: string, period: number): Promise<DirectQuote> {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  await checkRenewal(deps, domain, period)
  return directQuote('renew', domain, period, await quoteDirect(deps.db, renewalCharge(domain, period)))
}

/**
 * Renews at the registry. `expected` is the price the person confirmed (the quote above): when the
 * charge's own quote is now otherwise, nothing is charged or renewed (409 billing.quote_changed).
 */
export async function renewDomain(deps: LifecycleDeps, scope: Scope, domainId: string, period: number, expected?: ExpectedPrice) {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  await checkRenewal(deps, domain, period)
  const registry = registryFor(deps, domain.tld)
  // Charged before the registry is asked (refused past the balance or credit limit), settled with
  // the new expiry, released if the registry refuses (issue 18).
  const charge = await reserveDirect(deps.db, scope, { ...renewalCharge(domain, period), ...(expected !== undefined ? { expected } : {}) })
  // Renewed once: a renewal the registry already made (its answer lost, our record not written)
  // is recorded from the registry's expiry instead of refused or made twice (decision 102).
  const renewed = await callRegistry(() => renewOnce(registry, { name: domain.name, from: domain.expires_at!, years: period })).catch(async (error: unknown) => {
    await releaseDirect(deps.db, scope, charge, error instanceof Error ? error.message : String(error))
    throw error
  })
  return change(deps.db, scope, async (tx, audit) => {
    if (charge) await settleCharge(tx, scope, charge, domain.id, deps.now())
    const row = await tx
      .updateTable('domains')
      .set((eb) => ({ expires_at: renewed.expiresAt, status: 'active', version: eb('version', '+', 1), updated_at: deps.now() }))
      .where('id', '=', domain.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: row.id,
      accountId: row.account_id,
      action: 'renew',
      before: { expires_at: domain.expires_at },
      after: { expires_at: row.expires_at, period },
    })
    await recordEvent(tx, { accountId: row.account_id, type: 'domain.renewed', data: { id: row.id, name: row.name, expires_at: row.expires_at?.toISOString() ?? null, period } })
    return row
  })
}

// ----------------------------------------------------------------------------- delete / restore

export type DeletionOutcome = 'add-grace-refund' | 'deleted' | 'redemption' | 'pending-delete'

/**
 * Deletes at the registry under RFC 3915: inside the add grace period the name is gone at once
 * and refunded; otherwise it enters redemption (restorable), then pending delete, then is purged.
 */
export async function deleteDomain(deps: LifecycleDeps, scope: Scope, domainId: string): Promise<{ id: string; name: string; outcome: DeletionOutcome; message: string }> {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  if (domain.registry_lock) throw conflict(`${domain.name} is registry-locked; unlock it before deleting`)
  if (['redemption', 'pending-delete'].includes(domain.status)) throw conflict(`${domain.name} is already being deleted`)
  const registry = registryFor(deps, domain.tld)
  // A delete that already ran (gone, or in redemption) is recorded, not refused.
  let result: Awaited<ReturnType<typeof deleteOnce>>
  try {
    result = await deleteOnce(registry, domain.name)
  } catch (error) {
    // Host objects under the domain exist at the registry (RFC 5731 §3.2.2): refused, naming them.
    if (error instanceof RegistryError && error.code === 2305) {
      const hosts = await registry.infoDomain(domain.name).then(
        (info) => info.hosts,
        () => [],
      )
      throw subordinateHosts(domain.name, hosts, error)
    }
    throw registryFailure(error)
  }
  let outcome: DeletionOutcome
  let status: DomainStatus
  if (result.immediate) {
    outcome = result.refunded ? 'add-grace-refund' : 'deleted'
    status = 'deleted'
  } else {
    // Read back what the registry made of it; the delete already happened, so a failed read only
    // means we assume the usual redemption state.
    const info = await registry.infoDomain(domain.name).catch(() => null)
    status = info ? statusFromRegistry(info, deps.now()) : 'redemption'
    if (status !== 'pending-delete') status = 'redemption'
    outcome = status
  }
  await change(deps.db, scope, async (tx, audit) => {
    await tx
      .updateTable('domains')
      .set((eb) => ({ status, deletion_requested_at: deps.now(), auto_renew: false, version: eb('version', '+', 1), updated_at: deps.now() }))
      .where('id', '=', domain.id)
      .execute()
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: domain.id,
      accountId: domain.account_id,
      action: 'delete',
      before: { status: domain.status },
      after: { status, outcome, registry_message: result.message },
    })
    // Deleted inside the add grace period: the registration is credited back (issue 18).
    if (outcome === 'add-grace-refund') await refundDomainCharges(tx, scope, domain.id, 'Deleted within the add grace period')
    await recordEvent(tx, { accountId: domain.account_id, type: 'domain.deleted', data: { id: domain.id, name: domain.name, status, outcome } })
  })
  return { id: domain.id, name: domain.name, outcome, message: result.message }
}

export type BulkDeletion = { id: string; ok: boolean; name?: string; outcome?: DeletionOutcome; message?: string; error?: ItemError }

/** Deletes each domain on its own: one refusal never stops or undoes the others. */
export async function deleteDomains(deps: LifecycleDeps, scope: Scope, ids: string[]): Promise<BulkDeletion[]> {
  requireDomainManager(scope)
  const results: BulkDeletion[] = []
  for (const id of ids) {
    try {
      const done = await deleteDomain(deps, scope, id)
      results.push({ id, ok: true, name: done.name, outcome: done.outcome, message: done.message })
    } catch (error) {
      results.push({ id, ok: false, error: itemError(error) })
    }
  }
  return results
}

/** What restoring a domain charges: the restore fee, priced as a renewal is (issue 18), for the quote and the charge alike. */
const restoreCharge = (domain: { id: string; account_id: string; tld: string; name: string; unicode_name: string | null; deletion_requested_at: Date | null }) => ({
  key: `restore:${domain.id}:${domain.deletion_requested_at?.toISOString() ?? ''}`,
  accountId: domain.account_id,
  tld: domain.tld,
  action: 'restore',
  period: 1,
  objectName: domain.unicode_name ?? domain.name,
  domainId: domain.id,
})

function checkRestorable(domain: { name: string; status: DomainStatus }) {
  if (domain.status !== 'redemption') throw conflict(`${domain.name} is ${domain.status}; only a domain in redemption can be restored`)
}

/** The restore fee charged now (read-only: nothing is reserved). */
export async function quoteRestore(deps: LifecycleDeps, scope: Scope, domainId: string): Promise<DirectQuote> {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  checkRestorable(domain)
  return directQuote('restore', domain, 1, await quoteDirect(deps.db, restoreCharge(domain)))
}

/**
 * The fee turning the registry lock on charges now (the registry-lock action of the price list;
 * none where it prices none), read-only: the PATCH that locks charges it, held to the price confirmed.
 */
export async function quoteRegistryLock(deps: LifecycleDeps, scope: Scope, domainId: string): Promise<DirectQuote> {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  const price = await quoteDirect(deps.db, { accountId: domain.account_id, tld: domain.tld, action: 'registry-lock', period: 1, unpricedIsFree: true })
  return directQuote('registry-lock', domain, 1, price)
}

/** RGP restore (RFC 3915) of a domain in redemption; it comes back active with its expiry. `expected` as for a renewal. */
export async function restoreDomain(deps: LifecycleDeps, scope: Scope, domainId: string, expected?: ExpectedPrice) {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  checkRestorable(domain)
  const registry = registryFor(deps, domain.tld)
  // The restore fee, charged as a renewal is (issue 18): reserved first, settled with the restore.
  const charge = await reserveDirect(deps.db, scope, { ...restoreCharge(domain), ...(expected !== undefined ? { expected } : {}) })
  await callRegistry(() => restoreOnce(registry, domain.name)).catch(async (error: unknown) => {
    await releaseDirect(deps.db, scope, charge, error instanceof Error ? error.message : String(error))
    throw error
  })
  const info = await registry.infoDomain(domain.name).catch(() => null)
  return change(deps.db, scope, async (tx, audit) => {
    if (charge) await settleCharge(tx, scope, charge, domain.id)
    const row = await tx
      .updateTable('domains')
      .set((eb) => ({
        ...(info ? registryColumns(info, registry.registry, deps.now()) : { status: 'active' as const }),
        deletion_requested_at: null,
        version: eb('version', '+', 1),
        updated_at: deps.now(),
      }))
      .where('id', '=', domain.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: row.id,
      accountId: row.account_id,
      action: 'restore',
      before: { status: domain.status },
      after: { status: row.status, expires_at: row.expires_at },
    })
    return row
  })
}

// ----------------------------------------------------------------------------- info / auth code

/** Live registry lookups (registrar.domain.info) one user or token may make in a minute. */
export const LIVE_LOOKUPS_PER_MINUTE = 10

/** The registry's view of one of our domains (platform call registrar.domain.info). */
export async function registryInfo(deps: LifecycleDeps, scope: Scope, name: string) {
  requireDomainViewer(scope)
  const parsed = parseDomainName(name)
  if (!parsed.ok) throw badRequest(NAME_ERRORS[parsed.error], [{ field: 'domain', message: NAME_ERRORS[parsed.error] }])
  let query = liveDomainNamed(deps.db, parsed.domain.ascii).select(['id', 'name', 'tld'])
  if (scope.accountId) query = query.where('account_id', '=', scope.accountId)
  const domain = await query.executeTakeFirst()
  if (!domain) throw new AppError(404, 'not-found', 'Domain not found')
  // A live lookup costs a registry command: a person gets LIVE_LOOKUPS_PER_MINUTE a minute, then
  // the throttle's 429 (spec §8: the portal says it in a toast), counted in the database for every process.
  const who = scope.actor.token ? `token:${scope.actor.token.id}` : (scope.actor.userId ?? scope.actor.label)
  await hit(deps.db, `registry-info:${who}`, LIVE_LOOKUPS_PER_MINUTE, 60, deps.now()).catch((error: unknown) => {
    throw error instanceof AppError && error.status === 429 ? tooManyRequests(Number(error.extra?.retry_after ?? 60), REGISTRY_THROTTLE_MESSAGE) : error
  })
  const registry = registryFor(deps, domain.tld)
  const info = await callRegistry(() => registry.infoDomain(domain.name))
  // The auth code is only ever handed out through the audited auth-code request.
  const { authInfo: _secret, ...rest } = info
  return rest
}

/** Reveals the transfer auth code (audited): read from the registry, we do not keep it. */
export async function revealAuthCode(deps: LifecycleDeps, scope: Scope, domainId: string): Promise<{ auth_code: string }> {
  requireDomainManager(scope)
  const domain = await findDomain(deps.db, scope, domainId)
  const registry = registryFor(deps, domain.tld)
  const info = await callRegistry(() => registry.infoDomain(domain.name))
  if (!info.authInfo) throw new AppError(502, 'registry-error', 'The registry did not return an auth code')
  await change(deps.db, scope, async (_tx, audit) => {
    await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, accountId: domain.account_id, action: 'auth-code-revealed' })
  })
  return { auth_code: info.authInfo }
}

// ----------------------------------------------------------------------------- DNSSEC delegation

/**
 * A DS of PowerDNS's presentation form ("keytag alg digesttype digest") as the registry takes it.
 * SHA-1 digests (type 1) are left out: RFC 8624 says they MUST NOT be used.
 */
export function dsFromText(text: string): DsData | null {
  const [keyTag, alg, digestType, ...digest] = text.trim().split(/\s+/)
  const numbers = [keyTag, alg, digestType].map(Number)
  if (numbers.some((n) => !Number.isInteger(n)) || !digest.length || numbers[2] === 1) return null
  return { keyTag: numbers[0]!, alg: numbers[1]!, digestType: numbers[2]!, digest: digest.join('').toUpperCase() }
}

/**
 * Puts a signed zone's DS records at the parent through EPP secDNS-1.1 — every DS the registry held
 * removed and the new set added in one update — then records them on the domain with an audit
 * entry. An empty list removes every DS: the first step of turning DNSSEC off. A TLD served by no
 * registry connection has nowhere to send it: the DS stays on the DNSSEC tab to be given to the
 * registry by hand, and the answer says so.
 */
export async function setDelegationSigner(deps: LifecycleDeps, domainId: string, dsTexts: string[], label = 'dnssec'): Promise<{ published: boolean }> {
  const domain = await deps.db.selectFrom('domains').select(['id', 'account_id', 'name', 'tld', 'ds_data']).where('id', '=', domainId).executeTakeFirst()
  if (!domain) return { published: false }
  const registry = deps.registries?.forTld(domain.tld) ?? null
  if (!registry) {
    deps.logger.warn('no registry connection for the DS of a signed zone', { domain: domain.name })
    return { published: false }
  }
  // One digest per key is enough for validators: SHA-256 (mandatory to implement, RFC 8624), or
  // whatever else is offered when a key has none.
  const parsed = dsTexts.map(dsFromText).filter((d): d is DsData => d !== null)
  const ds = parsed.filter((d) => d.digestType === 2 || !parsed.some((o) => o.keyTag === d.keyTag && o.alg === d.alg && o.digestType === 2))
  await callRegistry(() => registry.updateDomain({ name: domain.name, dsData: ds.length ? { removeAll: true, add: ds } : { removeAll: true } }))
  const records = ds.map(dsToRecord)
  await change(deps.db, systemScope(label, domain.account_id), async (tx, audit) => {
    await tx
      .updateTable('domains')
      .set({ ds_data: JSON.stringify(records), updated_at: deps.now() })
      .where('id', '=', domain.id)
      .execute()
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: domain.id,
      accountId: domain.account_id,
      action: records.length ? 'ds-published' : 'ds-removed',
      before: { ds_data: domain.ds_data },
      after: { ds_data: records },
    })
  })
  return { published: true }
}

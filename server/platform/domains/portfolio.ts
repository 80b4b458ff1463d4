import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { DsRecord } from '#server/db/schema-domains.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { domainTagCondition } from '#server/platform/api-tokens/edge.ts'
import { billingEntityOfAccount } from '#server/platform/accounts/reads.ts'
import { domainContactCards, joinRegistrant } from '#server/platform/contacts/reads.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { DIFFERENCES_LIST, DOMAIN_STATUSES, DOMAINS_LIST, type DomainStatus } from '#common/lists/domains.ts'
import { REGISTRAR_LOCK_STATUS } from '#common/vocabulary.ts'
import { liveDomains, liveDomainSql } from './reads.ts'

export { DOMAIN_STATUSES }

/** Read permission of the portfolio; staff holds every permission through can(). */
export const requireDomainViewer = (scope: Scope) => requirePermission(scope.actor, 'domain-viewer')
export const requireDomainManager = (scope: Scope) => requirePermission(scope.actor, 'domain-manager')

/**
 * The portfolio list (contract fields). The registrant comes from a LEFT JOIN on the primary key
 * of domain_contacts (domain_id, role), so it costs one index probe per row returned.
 */
export const domainsResource = listResource(DOMAINS_LIST, {
  from: `domains d
    ${joinRegistrant('dcr', 'rc', 'd.id')}`,
  tiebreak: 'd.id',
  where: liveDomainSql('d'),
  versioned: 'domains',
  columns: {
    id: 'd.id',
    // Names are stored lowercase (A-labels); the Unicode form keeps ILIKE.
    name: { column: 'd.name', lowercase: true },
    unicode_name: 'd.unicode_name',
    tld: { column: 'd.tld', lowercase: true },
    status: 'd.status',
    expires_at: 'd.expires_at',
    auto_renew: 'd.auto_renew',
    registry_lock: 'd.registry_lock',
    registrar_lock: `('${REGISTRAR_LOCK_STATUS}' = ANY(d.registry_statuses))`,
    dnssec: 'd.dnssec',
    tags: 'd.tags',
    registrant_name: { column: 'rc.name', joined: true },
    created_at: 'd.created_at',
    updated_at: 'd.updated_at',
    group_id: 'd.account_id',
    // The account's, not the domain's: a change of who pays moves no domain's list version.
    billing_entity: { column: billingEntityOfAccount('d.account_id'), joined: true },
  },
})

/** The list as a scope sees it: one account, or every account for staff in their own group. */
export function domainsResourceFor(scope: Scope): ListResource {
  const resource = reachOf(scope) === null ? domainsResource : { ...domainsResource, accountColumn: 'd.account_id' }
  // An API token bound to domains by tag lists those only (its list keys are not the account's).
  const tagged = domainTagCondition(scope.actor, 'd.tags')
  return tagged ? { ...resource, where: `${resource.where} AND ${tagged}`, versioned: undefined } : resource
}

export const differencesResource = listResource(DIFFERENCES_LIST, {
  from: 'domain_differences x JOIN domains d ON d.id = x.domain_id',
  tiebreak: 'x.id',
  where: 'x.resolved_at IS NULL',
  columns: {
    id: 'x.id',
    domain_id: 'x.domain_id',
    domain_name: 'd.name',
    field: 'x.field',
    ours: 'x.ours',
    registry: 'x.registry',
    detected_at: 'x.detected_at',
  },
})

export function differencesResourceFor(scope: Scope): ListResource {
  return reachOf(scope) === null ? differencesResource : { ...differencesResource, accountColumn: 'x.account_id' }
}

/** One domain the scope may see; another account's id answers 404 like an unknown one. */
export async function findDomain(db: Kysely<DB>, scope: Scope, id: string) {
  let query = liveDomains(db).selectAll().where('id', '=', id)
  const reach = reachOf(scope)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const domain = await query.executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  return domain
}

export type ContactSummary = { id: string; name: string; organisation: string; email: string }

export type DomainDetail = {
  id: string
  account_id: string
  name: string
  unicode_name: string
  tld: string
  status: DomainStatus
  expires_at: string | null
  auto_renew: boolean
  registry_lock: boolean
  dnssec: boolean
  tags: string[]
  is_material: boolean
  registrant_name: string | null
  created_at: string
  updated_at: string
  registered_at: string | null
  version: number
  statuses: string[]
  nameservers: string[]
  contacts: Record<(typeof CONTACT_ROLES)[number], ContactSummary | null>
  ds: DsRecord[]
  reconciliation: { checked_at: string | null; differences: { field: string; ours: string; registry: string; detected_at: string }[] }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export async function getDomainDetail(db: Kysely<DB>, scope: Scope, id: string): Promise<DomainDetail> {
  const domain = await findDomain(db, scope, id)
  const [contacts, differences] = await Promise.all([
    domainContactCards(db, domain.id),
    db.selectFrom('domain_differences').select(['field', 'ours', 'registry', 'detected_at']).where('domain_id', '=', domain.id).where('resolved_at', 'is', null).orderBy('field').execute(),
  ])
  const byRole = Object.fromEntries(CONTACT_ROLES.map((role) => [role, null])) as DomainDetail['contacts']
  for (const c of contacts) byRole[c.role as (typeof CONTACT_ROLES)[number]] = { id: c.id, name: c.name, organisation: c.organisation, email: c.email }
  return {
    id: domain.id,
    account_id: domain.account_id,
    name: domain.name,
    unicode_name: domain.unicode_name,
    tld: domain.tld,
    status: domain.status,
    expires_at: iso(domain.expires_at),
    auto_renew: domain.auto_renew,
    registry_lock: domain.registry_lock,
    dnssec: domain.dnssec,
    tags: domain.tags,
    is_material: domain.is_material,
    registrant_name: byRole.registrant?.name ?? null,
    created_at: domain.created_at.toISOString(),
    updated_at: domain.updated_at.toISOString(),
    registered_at: iso(domain.registered_at),
    version: domain.version,
    statuses: domain.registry_statuses,
    nameservers: domain.nameservers,
    contacts: byRole,
    ds: domain.ds_data,
    reconciliation: {
      checked_at: iso(domain.reconciled_at),
      differences: differences.map((d) => ({ field: d.field, ours: d.ours, registry: d.registry, detected_at: new Date(d.detected_at).toISOString() })),
    },
  }
}

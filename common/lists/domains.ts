import { listCatalogue } from '../list-catalogue.ts'

/** Field catalogues of the domain lists: the portfolio and the reconciliation's differences. */

/** Statuses of a domain in our records (migration 0001). */
export const DOMAIN_STATUSES = ['pending', 'active', 'expired', 'redemption', 'pending-delete', 'transferring', 'deleted'] as const
export type DomainStatus = (typeof DOMAIN_STATUSES)[number]
/** The statuses the portfolio lists (a deleted domain leaves it). */
export const LISTED_DOMAIN_STATUSES = DOMAIN_STATUSES.filter((s) => s !== 'deleted')

/** What the reconciliation compares between our records and the registry's. */
export const DIFFERENCE_FIELDS = ['exists', 'expires_at', 'statuses', 'nameservers', 'ds'] as const

export const DOMAINS_LIST = listCatalogue({
  name: 'domains',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    unicode_name: { type: 'text', filterable: true, sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: LISTED_DOMAIN_STATUSES },
    expires_at: { type: 'timestamp', filterable: true, sortable: true },
    auto_renew: { type: 'boolean', filterable: true, sortable: true },
    registry_lock: { type: 'boolean', filterable: true, sortable: true },
    /** The registry reports the registrar's transfer lock (clientTransferProhibited) at the last sync. */
    registrar_lock: { type: 'boolean', filterable: true },
    dnssec: { type: 'boolean', filterable: true, sortable: true },
    tags: { type: 'tags', filterable: true, sortable: true },
    registrant_name: { type: 'text', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
    /** The domain's account: staff looking across accounts see whose each domain is. */
    group_id: { type: 'uuid', filterable: true },
    /** The billing entity paying for the domain's account (the renewals forecast's figures by who pays). */
    billing_entity: { type: 'uuid', filterable: true },
  },
})

export const DIFFERENCES_LIST = listCatalogue({
  name: 'reconciliation-differences',
  defaultSort: '-detected_at',
  fields: {
    id: { type: 'uuid', filterable: true, sortable: true },
    domain_id: { type: 'uuid', filterable: true, sortable: true },
    domain_name: { type: 'text', filterable: true, sortable: true },
    field: { type: 'enum', filterable: true, sortable: true, choices: DIFFERENCE_FIELDS },
    ours: { type: 'text', filterable: true, sortable: true },
    registry: { type: 'text', filterable: true, sortable: true },
    detected_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

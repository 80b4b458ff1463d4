import { listCatalogue } from '../list-catalogue.ts'
import { AUDIT_LIST } from './audit.ts'

/** Field catalogues of the DNS lists: zones, records (a zone's and the record search) and a zone's log. */

/** The record types we store and publish (SOA is the zone's own, never edited as a record). */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS', 'PTR', 'DS', 'TLSA', 'SSHFP', 'NAPTR', 'HTTPS', 'SVCB', 'SOA'] as const
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number]
/** The types a person adds or edits in the record editor. */
export const EDITABLE_RECORD_TYPES = DNS_RECORD_TYPES.filter((type): type is Exclude<DnsRecordType, 'SOA'> => type !== 'SOA')

export const ZONE_PUBLISH_STATES = ['pending', 'published', 'failed'] as const
export const ZONE_DNSSEC_STATES = ['unsigned', 'signing', 'signed', 'unsigning'] as const

export const DNS_ZONES_LIST = listCatalogue({
  name: 'dns-zones',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    domain_id: { type: 'uuid', filterable: true },
    serial: { type: 'integer', sortable: true },
    publish_state: { type: 'enum', filterable: true, sortable: true, choices: ZONE_PUBLISH_STATES },
    last_error: { type: 'text' },
    dnssec_state: { type: 'enum', filterable: true, sortable: true, choices: ZONE_DNSSEC_STATES },
    // Issue 26: false while a name hosted elsewhere waits for its proof of control (not published).
    verified: { type: 'boolean', filterable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** Records across every zone of the account: the record search and each zone's record list. */
export const DNS_RECORDS_LIST = listCatalogue({
  name: 'dns-records',
  defaultSort: 'name,type,priority,content',
  fields: {
    id: { type: 'uuid', filterable: true },
    zone_id: { type: 'uuid', filterable: true },
    'zone.name': { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    type: { type: 'enum', filterable: true, sortable: true, choices: DNS_RECORD_TYPES },
    ttl: { type: 'integer', filterable: true, sortable: true },
    content: { type: 'text', filterable: true, sortable: true },
    priority: { type: 'integer', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** The DNS log of one zone: the audit trail's fields, area dns, and the zone an entry is about. */
export const DNS_ZONE_LOG_LIST = listCatalogue({
  name: 'dns-zone-log',
  defaultSort: '-created_at',
  fields: {
    ...AUDIT_LIST.fields,
    area: { type: 'enum', filterable: true, sortable: true, choices: ['dns'] },
    zone_id: { type: 'text', filterable: true },
  },
})

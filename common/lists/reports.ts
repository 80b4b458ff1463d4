import { listCatalogue } from '../list-catalogue.ts'
import { DMARC_POSTURES, DRIFT_STATES, SPF_POSTURES } from '../reports.ts'
import { DNS_RECORDS_LIST, DNS_ZONES_LIST } from './dns.ts'

/**
 * The zones of the DNS report (/reports/dns): the zone list's fields with each zone's posture —
 * SPF's `all`, DMARC's policy, CAA and the CAs it names, MX, drift from PowerDNS, its record count —
 * so every figure of the report is the total of this list filtered (common/reports.ts).
 */
export const REPORT_ZONES_LIST = listCatalogue({
  name: 'report-zones',
  defaultSort: 'name',
  fields: {
    ...DNS_ZONES_LIST.fields,
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    drift: { type: 'enum', filterable: true, sortable: true, choices: DRIFT_STATES },
    spf: { type: 'enum', filterable: true, sortable: true, choices: SPF_POSTURES },
    dmarc: { type: 'enum', filterable: true, sortable: true, choices: DMARC_POSTURES },
    caa: { type: 'boolean', filterable: true, sortable: true },
    caa_issuers: { type: 'text', filterable: true },
    mx: { type: 'boolean', filterable: true, sortable: true },
    records: { type: 'integer', filterable: true, sortable: true },
  },
})

/**
 * The records of the DNS records report (/reports/dns-records): the record search's fields with the
 * account each belongs to, so staff reading every account's records open a zone in its account.
 */
export const REPORT_RECORDS_LIST = listCatalogue({
  name: 'report-dns-records',
  defaultSort: DNS_RECORDS_LIST.defaultSort,
  fields: {
    ...DNS_RECORDS_LIST.fields,
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
  },
})

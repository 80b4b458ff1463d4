import { CANDIDATE_STATUSES, FUZZERS } from '../brand.ts'
import { listCatalogue } from '../list-catalogue.ts'

/**
 * The field catalogue of the lookalike engine's answer, `GET /v1/lookalikes` (issue 30): candidates
 * made for the request, filtered, sorted and paged by the list engine like any stored list.
 */
export const LOOKALIKES_LIST = listCatalogue({
  name: 'lookalikes',
  defaultSort: '-score',
  fields: {
    domain: { type: 'text', filterable: true, sortable: true },
    ascii: { type: 'text', filterable: true, sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    fuzzers: { type: 'tags', filterable: true, choices: FUZZERS },
    score: { type: 'integer', filterable: true, sortable: true },
    registrable: { type: 'boolean', filterable: true, sortable: true },
    registers: { type: 'text', filterable: true, sortable: true },
  },
})

/** An account's brands (/brand-protection). */
export const BRANDS_LIST = listCatalogue({
  name: 'brands',
  defaultSort: 'label',
  fields: {
    id: { type: 'uuid', filterable: true },
    label: { type: 'text', filterable: true, sortable: true },
    domains: { type: 'tags', filterable: true },
    fuzzers: { type: 'tags', filterable: true, choices: FUZZERS },
    dictionary: { type: 'tags', filterable: true },
    candidates: { type: 'integer', sortable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** The candidates of an account's brands (/brand-protection), with what is known of each. */
export const BRAND_CANDIDATES_LIST = listCatalogue({
  name: 'brand-candidates',
  defaultSort: '-score,name',
  fields: {
    id: { type: 'uuid', filterable: true },
    brand_id: { type: 'uuid', filterable: true },
    'brand.label': { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    unicode_name: { type: 'text', filterable: true, sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    fuzzers: { type: 'tags', filterable: true, choices: FUZZERS },
    score: { type: 'integer', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: CANDIDATE_STATUSES },
    price_minor: { type: 'integer', filterable: true, sortable: true },
    currency: { type: 'text', filterable: true },
    mx: { type: 'boolean', filterable: true },
    certificates: { type: 'integer', filterable: true, sortable: true },
    registrar: { type: 'text', filterable: true, sortable: true },
    new: { type: 'boolean', filterable: true, sortable: true },
    changed_by: { type: 'enum', filterable: true, choices: ['ct', 'zone'] },
    changed_at: { type: 'timestamp', filterable: true, sortable: true },
    first_seen_at: { type: 'timestamp', filterable: true, sortable: true },
    checked_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

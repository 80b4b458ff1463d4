import { listCatalogue } from '../list-catalogue.ts'
import { PRICING_RULE_KINDS, PRODUCT_KINDS, RULE_LEVELS } from '../pricing.ts'

/** Field catalogues of the products and pricing lists (issue 17). */

export const PRODUCTS_LIST = listCatalogue({
  name: 'products',
  defaultSort: 'code',
  fields: {
    id: { type: 'uuid', filterable: true },
    code: { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    kind: { type: 'enum', filterable: true, sortable: true, choices: PRODUCT_KINDS },
    action: { type: 'text', filterable: true, sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    tags: { type: 'tags', filterable: true },
    periods: { type: 'json' },
    is_active: { type: 'boolean', filterable: true, sortable: true },
    registrar_template_id: { type: 'uuid', filterable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const PRICING_ENTITIES_LIST = listCatalogue({
  name: 'pricing-entities',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    currencies: { type: 'tags', filterable: true },
    is_default: { type: 'boolean', filterable: true, sortable: true },
    notice_days: { type: 'integer', filterable: true, sortable: true },
    accounts: { type: 'integer', sortable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const PRICING_RULES_LIST = listCatalogue({
  name: 'pricing-rules',
  defaultSort: 'rule_name',
  fields: {
    id: { type: 'uuid', filterable: true },
    rule_name: { type: 'text', filterable: true, sortable: true },
    level: { type: 'enum', filterable: true, sortable: true, choices: RULE_LEVELS },
    is_custom: { type: 'boolean', filterable: true },
    pricing_entity_id: { type: 'uuid', filterable: true },
    'pricing_entity.name': { type: 'text', filterable: true, sortable: true },
    product_id: { type: 'uuid', filterable: true },
    'product.code': { type: 'text', filterable: true, sortable: true },
    selector: { type: 'json' },
    kind: { type: 'enum', filterable: true, sortable: true, choices: PRICING_RULE_KINDS },
    params: { type: 'json' },
    currency: { type: 'text', filterable: true, sortable: true },
    starts_at: { type: 'timestamp', filterable: true, sortable: true },
    ends_at: { type: 'timestamp', filterable: true, sortable: true },
    below_cost_reason: { type: 'text' },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const REGISTRAR_TEMPLATES_LIST = listCatalogue({
  name: 'registrar-templates',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    products: { type: 'integer', sortable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

import { listCatalogue } from '../list-catalogue.ts'

/** Field catalogue of the order list (/domains/orders and a domain's orders tab). */

export const ORDER_STATES = ['pending', 'processing', 'completed', 'failed', 'cancelled', 'partial'] as const
export type OrderState = (typeof ORDER_STATES)[number]

export const ORDERS_LIST = listCatalogue({
  name: 'orders',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    state: { type: 'enum', filterable: true, sortable: true, choices: ORDER_STATES },
    names: { type: 'text', filterable: true, sortable: true },
    /** Exact item names (ASCII), for "orders containing this domain": equals is array overlap. */
    item_name: { type: 'tags', filterable: true },
    item_count: { type: 'integer', filterable: true, sortable: true },
    completed_count: { type: 'integer', filterable: true, sortable: true },
    failed_count: { type: 'integer', filterable: true, sortable: true },
    totals: { type: 'text' },
    total_text: { type: 'text', sortable: true },
    created_by: { type: 'text', filterable: true, sortable: true },
    /** The account (staff in their own group read every account's orders; each opens in its account). */
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

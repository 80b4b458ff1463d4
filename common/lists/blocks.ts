import { BLOCK_STATES } from '../blocks.ts'
import { listCatalogue } from '../list-catalogue.ts'

/** The field catalogue of /blocks (decision 016): the API's list resource and the portal's columns. */
export const BLOCKS_LIST = listCatalogue({
  name: 'blocks',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    label: { type: 'text', filterable: true, sortable: true },
    label_unicode: { type: 'text', filterable: true, sortable: true },
    product_code: { type: 'text', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: BLOCK_STATES },
    trademark_ref: { type: 'text', filterable: true, sortable: true },
    period_years: { type: 'integer', filterable: true, sortable: true },
    covered_tlds: { type: 'text', filterable: true },
    expires_at: { type: 'timestamp', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

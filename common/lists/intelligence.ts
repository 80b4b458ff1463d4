import { ITEM_KINDS, RUN_STATUSES, SCHEDULES } from '../intelligence.ts'
import { listCatalogue } from '../list-catalogue.ts'

/** The intelligence items (/intelligence, issue 32): a client's brand or a prospect's, with its last run. */
export const INTELLIGENCE_ITEMS_LIST = listCatalogue({
  name: 'intelligence-items',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    kind: { type: 'enum', filterable: true, sortable: true, choices: ITEM_KINDS },
    brand: { type: 'text', filterable: true, sortable: true },
    strings: { type: 'tags', filterable: true },
    schedule: { type: 'enum', filterable: true, sortable: true, choices: SCHEDULES },
    last_status: { type: 'enum', filterable: true, sortable: true, choices: RUN_STATUSES },
    last_run_at: { type: 'timestamp', filterable: true, sortable: true },
    covered: { type: 'integer', filterable: true, sortable: true },
    exposed: { type: 'integer', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

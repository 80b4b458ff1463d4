import { listCatalogue } from '../list-catalogue.ts'

/** Field catalogues of the tray's two lists: its domains (/tray) and its DNS records (/tray/records). */

export const TRAY_ENTITY_TYPES = ['domain', 'record'] as const
export type TrayEntityType = (typeof TRAY_ENTITY_TYPES)[number]

/** What every tray row has: the entity's id and type, and when it was added. */
const TRAY_ITEM = {
  id: { type: 'uuid', filterable: true },
  entity_type: { type: 'enum', filterable: true, choices: TRAY_ENTITY_TYPES },
  added_at: { type: 'timestamp', filterable: true, sortable: true },
} as const

export const TRAY_DOMAINS_LIST = listCatalogue({
  name: 'tray-domains',
  defaultSort: 'added_at',
  fields: {
    ...TRAY_ITEM,
    name: { type: 'text', filterable: true, sortable: true },
    unicode_name: { type: 'text', sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    status: { type: 'text', filterable: true, sortable: true },
    expires_at: { type: 'timestamp', filterable: true, sortable: true },
    auto_renew: { type: 'boolean', filterable: true, sortable: true },
    registry_lock: { type: 'boolean', filterable: true, sortable: true },
    is_material: { type: 'boolean', filterable: true, sortable: true },
  },
})

export const TRAY_RECORDS_LIST = listCatalogue({
  name: 'tray-records',
  defaultSort: 'added_at',
  fields: {
    ...TRAY_ITEM,
    name: { type: 'text', filterable: true, sortable: true },
    type: { type: 'text', filterable: true, sortable: true },
    content: { type: 'text', filterable: true, sortable: true },
    ttl: { type: 'integer', filterable: true, sortable: true },
    zone: { type: 'text', filterable: true, sortable: true },
  },
})

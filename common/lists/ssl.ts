import { listCatalogue } from '../list-catalogue.ts'
import { SSL_ORGANISATION_STATES, SSL_PRODUCT_IDS, SSL_STATES } from '../ssl.ts'

/** The field catalogue of /ssls (decision 016): the API's list resource and the portal's columns. */
export const SSL_CERTIFICATES_LIST = listCatalogue({
  name: 'ssl-certificates',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    common_name: { type: 'text', filterable: true, sortable: true },
    names: { type: 'text', filterable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: SSL_STATES },
    product: { type: 'enum', filterable: true, sortable: true, choices: SSL_PRODUCT_IDS },
    ca: { type: 'text', filterable: true, sortable: true },
    key_type: { type: 'text', filterable: true },
    /** Where it came from: its term's first order, a renewal, a reissue or an import (the SSL report's failed renewals). */
    origin: { type: 'enum', filterable: true, sortable: true, choices: ['order', 'renewal', 'reissue', 'import'] },
    not_after: { type: 'timestamp', filterable: true, sortable: true },
    issued_at: { type: 'timestamp', filterable: true, sortable: true },
    term_id: { type: 'uuid', filterable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** The field catalogue of /ssls/organisations (OV/EV organisations and their validation state). */
export const SSL_ORGANISATIONS_LIST = listCatalogue({
  name: 'ssl-organisations',
  defaultSort: 'legal_name',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    legal_name: { type: 'text', filterable: true, sortable: true },
    registration_number: { type: 'text', filterable: true, sortable: true },
    city: { type: 'text', filterable: true, sortable: true },
    country: { type: 'text', filterable: true, sortable: true },
    approver_email: { type: 'text', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: SSL_ORGANISATION_STATES },
    validated_at: { type: 'timestamp', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

import { SSL_CERTIFICATES_LIST, SSL_ORGANISATIONS_LIST } from '#common/lists/ssl.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /ssls (issue 19). */
export const sslsList: ListDefinition = {
  id: 'ssls',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/ssls`,
  columns: columnsOf(SSL_CERTIFICATES_LIST, {
    common_name: true,
    names: true,
    status: true,
    product: true,
    ca: false,
    key_type: false,
    origin: false,
    not_after: true,
    issued_at: false,
    'account.name': false,
    created_at: true,
  }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.common_name ?? row.id),
}

/** /ssls/organisations: the OV/EV organisations and where their validation stands. */
export const sslOrganisationsList: ListDefinition = {
  id: 'ssl-organisations',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/ssl-organisations`,
  columns: columnsOf(SSL_ORGANISATIONS_LIST, {
    legal_name: true,
    registration_number: true,
    country: true,
    city: false,
    approver_email: false,
    status: true,
    validated_at: true,
    'account.name': false,
    created_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'legal_name',
  trayType: null,
  rowLabel: (row) => String(row.legal_name ?? row.id),
}

/** /ssls/{id}/log: the SSL trail, the certificate fixed by the route; which kind of entity it is goes without saying. */
const sslAudit = auditList('ssl-log', 'ssl')
export const sslLogList: ListDefinition = {
  ...sslAudit,
  columns: sslAudit.columns.map((c) => (c.key === 'entity_type' ? { ...c, defaultVisible: false } : c)),
  trayType: null,
}

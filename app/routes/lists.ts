import type { ListDefinition } from '#app/lib/lists.ts'
import { accountsList, accountsLogList } from './accounts/lists.ts'
import { blocksList } from './blocks/lists.ts'
import { changeSetObjectsList, changeSetPoliciesList, changeSetsList, policyDriftList } from './change-sets/lists.ts'
import { brandCandidatesList } from './brand-protection/lists.ts'
import { watchCasesList, watchDetectionsList, watchesList, watchLogList, watchTemplatesList } from './watch/lists.ts'
import { intelligenceItemsList, intelligenceLogList } from './intelligence/lists.ts'
import { contactRegistryHandlesList, contactsList, contactsLogList } from './contacts/lists.ts'
import { dnsLogList, dnsRecordsList, dnsZoneLogList, dnsZoneRecordsList } from './domains/dns/lists.ts'
import { domainLogList, domainOrdersList, domainsList, domainsLogList, domainTabOrdersList, materialChangeRequestsList, reconciliationDifferencesList } from './domains/lists.ts'
import {
  billingEntitiesList,
  billingEntityLogList,
  billingLogList,
  domainTransactionsList,
  invoicesList,
  pricingEntitiesList,
  pricingLogList,
  pricingRulesList,
  transactionsList,
} from './invoicing/lists.ts'
import { productsList, registrarTemplatesList } from './products/lists.ts'
import { failedJobsList, reportActivityList, reportDnsRecordsList, reportZonesList } from './reports/lists.ts'
import { sslLogList, sslOrganisationsList, sslsList } from './ssl/lists.ts'
import { tldsList } from './tlds/lists.ts'
import { dnsTrayRecordsList, trayList } from './tray/lists.ts'
import { usersAuthenticationLogList, usersList, usersLogList } from './users/lists.ts'

/**
 * Every list screen's definition by id, for what finds a list by the id in its URL (the CSV
 * export, /export/{list}). Each area defines its lists beside its screens (`<area>/lists.ts`).
 */
export const LISTS: Record<string, ListDefinition> = Object.fromEntries(
  [
    ...[accountsList, accountsLogList, usersList, usersLogList, usersAuthenticationLogList, contactsList, contactsLogList, contactRegistryHandlesList, tldsList],
    ...[domainsList, domainsLogList, domainLogList, domainOrdersList, domainTabOrdersList, materialChangeRequestsList, reconciliationDifferencesList],
    ...[dnsZoneRecordsList, dnsRecordsList, dnsLogList, dnsZoneLogList, trayList, dnsTrayRecordsList],
    ...[productsList, registrarTemplatesList, pricingEntitiesList, pricingRulesList, pricingLogList],
    ...[billingEntitiesList, transactionsList, domainTransactionsList, invoicesList, billingLogList, billingEntityLogList, sslsList, sslOrganisationsList, sslLogList, blocksList],
    ...[reportDnsRecordsList, reportZonesList, reportActivityList, failedJobsList],
    ...[changeSetsList, changeSetObjectsList, changeSetPoliciesList, policyDriftList],
    ...[brandCandidatesList],
    ...[watchesList, watchDetectionsList, watchCasesList, watchTemplatesList, watchLogList],
    ...[intelligenceItemsList, intelligenceLogList],
  ].map((def) => [def.id, def]),
)

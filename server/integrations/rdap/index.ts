/**
 * RDAP (RFC 7480/9082/9083): the client the brand, watch and intelligence areas ask what a
 * registry publishes of a domain. The platform's client is `deps.rdap` (RDAP_BASE_URL, else the
 * local registry's RDAP service); the local registry's server is `registry/rdap-server.ts`.
 */
export { createRdapClient, parseRdapBases, parseRdapDomain, RdapError, type RdapBases, type RdapClient, type RdapClientOptions, type RdapDomainSummary, type RdapFacts } from './client.ts'
export { HostThrottled, createHostPacer, type HostPacer } from '../host-pacer.ts'

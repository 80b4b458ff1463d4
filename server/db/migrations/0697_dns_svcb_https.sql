-- RFC 9460 service bindings: real zone exports carry HTTPS and SVCB records, PowerDNS serves them,
-- and the portal now parses, validates and publishes them (server/platform/dns/rdata.ts). The list
-- stays a CHECK: a type the parser does not know must never reach PowerDNS.
ALTER TABLE dns_records DROP CONSTRAINT dns_records_type_check;
ALTER TABLE dns_records ADD CONSTRAINT dns_records_type_check
  CHECK (type IN ('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS', 'PTR', 'DS', 'TLSA', 'SSHFP', 'NAPTR', 'HTTPS', 'SVCB', 'SOA'));

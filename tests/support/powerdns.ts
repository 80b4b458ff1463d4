// The local PowerDNS the tests start is the one `npm start` starts (server/integrations/powerdns/local-server.ts).
export { startPowerDns, type PowerDnsServer } from '#server/integrations/powerdns/local-server.ts'

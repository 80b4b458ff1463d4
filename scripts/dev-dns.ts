// Starts a local PowerDNS Authoritative for development on loopback ports 3953 (DNS) and 3981
// (API), keeping its SQLite database in data/pdns, and prints the env lines for the portal.
// Usage: npm run dev:dns   (Ctrl-C stops it)
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { startPowerDns } from '#server/integrations/powerdns/local-server.ts'

const dir = path.resolve(process.env.DATA_DIR ?? './data', 'pdns')
mkdirSync(dir, { recursive: true })
const server = await startPowerDns({ dnsPort: 3953, apiPort: 3981, dir, apiKey: process.env.POWERDNS_API_KEY ?? 'dev-powerdns-key' })
console.warn(`PowerDNS is serving on 127.0.0.1:${server.dnsPort} (dig @127.0.0.1 -p ${server.dnsPort} +norec <name>)`)
console.warn(`Start the portal with:\n  POWERDNS_API_URL=${server.settings.apiUrl} POWERDNS_API_KEY=${server.settings.apiKey} npm start`)
const stop = async () => {
  await server.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())

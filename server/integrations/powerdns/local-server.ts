import { execFile, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import dgram from 'node:dgram'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { PowerDnsSettings } from '#server/integrations/powerdns/client.ts'
import { clearStaleProcess, spawnOwned } from '#server/lib/owned-process.ts'

const run = promisify(execFile)
const SCHEMA = '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql'

export type PowerDnsServer = {
  settings: PowerDnsSettings
  dnsPort: number
  apiPort: number
  dir: string
  /** `dig @127.0.0.1 -p <port> +norec +short <args>` as trimmed lines. */
  dig(...args: string[]): Promise<string[]>
  stop(): Promise<void>
}

/**
 * Starts a real pdns_server (gsqlite3 backend, DNSSEC on, caches off) on loopback ports with its
 * own config folder in a temp dir (or `dir`, kept), and waits until its API answers. Used by
 * `npm start` when pdns_server is installed (server/main.ts), by dev:dns and by the tests.
 */
export async function startPowerDns(options: { dnsPort?: number; apiPort?: number; dir?: string; apiKey?: string; nameservers?: string[] } = {}): Promise<PowerDnsServer> {
  // Free ports by default, so parallel runs (and other servers on this machine) never collide.
  const dnsPort = options.dnsPort ?? (await freePort())
  const apiPort = options.apiPort ?? (await freePort())
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'pdns-'))
  const apiKey = options.apiKey ?? `test-${Math.random().toString(36).slice(2)}`
  const database = path.join(dir, 'pdns.sqlite3')
  if (!existsSync(database)) await run('sqlite3', [database, `.read ${SCHEMA}`])
  writeFileSync(
    path.join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${database}`,
      'gsqlite3-dnssec=yes',
      // Write-ahead logging: readers (dig, the API's reads) never wait for a change, nor a change for
      // them; changes themselves go one at a time (oneWriter, client.ts) — issue 27.
      'gsqlite3-pragma-journal-mode=WAL',
      'local-address=127.0.0.1',
      `local-port=${dnsPort}`,
      `socket-dir=${dir}`,
      'api=yes',
      `api-key=${apiKey}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      'security-poll-suffix=',
      'only-notify=',
      'cache-ttl=0',
      'query-cache-ttl=0',
      'negquery-cache-ttl=0',
      'zone-cache-refresh-interval=0',
      'default-soa-content=ns1.@ hostmaster.@ 0 10800 3600 604800 3600',
      '',
    ].join('\n'),
  )
  // A kept folder (DATA_DIR/pdns) may hold the pdns_server of a server killed with SIGKILL, which
  // would keep its control socket: "Previous controlsocket is in use", and no PowerDNS (issue 26).
  const pidFile = options.dir ? path.join(dir, 'pdns_server.pid') : undefined
  if (pidFile) await clearStaleProcess(pidFile, [path.join(dir, 'pdns.controlsocket')])
  // Ours: it ends when we end, even on SIGKILL (server/lib/owned-process.ts).
  const child: ChildProcess = spawnOwned('pdns_server', [`--config-dir=${dir}`, '--guardian=no', '--daemon=no', '--disable-syslog', '--write-pid=no'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    identity: `--config-dir=${dir}`,
    ...(pidFile ? { pidFile } : {}),
  })
  let log = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const settings: PowerDnsSettings = { apiUrl: `http://127.0.0.1:${apiPort}`, apiKey, nameservers: options.nameservers ?? ['ns1.registrar.test', 'ns2.registrar.test'], oneWriter: true }

  // Ready when the API answers; give up if the process dies or after 20 s.
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pdns_server exited with ${child.exitCode}:\n${log}`)
    try {
      const response = await fetch(`${settings.apiUrl}/api/v1/servers/localhost`, { headers: { 'X-API-Key': apiKey } })
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`pdns_server did not start:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }

  return {
    settings,
    dnsPort,
    apiPort,
    dir,
    async dig(...args: string[]) {
      const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(dnsPort), '+norec', '+short', '+time=2', '+tries=1', ...args])
      return stdout
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        await exited
      }
      if (!options.dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Whether pdns_server (Debian: pdns-server pdns-backend-sqlite3) and sqlite3 are on the PATH. */
export function powerDnsInstalled(): boolean {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)
  const onPath = (command: string) => dirs.some((dir) => existsSync(path.join(dir, command)))
  return onPath('pdns_server') && onPath('sqlite3') && existsSync(SCHEMA)
}

/** A loopback port free for both TCP and UDP right now. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const address = server.address() as net.AddressInfo
        server.close(() => resolve(address.port))
      })
    })
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = dgram.createSocket('udp4')
      socket.once('error', () => resolve(false))
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)))
    })
    if (udpFree) return port
  }
}

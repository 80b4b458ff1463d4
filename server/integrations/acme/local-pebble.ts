import { execFile, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { clearStaleProcess, spawnOwned } from '#server/lib/owned-process.ts'

const run = promisify(execFile)

/** A running Pebble (Let's Encrypt's test CA): its directory, the certificate its HTTPS answers with, and its own roots. */
export type LocalPebble = {
  directoryUrl: string
  /** PEM of Pebble's HTTPS certificate: the one thing an ACME client must trust to talk to it. */
  tlsCaPem: string
  /** The port Pebble fetches HTTP-01 files from (its `httpPort`; port 80 at a real CA). */
  httpPort: number
  /** The CA's current root (PEM), new at every start: what an issued chain verifies against. */
  root(): Promise<string>
  stop(): Promise<void>
}

/** True when the pebble binary is on the PATH (Debian: apt-get install pebble). */
export async function pebbleInstalled(): Promise<boolean> {
  try {
    await run('sh', ['-c', 'command -v pebble'])
    return true
  } catch {
    return false
  }
}

/**
 * Starts Pebble on loopback ports with DNS-01 looked up at `dnsServer` (our PowerDNS, host:port),
 * validation without Pebble's random sleeps, and its HTTPS on a self-made certificate (Debian
 * ships none). Used by `npm start` when pebble is installed and by the tests.
 */
export async function startPebble(options: { dnsServer?: string; dir?: string } = {}): Promise<LocalPebble> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'pebble-'))
  mkdirSync(dir, { recursive: true })
  const pidFile = options.dir ? path.join(dir, 'pebble.pid') : undefined
  if (pidFile) await clearStaleProcess(pidFile)
  const cert = path.join(dir, 'cert.pem')
  const key = path.join(dir, 'key.pem')
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '3650',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ])
  const [listen, management, http, tls] = (await freePorts(4)) as [number, number, number, number]
  const config = path.join(dir, 'pebble-config.json')
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: cert,
        privateKey: key,
        httpPort: http,
        tlsPort: tls,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  )
  const args = ['-config', config, '-strict=false', ...(options.dnsServer ? ['-dnsserver', options.dnsServer] : [])]
  // Ours: it ends when we end, even on SIGKILL, and a start in a kept folder (DATA_DIR/pebble) ends
  // the one a killed server left there (server/lib/owned-process.ts).
  const child: ChildProcess = spawnOwned('pebble', args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    identity: config,
    ...(pidFile ? { pidFile } : {}),
  })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const tlsCaPem = readFileSync(cert, 'utf8')
  const directoryUrl = `https://127.0.0.1:${listen}/dir`
  const managementUrl = `https://127.0.0.1:${management}`
  const get = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      import('node:https').then(({ request }) => {
        const req = request(url, { ca: tlsCaPem, timeout: 5000 }, (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        })
        req.on('error', reject)
        req.end()
      }, reject)
    })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    if (!options.dir) rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 20_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pebble exited with ${child.exitCode}:\n${log}`)
    const answer = await get(directoryUrl).catch(() => null)
    if (answer?.status === 200) break
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`pebble did not start:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    directoryUrl,
    tlsCaPem,
    httpPort: http,
    async root() {
      const answer = await get(`${managementUrl}/roots/0`)
      if (answer.status !== 200) throw new Error(`pebble's root: HTTP ${answer.status}`)
      return answer.body
    },
    stop,
  }
}

/**
 * `count` distinct free ports: every probe stays open until all are taken, so the system cannot
 * hand one port out twice (probing one at a time once gave Pebble's listener and its management
 * interface the same port, and Pebble failed to start).
 */
async function freePorts(count: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const probe = net.createServer().once('error', reject)
          probe.listen(0, '127.0.0.1', () => resolve(probe))
        }),
    ),
  )
  const ports = probes.map((probe) => (probe.address() as net.AddressInfo).port)
  await Promise.all(probes.map((probe) => new Promise<void>((resolve) => probe.close(() => resolve()))))
  return ports
}

import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import path from 'node:path'
import type { Logger } from '#server/lib/logger.ts'
import { certificateParts, issuerKeyHash, precertificateTbs } from './certificate.ts'
import { digitallySign, encodeChain, encodeLeaf, encodePrecertExtra, leafHash, logId, timestampData, treeHash, treeHeadData, type LeafEntry } from './rfc6962.ts'

/**
 * A Certificate Transparency log of our own (RFC 6962 §4 over HTTP): `add-chain`, `add-pre-chain`,
 * `get-sth`, `get-entries`, `get-roots`, each answer signed with its ECDSA P-256 key, for the
 * demo and the tests — the protocol, so Debian's certspotter reads it as it reads a real log. It
 * takes any chain (no root store: it logs what our tests and the demo's CA issue) and merges at once
 * (a maximum merge delay of zero).
 */

export type LocalCtLog = {
  /** The log's URL (certspotter and our client append `/ct/v1/…`). */
  url: string
  publicKeyDer: Buffer
  /** SHA-256 of the public key, base64. */
  logId: string
  treeSize(): number
  /** Logs a chain in process (leaf first), as `add-chain` / `add-pre-chain` would: answers the entry's index. */
  add(chain: Buffer[], options?: { precertificate?: boolean }): number
  /** A log list (Google's v3 schema) naming this log alone: certspotter's `-logs` file. */
  logList(): object
  close(): Promise<void>
}

type Stored = { leaf: string; extra: string }
const MAX_ENTRIES_PER_GET = 1000

export async function startLocalCtLog(options: { port?: number; host?: string; dataDir?: string; now?: () => number; logger?: Logger; description?: string } = {}): Promise<LocalCtLog> {
  const now = options.now ?? Date.now
  const folder = options.dataDir ? path.join(options.dataDir, 'ct-log') : undefined
  const stateFile = folder ? path.join(folder, 'entries.json') : undefined
  let key: KeyObject
  if (folder && existsSync(path.join(folder, 'key.pem'))) key = createPrivateKey(readFileSync(path.join(folder, 'key.pem'), 'utf8'))
  else {
    key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    if (folder) {
      mkdirSync(folder, { recursive: true })
      writeFileSync(path.join(folder, 'key.pem'), key.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
    }
  }
  const publicKeyDer = createPublicKey(key).export({ type: 'spki', format: 'der' })
  const id = logId(publicKeyDer)
  const stored: Stored[] = stateFile && existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as Stored[]) : []
  const hashes = stored.map((s) => leafHash(Buffer.from(s.leaf, 'base64')))
  const roots = new Map<string, Buffer>()
  let head: { size: number; body: object } | undefined

  const save = () => {
    if (!stateFile) return
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(stored))
    renameSync(`${stateFile}.tmp`, stateFile)
  }

  const logChain = (chain: Buffer[], precertificate: boolean) => {
    const [first, issuer] = chain
    if (!first) throw new Error('An empty chain')
    const timestamp = now()
    let entry: LeafEntry
    let extra: Buffer
    if (precertificate) {
      if (!issuer) throw new Error('A precertificate is logged with its issuer')
      entry = { type: 'precert', issuerKeyHash: issuerKeyHash(issuer), tbs: precertificateTbs(first) }
      extra = encodePrecertExtra(first, chain.slice(1))
    } else {
      certificateParts(first)
      entry = { type: 'x509', certificate: first }
      extra = encodeChain(chain.slice(1))
    }
    const leaf = encodeLeaf(timestamp, entry)
    stored.push({ leaf: leaf.toString('base64'), extra: extra.toString('base64') })
    hashes.push(leafHash(leaf))
    const root = chain[chain.length - 1]!
    if (chain.length > 1) roots.set(root.toString('base64'), root)
    save()
    const sct = {
      sct_version: 0,
      id: id.toString('base64'),
      timestamp,
      extensions: '',
      signature: digitallySign(timestampData(timestamp, entry), key).toString('base64'),
    }
    return { index: stored.length - 1, sct }
  }

  const signedTreeHead = () => {
    if (head?.size !== stored.length) {
      const timestamp = now()
      const root = treeHash(hashes)
      head = {
        size: stored.length,
        body: {
          tree_size: stored.length,
          timestamp,
          sha256_root_hash: root.toString('base64'),
          tree_head_signature: digitallySign(treeHeadData(timestamp, stored.length, root), key).toString('base64'),
        },
      }
    }
    return head.body
  }

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    response.end(text)
  }

  const readBody = (request: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = []
      let size = 0
      request.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > 4 * 1024 * 1024) request.destroy(new Error('too large'))
        else chunks.push(chunk)
      })
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      request.on('error', reject)
    })

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://ct.invalid')
    const route = url.pathname.replace(/\/+$/, '')
    void (async () => {
      if (request.method === 'GET' && route === '/ct/v1/get-sth') return answer(response, 200, signedTreeHead())
      if (request.method === 'GET' && route === '/ct/v1/get-roots') return answer(response, 200, { certificates: [...roots.keys()] })
      if (request.method === 'GET' && route === '/ct/v1/get-entries') {
        const start = Number(url.searchParams.get('start'))
        const end = Number(url.searchParams.get('end'))
        if (!/^\d+$/.test(url.searchParams.get('start') ?? '') || !/^\d+$/.test(url.searchParams.get('end') ?? '') || start > end)
          return answer(response, 400, { error_message: 'start and end are indexes, start ≤ end' })
        if (start >= stored.length) return answer(response, 400, { error_message: `start ${start} is beyond the tree (size ${stored.length})` })
        const last = Math.min(end, stored.length - 1, start + MAX_ENTRIES_PER_GET - 1)
        return answer(response, 200, { entries: stored.slice(start, last + 1).map((s) => ({ leaf_input: s.leaf, extra_data: s.extra })) })
      }
      if (request.method === 'POST' && (route === '/ct/v1/add-chain' || route === '/ct/v1/add-pre-chain')) {
        let chain: Buffer[]
        try {
          const body = JSON.parse(await readBody(request)) as { chain?: unknown }
          if (!Array.isArray(body.chain) || !body.chain.length || !body.chain.every((c) => typeof c === 'string')) throw new Error('chain')
          chain = (body.chain as string[]).map((c) => Buffer.from(c, 'base64'))
          return answer(response, 200, logChain(chain, route.endsWith('pre-chain')).sct)
        } catch (error) {
          return answer(response, 400, { error_message: `Not a chain this log takes: ${(error as Error).message}` })
        }
      }
      return answer(response, 404, { error_message: 'Not found' })
    })().catch(() => answer(response, 500, { error_message: 'Internal error' }))
  })

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`
  options.logger?.info('local CT log listening', { url, entries: stored.length })

  return {
    url,
    publicKeyDer,
    logId: id.toString('base64'),
    treeSize: () => stored.length,
    add: (chain, addOptions = {}) => logChain(chain, !!addOptions.precertificate).index,
    logList: () => ({
      version: '1.0',
      log_list_timestamp: new Date(now()).toISOString(),
      operators: [
        {
          name: 'Registrar Portal',
          email: ['ct@registrar.example'],
          logs: [
            {
              description: options.description ?? 'Registrar Portal local CT log',
              log_id: id.toString('base64'),
              key: publicKeyDer.toString('base64'),
              url,
              mmd: 86400,
              state: { usable: { timestamp: new Date(0).toISOString() } },
            },
          ],
        },
      ],
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

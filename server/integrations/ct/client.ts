import { isIP } from 'node:net'
import type { Logger } from '#server/lib/logger.ts'
import { addressClass, type FetchAnswer, type FetchOptions } from '#server/platform/core/outbound.ts'
import { createHostPacer, type HostPacer } from '../host-pacer.ts'
import { parseEntry, treeHeadData, verifyDigitallySigned, CtParseError, type CtEntry } from './rfc6962.ts'

/**
 * An RFC 6962 log client: `get-sth` (its signature checked when the log's key is known) and
 * `get-entries` read into `CtEntry`s, through the outbound guard, paced per log host, logged.
 */

export type SignedTreeHead = { treeSize: number; timestamp: number; rootHash: Buffer; signature: Buffer }

/** One configured log: its URL (`https://ct.example/2026h1/`) and, to check its tree heads, its key (SubjectPublicKeyInfo DER, base64). */
export type CtLogSource = { url: string; key?: string | null; description?: string }

export class CtLogError extends Error {
  readonly status: number | null
  constructor(message: string, status: number | null = null) {
    super(message)
    this.name = 'CtLogError'
    this.status = status
  }
}

export type CtClient = {
  getSth(log: CtLogSource): Promise<SignedTreeHead>
  /** Entries `[start, end]` (inclusive, as RFC 6962 says), fewer when the log answers fewer: ask again from the next. Unreadable entries are skipped and counted. */
  getEntries(log: CtLogSource, start: number, end: number): Promise<{ entries: CtEntry[]; read: number; unreadable: number }>
}

export type CtClientOptions = {
  fetch: (url: string, init?: FetchOptions) => Promise<FetchAnswer>
  logger?: Logger
  perSecond?: number
  burst?: number
  pacer?: HostPacer
  timeoutMs?: number
}

const ownHost = (url: string) => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && addressClass(host) !== null)
}

/** CT_LOG_URLS: `url` or `url#key` (the log's public key, base64 DER) items, comma-separated. */
export function parseCtLogs(setting: string): CtLogSource[] {
  return setting
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const [url, key] = item.split('#')
      const parsed = new URL(url!)
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${url}: a CT log is an http(s) URL`)
      return { url: parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`, key: key ? key : null }
    })
}

export function createCtClient(options: CtClientOptions): CtClient {
  const pacer = options.pacer ?? createHostPacer({ perSecond: options.perSecond ?? 4, burst: options.burst ?? 8 })
  const get = async (log: CtLogSource, path: string): Promise<unknown> => {
    const url = new URL(`ct/v1/${path}`, log.url.endsWith('/') ? log.url : `${log.url}/`).href
    const host = new URL(url).host
    await pacer.wait(host)
    const started = Date.now()
    const own = ownHost(log.url)
    const answer = await options.fetch(url, {
      headers: { accept: 'application/json' },
      timeoutMs: options.timeoutMs ?? 20_000,
      maxBytes: 32 * 1024 * 1024,
      maxRedirects: own ? 0 : 2,
      ...(own ? { policy: { allowPrivate: true } } : {}),
    })
    options.logger?.info('ct log request', { host, path: path.replace(/\?.*/, ''), status: answer.status, bytes: answer.body.length, ms: Date.now() - started })
    if (answer.status !== 200) throw new CtLogError(`${host} answered ${answer.status} to ${path.replace(/\?.*/, '')}`, answer.status)
    try {
      return JSON.parse(answer.body.toString('utf8'))
    } catch {
      throw new CtLogError(`${host} answered something that is not JSON to ${path.replace(/\?.*/, '')}`)
    }
  }
  return {
    async getSth(log) {
      const body = (await get(log, 'get-sth')) as Record<string, unknown>
      const treeSize = Number(body.tree_size)
      const timestamp = Number(body.timestamp)
      if (!Number.isSafeInteger(treeSize) || treeSize < 0 || !Number.isSafeInteger(timestamp) || typeof body.sha256_root_hash !== 'string' || typeof body.tree_head_signature !== 'string')
        throw new CtLogError(`${log.url}: not a signed tree head`)
      const sth = { treeSize, timestamp, rootHash: Buffer.from(body.sha256_root_hash, 'base64'), signature: Buffer.from(body.tree_head_signature, 'base64') }
      if (sth.rootHash.length !== 32) throw new CtLogError(`${log.url}: the root hash is not 32 bytes`)
      if (log.key && !verifyDigitallySigned(treeHeadData(timestamp, treeSize, sth.rootHash), sth.signature, Buffer.from(log.key, 'base64')))
        throw new CtLogError(`${log.url}: the tree head's signature does not verify with the log's key`)
      return sth
    },
    async getEntries(log, start, end) {
      const body = (await get(log, `get-entries?start=${start}&end=${end}`)) as { entries?: unknown }
      if (!Array.isArray(body.entries)) throw new CtLogError(`${log.url}: get-entries answered no entries`)
      const entries: CtEntry[] = []
      let unreadable = 0
      body.entries.forEach((item: { leaf_input?: unknown; extra_data?: unknown }, offset) => {
        try {
          if (typeof item.leaf_input !== 'string') throw new CtParseError('no leaf_input')
          entries.push(parseEntry(start + offset, Buffer.from(item.leaf_input, 'base64'), Buffer.from(typeof item.extra_data === 'string' ? item.extra_data : '', 'base64')))
        } catch (error) {
          unreadable++
          options.logger?.warn('ct entry unreadable', { log: log.url, index: start + offset, error: (error as Error).message })
        }
      })
      return { entries, read: body.entries.length, unreadable }
    },
  }
}

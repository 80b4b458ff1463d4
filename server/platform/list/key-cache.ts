/**
 * The ordered keys of recently run lists, per database handle (decision 009). An entry is only
 * ever used together with the change counter it was read with: the caller checks the counter in
 * the same statement that fetches the page's rows, so a stale entry is detected, never served.
 * Bounded by the number of keys held (least recently used first out) and by age.
 */
export type KeyList = {
  /** The resource's change counter (list_versions) in the snapshot that listed the keys. */
  version: string
  /** Keys in list order; at most the scan limit of the query that listed them. */
  keys: string[]
  /** True when the scan ended before its limit: the keys are every match, not a prefix. */
  complete: boolean
  at: number
}

const MAX_KEYS = 250_000
const MAX_AGE_MS = 5 * 60_000

export class ListKeyCache {
  private readonly entries = new Map<string, KeyList>()
  private held = 0
  private readonly maxKeys: number
  private readonly maxAgeMs: number

  constructor(options: { maxKeys?: number; maxAgeMs?: number } = {}) {
    this.maxKeys = options.maxKeys ?? MAX_KEYS
    this.maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS
  }

  get(key: string, now = Date.now()): KeyList | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (now - entry.at > this.maxAgeMs) {
      this.delete(key)
      return undefined
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry
  }

  set(key: string, entry: KeyList): void {
    this.delete(key)
    if (entry.keys.length > this.maxKeys) return
    this.entries.set(key, entry)
    this.held += entry.keys.length
    for (const [oldest] of this.entries) {
      if (this.held <= this.maxKeys) break
      this.delete(oldest)
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    this.held -= entry.keys.length
  }

  get size(): number {
    return this.entries.size
  }
}

const caches = new WeakMap<object, ListKeyCache>()

/** The cache of one database handle (a process's pool; tests open several). */
export function keyCacheOf(db: object): ListKeyCache {
  let cache = caches.get(db)
  if (!cache) {
    cache = new ListKeyCache()
    caches.set(db, cache)
  }
  return cache
}

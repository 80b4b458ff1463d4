/**
 * A set of strings kept as 64-bit hashes in one typed array: a million record keys take 16 MB
 * where a Set of the strings would hold over 100 MB, so an import that streams a file can still
 * tell which lines repeat a key seen before. `add` answers false for a key already added — and,
 * with odds of about 1 in 3·10^7 per million keys, for a new key whose 64 bits match another's:
 * false means "maybe seen", and callers let the database decide those (decision 204).
 */
export class KeySet {
  // Pairs of 32-bit halves; a first half of 0 marks an empty slot (hashes are never 0 there).
  private slots: Uint32Array
  private mask: number
  size = 0

  constructor(expected = 1 << 12) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, expected * 2)))
    this.slots = new Uint32Array(capacity * 2)
    this.mask = capacity - 1
  }

  /** True when the key was not in the set (it is now). */
  add(key: string): boolean {
    // Two multiplicative hashes of the UTF-16 code units, each finished with murmur3's mixer.
    let a = 0x811c9dc5
    let b = 0x9747b28c
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i)
      a = Math.imul(a ^ c, 0x01000193)
      b = Math.imul(b ^ c, 0x5bd1e995)
    }
    const high = mix(a) || 1
    const low = mix(b ^ key.length)
    if (this.insert(high, low)) {
      if (++this.size * 2 > this.mask + 1) this.grow()
      return true
    }
    return false
  }

  private insert(high: number, low: number): boolean {
    const slots = this.slots
    for (let i = (high ^ low) & this.mask; ; i = (i + 1) & this.mask) {
      const at = i * 2
      if (slots[at] === 0) {
        slots[at] = high
        slots[at + 1] = low
        return true
      }
      if (slots[at] === high && slots[at + 1] === low) return false
    }
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    this.mask = this.mask * 2 + 1
    for (let at = 0; at < old.length; at += 2) if (old[at] !== 0) this.insert(old[at]!, old[at + 1]!)
  }
}

function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * A map from strings to two 32-bit numbers, kept as 64-bit hashes like KeySet (16 bytes a slot):
 * the TTL and first line of every RRset of a streamed file. With the same odds as KeySet, two
 * different keys may share a slot; see ZoneChecker.ttlOf for what that would mean.
 */
export class KeyValues {
  // Quads: hash high (never 0 when used), hash low, first value, second value.
  private slots: Uint32Array
  private mask: number
  size = 0

  constructor(expected = 1 << 12) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, expected * 2)))
    this.slots = new Uint32Array(capacity * 4)
    this.mask = capacity - 1
  }

  /** Stores (a, b) for a new key and answers -1; for a key already there, answers its slot for `first`/`second`. */
  claim(key: string, a: number, b: number): number {
    let x = 0x811c9dc5
    let y = 0x9747b28c
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i)
      x = Math.imul(x ^ c, 0x01000193)
      y = Math.imul(y ^ c, 0x5bd1e995)
    }
    const high = mix(x) || 1
    const low = mix(y ^ key.length)
    const slots = this.slots
    for (let i = (high ^ low) & this.mask; ; i = (i + 1) & this.mask) {
      const at = i * 4
      if (slots[at] === 0) {
        slots[at] = high
        slots[at + 1] = low
        slots[at + 2] = a
        slots[at + 3] = b
        if (++this.size * 2 > this.mask + 1) this.grow()
        return -1
      }
      if (slots[at] === high && slots[at + 1] === low) return at
    }
  }

  first(slot: number): number {
    return this.slots[slot + 2]!
  }

  second(slot: number): number {
    return this.slots[slot + 3]!
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    this.mask = this.mask * 2 + 1
    for (let at = 0; at < old.length; at += 4) {
      if (old[at] === 0) continue
      for (let i = (old[at]! ^ old[at + 1]!) & this.mask; ; i = (i + 1) & this.mask) {
        const to = i * 4
        if (this.slots[to] !== 0) continue
        this.slots.set(old.subarray(at, at + 4), to)
        break
      }
    }
  }
}

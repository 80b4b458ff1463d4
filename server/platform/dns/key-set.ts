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

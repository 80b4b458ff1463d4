/**
 * Token bucket: `capacity` calls at once, refilled at `perSecond`. Registries cap commands per
 * second per registrar; going over them gets sessions dropped, so we refuse before sending.
 */
export class TokenBucket {
  readonly capacity: number
  readonly perSecond: number
  private tokens: number
  private last: number
  private readonly now: () => number

  constructor(options: { capacity: number; perSecond: number; now?: () => number }) {
    if (options.capacity < 1 || options.perSecond <= 0) throw new Error('A token bucket needs capacity ≥ 1 and a positive refill rate')
    this.capacity = options.capacity
    this.perSecond = options.perSecond
    this.now = options.now ?? Date.now
    this.tokens = options.capacity
    this.last = this.now()
  }

  /** Takes one token: 0 when granted, else the seconds until one is available. */
  take(): number {
    this.refill()
    if (this.tokens >= 1) {
      this.tokens -= 1
      return 0
    }
    return (1 - this.tokens) / this.perSecond
  }

  get available(): number {
    this.refill()
    return Math.floor(this.tokens)
  }

  private refill(): void {
    const now = this.now()
    const elapsed = Math.max(0, now - this.last) / 1000
    this.last = now
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.perSecond)
  }
}

import { describe, expect, it } from 'vitest'
import { TokenBucket } from './rate-limit.ts'

describe('TokenBucket', () => {
  it('grants the burst, then refuses with the wait until the next token, then refills with time', () => {
    let now = 1_000_000
    const bucket = new TokenBucket({ capacity: 3, perSecond: 2, now: () => now })
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([0, 0, 0])
    expect(bucket.take()).toBeCloseTo(0.5)
    now += 500
    expect(bucket.take()).toBe(0)
    expect(bucket.take()).toBeGreaterThan(0)
    now += 10_000
    expect(bucket.available).toBe(3)
  })
})

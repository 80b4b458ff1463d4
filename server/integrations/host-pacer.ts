import { TokenBucket } from './registry/rate-limit.ts'

/**
 * Requests to other servers paced per host (decision 022's outbound rules, for the feeds that poll:
 * RDAP, Certificate Transparency logs): a small token bucket per host; a request waits for its token,
 * and one that would wait longer than `maxWaitMs` is refused with `HostThrottled` rather than queued.
 */
export class HostThrottled extends Error {
  readonly host: string
  readonly retryAfterSeconds: number
  constructor(host: string, retryAfterSeconds: number) {
    super(`Too many requests to ${host}: paced at its limit, retry in ${Math.ceil(retryAfterSeconds)} s`)
    this.name = 'HostThrottled'
    this.host = host
    this.retryAfterSeconds = retryAfterSeconds
  }
}

export type HostPacer = { wait(host: string): Promise<void> }

export function createHostPacer(options: { perSecond: number; burst: number; maxWaitMs?: number; now?: () => number }): HostPacer {
  const buckets = new Map<string, { bucket: TokenBucket; queue: Promise<void> }>()
  const maxWaitMs = options.maxWaitMs ?? 10_000
  return {
    wait(host: string) {
      const key = host.toLowerCase()
      let entry = buckets.get(key)
      if (!entry) {
        entry = { bucket: new TokenBucket({ capacity: options.burst, perSecond: options.perSecond, ...(options.now ? { now: options.now } : {}) }), queue: Promise.resolve() }
        buckets.set(key, entry)
      }
      const { bucket } = entry
      // One waiter at a time per host, in order: each takes its token when the one before has.
      const turn = entry.queue.then(async () => {
        for (let waited = 0; ;) {
          const seconds = bucket.take()
          if (seconds === 0) return
          if (waited + seconds * 1000 > maxWaitMs) throw new HostThrottled(key, seconds)
          waited += seconds * 1000
          await new Promise((resolve) => setTimeout(resolve, Math.ceil(seconds * 1000)))
        }
      })
      entry.queue = turn.catch(() => undefined)
      return turn
    },
  }
}

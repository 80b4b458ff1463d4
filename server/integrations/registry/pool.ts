import { EppClient, type EppClientOptions, type LoginOptions } from './client.ts'
import { RegistryConnectionError, RegistryError } from './errors.ts'

export type EppPoolOptions = {
  client: EppClientOptions
  login: LoginOptions
  /** Sessions kept open at most (registries limit sessions per registrar). */
  size: number
  /** How long a caller waits for a free session before failing. */
  acquireTimeoutMs?: number
}

type Waiter = { resolve: (client: EppClient) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }

/**
 * Up to `size` logged-in sessions to one registry. A session that breaks (socket error, timeout,
 * 2500-range answer) is dropped and a new one is opened on the next use.
 */
export class EppPool {
  readonly options: EppPoolOptions
  private readonly idle: EppClient[] = []
  private readonly busy = new Set<EppClient>()
  private opening = 0
  private readonly waiters: Waiter[] = []
  private closed = false
  /** Sessions opened over the pool's life; tests use it to see reconnects. */
  sessionsOpened = 0

  constructor(options: EppPoolOptions) {
    if (options.size < 1) throw new Error('EPP pool size must be at least 1')
    this.options = options
  }

  get stats() {
    return { idle: this.idle.length, busy: this.busy.size, opening: this.opening, waiting: this.waiters.length, opened: this.sessionsOpened }
  }

  /**
   * Runs `work` on a session. With `retry` (for commands that are safe to repeat: check, info,
   * poll req) a broken session is replaced once and the work run again.
   */
  async use<T>(work: (client: EppClient) => Promise<T>, options: { retry?: boolean } = {}): Promise<T> {
    const client = await this.acquire()
    try {
      const result = await work(client)
      this.release(client)
      return result
    } catch (error) {
      const broken = error instanceof RegistryConnectionError || (error instanceof RegistryError && error.closesSession) || !client.isLoggedIn
      if (broken) this.discard(client)
      else this.release(client)
      if (broken && options.retry && error instanceof RegistryConnectionError) return this.use(work, { retry: false })
      throw error
    }
  }

  async close(): Promise<void> {
    this.closed = true
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.reject(new RegistryConnectionError('EPP pool closed'))
    }
    const all = [...this.idle.splice(0), ...this.busy]
    this.busy.clear()
    await Promise.all(all.map((c) => c.logout().catch(() => c.destroy())))
  }

  private async acquire(): Promise<EppClient> {
    if (this.closed) throw new RegistryConnectionError('EPP pool closed')
    while (this.idle.length) {
      const client = this.idle.pop()!
      if (client.isLoggedIn) {
        this.busy.add(client)
        return client
      }
      client.destroy()
    }
    if (this.busy.size + this.opening < this.options.size) {
      this.opening++
      try {
        const client = await this.open()
        this.busy.add(client)
        return client
      } finally {
        this.opening--
      }
    }
    return new Promise<EppClient>((resolve, reject) => {
      const timeoutMs = this.options.acquireTimeoutMs ?? 30_000
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1)
          reject(new RegistryConnectionError(`No registry session free within ${timeoutMs} ms`))
        }, timeoutMs),
      }
      this.waiters.push(waiter)
    })
  }

  private async open(): Promise<EppClient> {
    const client = new EppClient(this.options.client)
    try {
      await client.connect()
      await client.login(this.options.login)
    } catch (error) {
      client.destroy()
      throw error
    }
    this.sessionsOpened++
    return client
  }

  private release(client: EppClient): void {
    this.busy.delete(client)
    if (this.closed || !client.isLoggedIn) {
      client.destroy()
      this.wakeForCapacity()
      return
    }
    const waiter = this.waiters.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      this.busy.add(client)
      waiter.resolve(client)
    } else {
      this.idle.push(client)
    }
  }

  private discard(client: EppClient): void {
    this.busy.delete(client)
    client.destroy()
    this.wakeForCapacity()
  }

  // A slot freed by a broken session lets the next waiter open a fresh one.
  private wakeForCapacity(): void {
    const waiter = this.waiters.shift()
    if (!waiter) return
    clearTimeout(waiter.timer)
    this.acquire().then(waiter.resolve, waiter.reject)
  }
}

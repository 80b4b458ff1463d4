import type { Database } from '#server/db/database.ts'

/** What the database says of a token: `verifyBearer` judges it (kind, status, expiry) at each use. */
export type TokenRow = {
  id: string
  kind: 'access' | 'refresh' | 'two_factor' | 'api'
  family_id: string
  expires_at: Date
  user_id: string
  email: string
  account_id: string
  roles: string[]
  abilities: string[]
  status: string
  /** An API token's own limits (migration 0850). */
  api?: ApiTokenLimits
}

/** What an API token restricts: its number, permissions, account, domain tags and addresses. */
export type ApiTokenLimits = { number: number; permissions: string[]; account_id: string | null; domain_tags: string[]; cidrs: string[] }

const MAX_ENTRIES = 10_000

/**
 * The bearer tokens this process has looked up, by hash, so that a request with a token seen
 * before costs no statement (decision 011). It holds only while it hears the database's
 * `auth_changed` notifications (migration 0694: any change to a token or its user, by any
 * process or by hand, at commit): a notification drops that user's tokens; a lost listener drops
 * everything and nothing is kept until it listens again. A lookup that overlapped a notification
 * or a `changing()` is not kept (it may have read the row as it was). Requests of this process
 * that may change things call `changing()` before and after they run, so that what they revoke is
 * refused by the very next request, before their notification arrives.
 */
export class TokenCache {
  private readonly entries = new Map<string, TokenRow>()
  private listening = false
  private generation = 0
  private listener: { close(): Promise<void> } | null = null
  private readonly waiting = new Map<string, () => void>()

  /** Starts listening; until the listener is ready nothing is kept. */
  async start(database: Pick<Database, 'listen'>): Promise<void> {
    this.listener = await database.listen('auth_changed', {
      notify: (userId) => this.forgetUser(userId),
      ready: () => {
        this.clear()
        this.listening = true
      },
      lost: () => {
        this.listening = false
        this.clear()
      },
    })
  }

  async stop(): Promise<void> {
    await this.listener?.close()
    this.listener = null
  }

  /**
   * Resolves once every change committed before the call has been heard: notifications come in
   * commit order, so when a marker sent now comes back, those before it have come too. For code
   * (tests among it) that changed tokens or users without going through this process's API.
   */
  async caughtUp(database: Pick<Database, 'pool'>, timeoutMs = 5000): Promise<void> {
    if (!this.listening) return
    const marker = `caught-up:${Math.random().toString(36).slice(2)}`
    const heard = new Promise<void>((resolve) => {
      this.waiting.set(marker, resolve)
      setTimeout(resolve, timeoutMs).unref()
    })
    await database.pool.query(`SELECT pg_notify('auth_changed', $1)`, [marker])
    await heard
    this.waiting.delete(marker)
  }

  get(hash: string): TokenRow | undefined {
    return this.listening ? this.entries.get(hash) : undefined
  }

  /** A marker to pass to `keep`, taken before the lookup starts. */
  mark(): number {
    return this.generation
  }

  keep(hash: string, row: TokenRow, mark: number): void {
    if (!this.listening || mark !== this.generation) return
    // The oldest entry goes first: a Map iterates in insertion order.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(hash, row)
  }

  /** Something may be changing tokens or users in this process: start over. */
  changing(): void {
    this.clear()
  }

  private forgetUser(userId: string): void {
    this.waiting.get(userId)?.()
    this.generation++
    for (const [hash, row] of this.entries) if (row.user_id === userId) this.entries.delete(hash)
  }

  private clear(): void {
    this.generation++
    this.entries.clear()
  }
}

import type { EppClient, EppClientOptions } from './client.ts'
import { RegistryThrottled } from './errors.ts'
import { EppPool } from './pool.ts'
import { TokenBucket } from './rate-limit.ts'
import type {
  CheckResult,
  ContactCreateInput,
  ContactCreateResult,
  ContactInfo,
  ContactUpdateInput,
  DomainCreateInput,
  DomainCreateResult,
  DomainDeleteResult,
  DomainInfo,
  DomainRenewInput,
  DomainRenewResult,
  DomainRestoreResult,
  DomainTransferInput,
  DomainUpdateInput,
  HostCreateInput,
  HostCreateResult,
  HostInfo,
  HostUpdateInput,
  PollMessage,
  TransferResult,
} from './types.ts'

/**
 * What the rest of the application calls to talk to a registry. Failures throw:
 * `RegistryError` (the registry refused: code + its message), `RegistryConnectionError` (could not
 * reach it; retry later), `RegistryThrottled` (our rate limit; answer 429).
 */
export interface RegistryConnection {
  readonly registry: string
  checkDomains(names: string[]): Promise<CheckResult[]>
  createDomain(input: DomainCreateInput): Promise<DomainCreateResult>
  infoDomain(name: string, options?: { authInfo?: string }): Promise<DomainInfo>
  renewDomain(input: DomainRenewInput): Promise<DomainRenewResult>
  transferDomain(input: DomainTransferInput): Promise<TransferResult>
  updateDomain(input: DomainUpdateInput): Promise<void>
  deleteDomain(name: string): Promise<DomainDeleteResult>
  restoreDomain(name: string): Promise<DomainRestoreResult>
  checkHosts(names: string[]): Promise<CheckResult[]>
  createHost(input: HostCreateInput): Promise<HostCreateResult>
  infoHost(name: string): Promise<HostInfo>
  updateHost(input: HostUpdateInput): Promise<void>
  deleteHost(name: string): Promise<void>
  checkContacts(ids: string[]): Promise<CheckResult[]>
  createContact(input: ContactCreateInput): Promise<ContactCreateResult>
  infoContact(id: string, options?: { authInfo?: string }): Promise<ContactInfo>
  updateContact(input: ContactUpdateInput): Promise<void>
  deleteContact(id: string): Promise<void>
  /** Oldest message in the registrar's queue, or null. */
  poll(): Promise<PollMessage | null>
  ackPoll(id: string): Promise<{ remaining: number }>
  close(): Promise<void>
}

export type EppRegistryConnectionOptions = {
  /** Our name for the registry (used in errors and logs), e.g. "local" or "verisign". */
  registry: string
  client: EppClientOptions
  clientId: string
  password: string
  objURIs?: string[]
  extURIs?: string[]
  /** Sessions in the pool (default 2). */
  sessions?: number
  /** Commands per second allowed towards this registry, with a burst of `burst` (defaults 10/s, burst 20). */
  rateLimit?: { perSecond: number; burst: number }
  now?: () => number
}

/** `RegistryConnection` over EPP: a pool of sessions behind a per-registry token bucket. */
export class EppRegistryConnection implements RegistryConnection {
  readonly registry: string
  readonly pool: EppPool
  readonly bucket: TokenBucket

  constructor(options: EppRegistryConnectionOptions) {
    this.registry = options.registry
    this.pool = new EppPool({
      client: options.client,
      login: { clientId: options.clientId, password: options.password, objURIs: options.objURIs, extURIs: options.extURIs },
      size: options.sessions ?? 2,
    })
    const limit = options.rateLimit ?? { perSecond: 10, burst: 20 }
    this.bucket = new TokenBucket({ capacity: limit.burst, perSecond: limit.perSecond, now: options.now })
  }

  private run<T>(work: (client: EppClient) => Promise<T>, retry = false): Promise<T> {
    const wait = this.bucket.take()
    if (wait > 0) return Promise.reject(new RegistryThrottled(this.registry, wait))
    return this.pool.use(work, { retry })
  }

  // Reads may be repeated on a fresh session after a broken one; writes never are (they may have run).
  checkDomains(names: string[]) {
    return this.run((c) => c.checkDomains(names), true)
  }
  createDomain(input: DomainCreateInput) {
    return this.run((c) => c.createDomain(input))
  }
  infoDomain(name: string, options?: { authInfo?: string }) {
    return this.run((c) => c.infoDomain(name, options), true)
  }
  renewDomain(input: DomainRenewInput) {
    return this.run((c) => c.renewDomain(input))
  }
  transferDomain(input: DomainTransferInput) {
    return this.run((c) => c.transferDomain(input), input.op === 'query')
  }
  updateDomain(input: DomainUpdateInput) {
    return this.run((c) => c.updateDomain(input))
  }
  deleteDomain(name: string) {
    return this.run((c) => c.deleteDomain(name))
  }
  restoreDomain(name: string) {
    return this.run((c) => c.restoreDomain(name))
  }
  checkHosts(names: string[]) {
    return this.run((c) => c.checkHosts(names), true)
  }
  createHost(input: HostCreateInput) {
    return this.run((c) => c.createHost(input))
  }
  infoHost(name: string) {
    return this.run((c) => c.infoHost(name), true)
  }
  updateHost(input: HostUpdateInput) {
    return this.run((c) => c.updateHost(input))
  }
  deleteHost(name: string) {
    return this.run((c) => c.deleteHost(name))
  }
  checkContacts(ids: string[]) {
    return this.run((c) => c.checkContacts(ids), true)
  }
  createContact(input: ContactCreateInput) {
    return this.run((c) => c.createContact(input))
  }
  infoContact(id: string, options?: { authInfo?: string }) {
    return this.run((c) => c.infoContact(id, options), true)
  }
  updateContact(input: ContactUpdateInput) {
    return this.run((c) => c.updateContact(input))
  }
  deleteContact(id: string) {
    return this.run((c) => c.deleteContact(id))
  }
  poll() {
    return this.run((c) => c.poll(), true)
  }
  ackPoll(id: string) {
    return this.run((c) => c.ackPoll(id))
  }
  close() {
    return this.pool.close()
  }
}

import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls'
import * as cmd from './commands.ts'
import type { EppResponse, Greeting } from './commands.ts'
import { RegistryConnectionError } from './errors.ts'
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameReader } from './framing.ts'
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

export type EppClientOptions = {
  host: string
  port: number
  /** TLS options: `ca` for a private registry CA, `cert`/`key` when the registry wants a client certificate. */
  tls?: Omit<ConnectionOptions, 'host' | 'port'>
  /** Per command (and for connect + greeting). */
  timeoutMs?: number
  /** Sends <hello> after this much idle time so the registry does not drop the session. 0 = off. */
  keepAliveMs?: number
  maxFrameBytes?: number
  /** Prefix of our client transaction ids, so a registry's logs can be matched to ours. */
  clTRIDPrefix?: string
  /** Sees every frame (for logs and the test that counts validated frames). */
  onFrame?: (direction: 'sent' | 'received', xml: string) => void
}

export type LoginOptions = { clientId: string; password: string; newPassword?: string; objURIs?: string[]; extURIs?: string[] }

type Waiter = { resolve: (xml: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }

let trIdCounter = 0

/**
 * One EPP session over TLS (RFC 5730 + 5734). Commands are written in order and answers matched
 * in order (EPP answers every frame, in sequence), so callers may issue commands concurrently.
 */
export class EppClient {
  readonly options: EppClientOptions
  greeting: Greeting | undefined
  private socket: TLSSocket | undefined
  private readonly waiters: Waiter[] = []
  private closed = false
  private closeError: Error | undefined
  private keepAlive: NodeJS.Timeout | undefined
  private lastActivity = Date.now()
  private loggedIn = false

  constructor(options: EppClientOptions) {
    this.options = options
  }

  get isOpen(): boolean {
    return !this.closed && this.socket !== undefined
  }

  get isLoggedIn(): boolean {
    return this.loggedIn && this.isOpen
  }

  /** Opens the TLS connection and reads the server's greeting. */
  async connect(): Promise<Greeting> {
    const { host, port } = this.options
    const timeoutMs = this.options.timeoutMs ?? 30_000
    const reader = new FrameReader(this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES)
    const greetingXml = this.expectFrame(timeoutMs)
    const socket = tlsConnect({ host, port, servername: isIp(host) ? undefined : host, ...this.options.tls })
    this.socket = socket
    socket.on('data', (chunk: Buffer) => {
      let frames: string[]
      try {
        frames = reader.push(chunk)
      } catch (error) {
        this.fail(new RegistryConnectionError((error as Error).message, { cause: error }))
        socket.destroy()
        return
      }
      for (const frame of frames) {
        this.lastActivity = Date.now()
        this.options.onFrame?.('received', frame)
        const waiter = this.waiters.shift()
        if (!waiter) continue // unsolicited: EPP servers only speak when spoken to, except the greeting
        clearTimeout(waiter.timer)
        waiter.resolve(frame)
      }
    })
    socket.on('error', (error) => this.fail(new RegistryConnectionError(`Registry connection failed: ${error.message}`, { cause: error })))
    socket.on('close', () => this.fail(new RegistryConnectionError('Registry connection closed')))
    try {
      this.greeting = cmd.parseGreeting(await greetingXml)
    } catch (error) {
      this.destroy()
      throw error instanceof RegistryConnectionError ? error : new RegistryConnectionError((error as Error).message, { cause: error })
    }
    const keepAliveMs = this.options.keepAliveMs ?? 0
    if (keepAliveMs > 0) {
      this.keepAlive = setInterval(
        () => {
          if (Date.now() - this.lastActivity >= keepAliveMs && this.waiters.length === 0) this.hello().catch(() => undefined)
        },
        Math.max(50, Math.floor(keepAliveMs / 2)),
      )
      this.keepAlive.unref()
    }
    return this.greeting
  }

  nextClTRID(): string {
    trIdCounter = (trIdCounter + 1) % 1_000_000_000
    return `${this.options.clTRIDPrefix ?? 'RP'}-${Date.now().toString(36)}-${trIdCounter.toString(36)}`
  }

  /** Sends one frame and resolves with the next answer's XML. */
  exchange(xml: string): Promise<string> {
    if (this.closed || !this.socket) return Promise.reject(this.closeError ?? new RegistryConnectionError('Registry session is not open'))
    const answer = this.expectFrame(this.options.timeoutMs ?? 30_000)
    this.lastActivity = Date.now()
    this.options.onFrame?.('sent', xml)
    this.socket.write(encodeFrame(xml))
    return answer
  }

  /** Sends a command and reads its response; 2xxx answers throw RegistryError. */
  async send(xml: string): Promise<EppResponse> {
    const response = cmd.parseResponse(await this.exchange(xml))
    if (response.code >= 2500 && response.code <= 2502) this.destroy()
    return cmd.assertSuccess(response)
  }

  async hello(): Promise<Greeting> {
    this.greeting = cmd.parseGreeting(await this.exchange(cmd.helloFrame()))
    return this.greeting
  }

  async login(options: LoginOptions): Promise<EppResponse> {
    const response = await this.send(cmd.loginFrame(options, this.nextClTRID()))
    this.loggedIn = true
    return response
  }

  /** Ends the session politely (1500) and closes the socket. */
  async logout(): Promise<void> {
    if (!this.isOpen) return
    try {
      if (this.loggedIn) await this.send(cmd.logoutFrame(this.nextClTRID()))
    } finally {
      this.loggedIn = false
      this.destroy()
    }
  }

  destroy(): void {
    if (this.keepAlive) clearInterval(this.keepAlive)
    this.keepAlive = undefined
    this.fail(new RegistryConnectionError('Registry session closed'))
    this.socket?.destroy()
  }

  // -------------------------------------------------------------- domain

  async checkDomains(names: string[]): Promise<CheckResult[]> {
    return cmd.readDomainCheck(await this.send(cmd.domainCheckFrame(names, this.nextClTRID())))
  }
  async createDomain(input: DomainCreateInput): Promise<DomainCreateResult> {
    return cmd.readDomainCreate(await this.send(cmd.domainCreateFrame(input, this.nextClTRID())))
  }
  async infoDomain(name: string, options: { authInfo?: string } = {}): Promise<DomainInfo> {
    return cmd.readDomainInfo(await this.send(cmd.domainInfoFrame(name, this.nextClTRID(), options.authInfo)))
  }
  async renewDomain(input: DomainRenewInput): Promise<DomainRenewResult> {
    return cmd.readDomainRenew(await this.send(cmd.domainRenewFrame(input, this.nextClTRID())))
  }
  async transferDomain(input: DomainTransferInput): Promise<TransferResult> {
    return cmd.readDomainTransfer(await this.send(cmd.domainTransferFrame(input, this.nextClTRID())))
  }
  async updateDomain(input: DomainUpdateInput): Promise<void> {
    await this.send(cmd.domainUpdateFrame(input, this.nextClTRID()))
  }
  async deleteDomain(name: string): Promise<DomainDeleteResult> {
    const response = await this.send(cmd.domainDeleteFrame(name, this.nextClTRID()))
    // 1000: removed at once (add grace; the registry refunds); 1001: pendingDelete → redemption.
    const immediate = response.code === 1000
    return { immediate, refunded: immediate && /refund/i.test(response.message), message: response.message }
  }
  async restoreDomain(name: string): Promise<DomainRestoreResult> {
    return { rgpStatuses: cmd.readRgpStatuses(await this.send(cmd.domainRestoreFrame(name, this.nextClTRID()))) }
  }

  // -------------------------------------------------------------- host

  async checkHosts(names: string[]): Promise<CheckResult[]> {
    return cmd.readHostCheck(await this.send(cmd.hostCheckFrame(names, this.nextClTRID())))
  }
  async createHost(input: HostCreateInput): Promise<HostCreateResult> {
    return cmd.readHostCreate(await this.send(cmd.hostCreateFrame(input, this.nextClTRID())))
  }
  async infoHost(name: string): Promise<HostInfo> {
    return cmd.readHostInfo(await this.send(cmd.hostInfoFrame(name, this.nextClTRID())))
  }
  async updateHost(input: HostUpdateInput): Promise<void> {
    await this.send(cmd.hostUpdateFrame(input, this.nextClTRID()))
  }
  async deleteHost(name: string): Promise<void> {
    await this.send(cmd.hostDeleteFrame(name, this.nextClTRID()))
  }

  // -------------------------------------------------------------- contact

  async checkContacts(ids: string[]): Promise<CheckResult[]> {
    return cmd.readContactCheck(await this.send(cmd.contactCheckFrame(ids, this.nextClTRID())))
  }
  async createContact(input: ContactCreateInput): Promise<ContactCreateResult> {
    return cmd.readContactCreate(await this.send(cmd.contactCreateFrame(input, this.nextClTRID())))
  }
  async infoContact(id: string, options: { authInfo?: string } = {}): Promise<ContactInfo> {
    return cmd.readContactInfo(await this.send(cmd.contactInfoFrame(id, this.nextClTRID(), options.authInfo)))
  }
  async updateContact(input: ContactUpdateInput): Promise<void> {
    await this.send(cmd.contactUpdateFrame(input, this.nextClTRID()))
  }
  async deleteContact(id: string): Promise<void> {
    await this.send(cmd.contactDeleteFrame(id, this.nextClTRID()))
  }

  // -------------------------------------------------------------- poll

  /** The oldest queued message, or null when the queue is empty (1300). */
  async poll(): Promise<PollMessage | null> {
    return cmd.readPoll(await this.send(cmd.pollRequestFrame(this.nextClTRID())))
  }
  /** Removes a message from the queue; answers how many remain. */
  async ackPoll(id: string): Promise<{ remaining: number }> {
    const response = await this.send(cmd.pollAckFrame(id, this.nextClTRID()))
    return { remaining: response.msgQ?.count ?? 0 }
  }

  // -------------------------------------------------------------- internals

  private expectFrame(timeoutMs: number): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          // A late answer would be matched to the wrong command: the session is unusable now.
          this.fail(new RegistryConnectionError(`Registry did not answer within ${timeoutMs} ms`))
          this.socket?.destroy()
        }, timeoutMs),
      }
      this.waiters.push(waiter)
    })
  }

  private fail(error: Error): void {
    if (!this.closed) {
      this.closed = true
      this.closeError = error
      this.loggedIn = false
      if (this.keepAlive) clearInterval(this.keepAlive)
    }
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.reject(error)
    }
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':')
}

import type { EppClientOptions } from './client.ts'
import { RegistryThrottled } from './errors.ts'
import { EppPool } from './pool.ts'
import { TokenBucket } from './rate-limit.ts'
import { child, childrenOf, el, eppDocument, NS, objectEl, textOf, type XNode } from './xml.ts'

/**
 * Block providers (decision 302): a registry that sells blocks of a trademark label across the
 * TLDs of a block product (Identity Digital's DPML, GoDaddy Registry's brand blocks), reached over
 * EPP with our block object mapping (`schemas/block-1.0.xsd`, namespace `NS.blk`). A refusal is a
 * `RegistryError` (its code and the provider's reason), like any registry command.
 */

export type BlockCreateInput = { label: string; product: string; years: number; mark: string }
export type BlockRecord = { id: string; label: string; product: string; tlds: string[]; createdAt: Date; expiresAt: Date; mark?: string; status?: 'ok' | 'expired'; clientId?: string }

export interface BlockProvider {
  /** Our name for the provider (in errors and logs). */
  readonly provider: string
  createBlock(input: BlockCreateInput): Promise<BlockRecord>
  infoBlock(id: string): Promise<BlockRecord>
  renewBlock(input: { id: string; currentExpiry: Date; years: number }): Promise<{ id: string; expiresAt: Date }>
  deleteBlock(id: string): Promise<void>
  close(): Promise<void>
}

const command = (verb: string, body: ReturnType<typeof el>, clTRID: string) => eppDocument(el('command', null, el(verb, null, body), el('clTRID', null, clTRID)))
const period = (years: number) => el('blk:period', { unit: 'y' }, String(years))

export const blockCreateFrame = (input: BlockCreateInput, clTRID: string) =>
  command('create', objectEl('blk', 'create', null, el('blk:label', null, input.label), el('blk:product', null, input.product), period(input.years), el('blk:mark', null, input.mark)), clTRID)
export const blockInfoFrame = (id: string, clTRID: string) => command('info', objectEl('blk', 'info', null, el('blk:id', null, id)), clTRID)
export const blockRenewFrame = (input: { id: string; currentExpiry: Date; years: number }, clTRID: string) =>
  command('renew', objectEl('blk', 'renew', null, el('blk:id', null, input.id), el('blk:curExpDate', null, input.currentExpiry.toISOString().slice(0, 10)), period(input.years)), clTRID)
export const blockDeleteFrame = (id: string, clTRID: string) => command('delete', objectEl('blk', 'delete', null, el('blk:id', null, id)), clTRID)

export function readBlock(data: XNode | undefined): BlockRecord {
  const status = textOf(data, 'blk:status')
  const mark = textOf(data, 'blk:mark')
  const clientId = textOf(data, 'blk:clID')
  return {
    id: textOf(data, 'blk:id') ?? '',
    label: textOf(data, 'blk:label') ?? '',
    product: textOf(data, 'blk:product') ?? '',
    tlds: childrenOf(data, 'blk:tld').map((n) => n.text),
    createdAt: new Date(textOf(data, 'blk:crDate') ?? 0),
    expiresAt: new Date(textOf(data, 'blk:exDate') ?? 0),
    ...(mark !== undefined ? { mark } : {}),
    ...(status === 'ok' || status === 'expired' ? { status } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
  }
}

/** A block provider over EPP: its own pool of sessions logged in with the block object URI, behind a token bucket. */
export class EppBlockProvider implements BlockProvider {
  readonly provider: string
  private readonly pool: EppPool
  private readonly bucket: TokenBucket

  constructor(options: { provider: string; client: EppClientOptions; clientId: string; password: string; sessions?: number; rateLimit?: { perSecond: number; burst: number } }) {
    this.provider = options.provider
    this.pool = new EppPool({
      client: options.client,
      login: { clientId: options.clientId, password: options.password, objURIs: [NS.domain, NS.contact, NS.host, NS.blk] },
      size: options.sessions ?? 1,
    })
    const limit = options.rateLimit ?? { perSecond: 10, burst: 20 }
    this.bucket = new TokenBucket({ capacity: limit.burst, perSecond: limit.perSecond })
  }

  private run<T>(frame: (clTRID: string) => string, read: (resData: XNode | undefined) => T, retry = false): Promise<T> {
    const wait = this.bucket.take()
    if (wait > 0) return Promise.reject(new RegistryThrottled(this.provider, wait))
    return this.pool.use(async (client) => read((await client.send(frame(client.nextClTRID()))).resData), { retry })
  }

  createBlock(input: BlockCreateInput) {
    return this.run(
      (t) => blockCreateFrame(input, t),
      (r) => readBlock(child(r, 'blk:creData')),
    )
  }
  infoBlock(id: string) {
    return this.run(
      (t) => blockInfoFrame(id, t),
      (r) => readBlock(child(r, 'blk:infData')),
      true,
    )
  }
  renewBlock(input: { id: string; currentExpiry: Date; years: number }) {
    return this.run(
      (t) => blockRenewFrame(input, t),
      (r) => {
        const data = child(r, 'blk:renData')
        return { id: textOf(data, 'blk:id') ?? input.id, expiresAt: new Date(textOf(data, 'blk:exDate') ?? 0) }
      },
    )
  }
  async deleteBlock(id: string) {
    await this.run(
      (t) => blockDeleteFrame(id, t),
      () => undefined,
    )
  }
  close() {
    return this.pool.close()
  }
}

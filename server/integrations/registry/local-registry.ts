import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import punycode from 'punycode/punycode.js'
import { IDN_NAME_MESSAGES, idnLabelError, labelScripts, mapLabel, scriptsAllowed, tldScripts } from '#common/idna.ts'
import { RESULT_MESSAGES } from './errors.ts'
import type { DomainContact, DsData, HostAddress, PostalInfo, TransferStatus } from './types.ts'
import { child, childrenOf, el, objectEl, Raw, textOf, type XNode } from './xml.ts'
import { readPostalInfo } from './commands.ts'

/**
 * The local registry's state and command semantics (RFC 5731–5733, 5910, 3915), independent of
 * sockets: handlers take the parsed command and answer result code, resData and extension.
 * State is plain JSON, kept in memory and snapshotted to DATA_DIR/registry/state.json.
 */

/** `scripts`: the scripts its IDN labels may be in (ISO 15924); left out, common/idna.ts's default for the TLD. */
export type TldPolicy = { createYears: number[]; renewYears: number[]; transferYears: number[]; scripts?: string[] }
export type LocalRegistryPolicy = {
  /** Served TLDs and their allowed periods; a TLD not listed is not served. */
  tlds: Record<string, TldPolicy>
  addGraceDays: number
  redemptionDays: number
  pendingDeleteDays: number
  /** A pending transfer the losing registrar does not answer is approved by the server after this. */
  transferAutoApproveSeconds: number
  /**
   * Registrars (client ids) that answer a transfer of their names themselves, approving it this many
   * seconds after the request, as a losing registrar that does not wait out the period does (the demo's other registrar).
   */
  transferApprovers?: Record<string, number>
  maxRegistrationYears: number
  /**
   * Block products this registry sells (decision 302), by product id: the periods it accepts and
   * the TLDs a block covers (left out: every TLD the registry serves, as Identity Digital's DPML
   * covers its whole portfolio).
   */
  blockProducts: Record<string, { years: number[]; tlds?: string[] }>
}

const YEARS_1_TO_10 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
export const DEFAULT_TLD_POLICY: TldPolicy = { createYears: YEARS_1_TO_10, renewYears: YEARS_1_TO_10, transferYears: [1] }
export const DEFAULT_POLICY: LocalRegistryPolicy = {
  tlds: { test: DEFAULT_TLD_POLICY, example: DEFAULT_TLD_POLICY },
  addGraceDays: 5,
  redemptionDays: 30,
  pendingDeleteDays: 5,
  transferAutoApproveSeconds: 5 * 24 * 3600,
  maxRegistrationYears: 10,
  blockProducts: { dpml: { years: YEARS_1_TO_10 } },
}

type TransferRec = { status: TransferStatus; reID: string; reDate: string; acID: string; acDate: string; years: number; exDate?: string }
type DomainRec = {
  name: string
  roid: string
  clID: string
  crID: string
  crDate: string
  upID?: string
  upDate?: string
  exDate: string
  trDate?: string
  authInfo: string
  registrant?: string
  contacts: DomainContact[]
  ns: string[]
  /** Client and server statuses set by update; derived ones (ok, inactive, pending*) are computed. */
  statuses: string[]
  ds: DsData[]
  addGraceUntil?: string
  /** Set by a delete outside add grace: the domain is in redemption until then, purged at purgeAt. */
  redemptionUntil?: string
  purgeAt?: string
  transfer?: TransferRec
}
type HostRec = { name: string; roid: string; clID: string; crID: string; crDate: string; upID?: string; upDate?: string; addrs: HostAddress[]; statuses: string[] }
type ContactRec = {
  id: string
  roid: string
  clID: string
  crID: string
  crDate: string
  upID?: string
  upDate?: string
  postalInfo: PostalInfo[]
  voice?: string
  fax?: string
  email: string
  authInfo: string
  statuses: string[]
}
/** A label blocked across a block product's TLDs, for a term (decision 302). */
type BlockRec = { id: string; label: string; product: string; mark: string; clID: string; crDate: string; exDate: string; tlds: string[] }
type PollRec = { id: string; qDate: string; msg: string; transfer?: { name: string } & TransferRec }

export type RegistryState = {
  seq: number
  domains: Record<string, DomainRec>
  hosts: Record<string, HostRec>
  contacts: Record<string, ContactRec>
  queues: Record<string, PollRec[]>
  /** Passwords changed with <newPW> at login, by client id. */
  passwords: Record<string, string>
  /** Blocks by id (absent from snapshots made before blocks existed). */
  blocks?: Record<string, BlockRec>
}

/** A registration loaded by the registry operator (see `LocalRegistry.preload`). */
export type PreloadDomain = {
  name: string
  /** The sponsoring registrar's client id. */
  clientId: string
  createdAt: Date | string
  expiresAt: Date | string
  authInfo: string
  /** Stored client* and server* statuses; ok, inactive and pending* are computed as for any domain. */
  statuses?: string[]
  nameservers?: string[]
  ds?: DsData[]
  registrant?: string
  contacts?: DomainContact[]
}

/** What the registry holds for a preloaded domain, as `info` answers it. */
export type PreloadedDomain = { name: string; roid: string; clientId: string; createdAt: Date; expiresAt: Date; statuses: string[]; nameservers: string[]; ds: DsData[] }

/** A domain as the registry publishes it (RDAP): dates as ISO strings, statuses in EPP's words. */
export type PublishedDomain = {
  name: string
  roid: string
  clientId: string
  createdAt: string
  expiresAt: string
  updatedAt?: string
  transferredAt?: string
  statuses: string[]
  nameservers: string[]
  signed: boolean
}

export class EppFault extends Error {
  readonly code: number
  readonly reason: string | undefined
  constructor(code: number, reason?: string) {
    super(RESULT_MESSAGES[code] ?? 'Command failed')
    this.code = code
    this.reason = reason
  }
}

export type Answer = { code: number; msg?: string; resData?: Raw; extension?: Raw[]; msgQ?: { count: number; id: string; qDate?: string; msg?: string } }

const DAY = 24 * 3600 * 1000
const CLIENT_DOMAIN_STATUSES = new Set(['clientDeleteProhibited', 'clientHold', 'clientRenewProhibited', 'clientTransferProhibited', 'clientUpdateProhibited'])
const SERVER_DOMAIN_STATUSES = new Set(['serverDeleteProhibited', 'serverHold', 'serverRenewProhibited', 'serverTransferProhibited', 'serverUpdateProhibited'])
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

export function emptyState(): RegistryState {
  return { seq: 0, domains: {}, hosts: {}, contacts: {}, queues: {}, passwords: {} }
}

export class LocalRegistry {
  state: RegistryState
  readonly policy: LocalRegistryPolicy
  private readonly now: () => Date
  private readonly file: string | undefined

  constructor(options: { policy?: Partial<LocalRegistryPolicy>; now?: () => Date; dataDir?: string } = {}) {
    this.policy = { ...DEFAULT_POLICY, ...options.policy }
    this.now = options.now ?? (() => new Date())
    this.file = options.dataDir ? path.join(options.dataDir, 'registry', 'state.json') : undefined
    this.state = this.file && existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as RegistryState) : emptyState()
  }

  /** Writes the snapshot (atomically: a crash never leaves half a file). */
  save(): void {
    if (!this.file) return
    mkdirSync(path.dirname(this.file), { recursive: true })
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.state))
    renameSync(`${this.file}.tmp`, this.file)
  }

  passwordFor(clientId: string, configured: string): string {
    return this.state.passwords[clientId] ?? configured
  }

  // -------------------------------------------------------------- operator bootstrap

  /**
   * Loads registrations that exist before any EPP session, the way a registry's test environment
   * comes pre-loaded with data: it is the registry's own data, so nothing goes over EPP, no add
   * grace period starts and no poll message is queued. All or nothing: every record is checked
   * before one is stored. A name already held is replaced (a demo reset starts the portfolio anew).
   * Name servers outside the served TLDs become host objects of the sponsor when absent; a
   * subordinate name server must exist already. Saves the snapshot once; answers what `info`
   * will say about each domain (roid and the statuses as computed), in input order.
   */
  preload(domains: PreloadDomain[]): PreloadedDomain[] {
    const problems: string[] = []
    const seen = new Set<string>()
    const records: DomainRec[] = []
    for (const input of domains) {
      const name = this.normalise(input.name)
      const fail = (problem: string) => problems.push(`${name || '(empty)'}: ${problem}`)
      const nameProblem = this.nameProblem(name)
      if (nameProblem) fail(nameProblem)
      else if (!this.tldOf(name)) fail('TLD not served by this registry')
      if (seen.has(name)) fail('listed twice')
      seen.add(name)
      if (!input.clientId) fail('no sponsoring client id')
      const created = new Date(input.createdAt)
      const expires = new Date(input.expiresAt)
      if (Number.isNaN(created.getTime()) || Number.isNaN(expires.getTime())) fail('created and expiry must be dates')
      else if (expires <= created) fail('expiry must be after creation')
      const statuses = [...new Set(input.statuses ?? [])]
      for (const s of statuses) if (!CLIENT_DOMAIN_STATUSES.has(s) && !SERVER_DOMAIN_STATUSES.has(s)) fail(`status ${s} cannot be stored (derived statuses are computed)`)
      const ns = [...new Set((input.nameservers ?? []).map((h) => this.normalise(h)))]
      for (const host of ns) {
        if (this.nameProblem(host)) fail(`invalid name server ${host}`)
        else if (this.tldOf(host) && !this.state.hosts[host]) fail(`subordinate name server ${host} does not exist`)
      }
      for (const id of [input.registrant, ...(input.contacts ?? []).map((c) => c.id)]) if (id !== undefined && !this.state.contacts[id]) fail(`contact ${id} does not exist`)
      for (const ds of input.ds ?? []) if (!/^[0-9a-f]+$/i.test(ds.digest) || ds.digest.length % 2) fail('DS digest must be hexadecimal')
      records.push({
        name,
        roid: '',
        clID: input.clientId,
        crID: input.clientId,
        crDate: Number.isNaN(created.getTime()) ? '' : created.toISOString(),
        exDate: Number.isNaN(expires.getTime()) ? '' : expires.toISOString(),
        authInfo: input.authInfo,
        ...(input.registrant ? { registrant: input.registrant } : {}),
        contacts: [...(input.contacts ?? [])],
        ns,
        statuses,
        ds: (input.ds ?? []).map((d) => ({ ...d, digest: d.digest.toUpperCase() })),
      })
    }
    if (problems.length) throw new Error(`Preload refused (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.slice(0, 10).join('; ')}`)

    for (const record of records) {
      for (const host of record.ns) {
        if (!this.state.hosts[host]) this.state.hosts[host] = { name: host, roid: this.nextRoid('H'), clID: record.clID, crID: record.clID, crDate: record.crDate, addrs: [], statuses: [] }
      }
      record.roid = this.nextRoid('D')
      this.state.domains[record.name] = record
    }
    this.save()
    return records.map((d) => ({
      name: d.name,
      roid: d.roid,
      clientId: d.clID,
      createdAt: new Date(d.crDate),
      expiresAt: new Date(d.exDate),
      statuses: this.domainStatuses(d),
      nameservers: [...d.ns],
      ds: d.ds.map((x) => ({ ...x })),
    }))
  }

  /**
   * What the registry publishes of a domain (its RDAP answer, rdap-server.ts): nothing secret (no
   * auth code, no contacts), the statuses as `info` computes them with the RGP ones beside them.
   * Undefined for a name it does not hold.
   */
  published(name: string): PublishedDomain | undefined {
    this.settle()
    const d = this.state.domains[this.normalise(name)]
    if (!d) return undefined
    return {
      name: d.name,
      roid: d.roid,
      clientId: d.clID,
      createdAt: d.crDate,
      expiresAt: d.exDate,
      ...(d.upDate ? { updatedAt: d.upDate } : {}),
      ...(d.trDate ? { transferredAt: d.trDate } : {}),
      statuses: [...this.domainStatuses(d), ...this.rgpStatuses(d)],
      nameservers: [...d.ns],
      signed: d.ds.length > 0,
    }
  }

  // -------------------------------------------------------------- time-driven transitions

  /** Applies what time has made due: server-approved transfers, purges after redemption. */
  settle(): boolean {
    const now = this.now()
    let changed = false
    for (const domain of Object.values(this.state.domains)) {
      if (domain.purgeAt && new Date(domain.purgeAt) <= now) {
        this.removeDomain(domain)
        changed = true
        continue
      }
      const t = domain.transfer
      if (t?.status === 'pending' && new Date(t.acDate) <= now) {
        this.completeTransfer(domain, this.policy.transferApprovers?.[t.acID] === undefined ? 'serverApproved' : 'clientApproved', t.acDate)
        changed = true
      }
    }
    return changed
  }

  private removeDomain(domain: DomainRec): void {
    for (const host of Object.values(this.state.hosts)) if (host.name.endsWith(`.${domain.name}`)) delete this.state.hosts[host.name]
    delete this.state.domains[domain.name]
  }

  // -------------------------------------------------------------- helpers

  private iso(date = this.now()): string {
    return date.toISOString()
  }
  private nextRoid(kind: 'D' | 'H' | 'C' | 'B'): string {
    this.state.seq++
    return `${kind}${this.state.seq}-LOCAL`
  }
  private enqueue(clID: string, msg: string, transfer?: PollRec['transfer']): void {
    this.state.seq++
    const queue = (this.state.queues[clID] ??= [])
    queue.push({ id: String(this.state.seq), qDate: this.iso(), msg, ...(transfer ? { transfer: { ...transfer } } : {}) })
  }

  private tldOf(name: string): TldPolicy | undefined {
    return this.policy.tlds[name.slice(name.lastIndexOf('.') + 1)]
  }

  /** Syntax per RFC 1035 labels (LDH, no leading/trailing hyphen, hyphens in 3–4 only for xn--). */
  private nameProblem(name: string): string | undefined {
    const labels = name.split('.')
    if (name.length > 253 || labels.length < 2) return 'Invalid domain name'
    for (const label of labels) {
      if (!LABEL.test(label)) return 'Invalid domain name'
      if (label.slice(2, 4) === '--' && !label.startsWith('xn--')) return 'Invalid domain name'
      if (label.startsWith('xn--')) {
        const problem = this.idnProblem(label)
        if (problem) return problem
      }
    }
    return undefined
  }

  /**
   * An A-label must stand for a valid IDNA2008 label (RFC 5891 §5.4): decoded, mapped to itself,
   * no invisible character, one script, CONTEXTO and the Bidi rule (common/idna.ts; issue 26).
   */
  private idnProblem(label: string): string | undefined {
    let unicode: string
    try {
      unicode = punycode.decode(label.slice(4))
    } catch {
      return `Invalid IDN label ${label}`
    }
    if (`xn--${punycode.encode(unicode)}` !== label || mapLabel(unicode) !== unicode) return `Invalid IDN label ${label}`
    const error = idnLabelError(unicode)
    if (!error) return undefined
    return `Invalid IDN label ${label}: ${IDN_NAME_MESSAGES[error]}`
  }

  /** The registry's script policy for the TLD (2306 when refused): a label in a script it does not take. */
  private scriptProblem(name: string): string | undefined {
    const labels = name.split('.')
    const tld = labels.pop()!
    const allowed = this.tldOf(name)?.scripts ?? tldScripts(tld, tld.startsWith('xn--') ? punycode.toUnicode(tld) : tld)
    for (const label of labels) {
      if (!label.startsWith('xn--')) continue
      const scripts = labelScripts(punycode.decode(label.slice(4)))
      if (!scripts || !scriptsAllowed(scripts, allowed)) return `Labels in this script are not accepted for .${tld}`
    }
    return undefined
  }

  private normalise(name: string | undefined): string {
    return (name ?? '').trim().toLowerCase().replace(/\.$/, '')
  }

  private domainFor(name: string | undefined): DomainRec {
    const domain = this.state.domains[this.normalise(name)]
    if (!domain) throw new EppFault(2303)
    return domain
  }

  private sponsored(domain: { clID: string }, clID: string): void {
    if (domain.clID !== clID) throw new EppFault(2201, 'The object is sponsored by another registrar')
  }

  private domainStatuses(d: DomainRec): string[] {
    const list = [...d.statuses]
    if (d.redemptionUntil) list.push('pendingDelete')
    if (d.transfer?.status === 'pending') list.push('pendingTransfer')
    if (!d.ns.length) list.push('inactive')
    return list.length ? list : ['ok']
  }

  private rgpStatuses(d: DomainRec): string[] {
    const now = this.now()
    const list: string[] = []
    if (d.addGraceUntil && new Date(d.addGraceUntil) > now && !d.redemptionUntil) list.push('addPeriod')
    if (d.redemptionUntil) list.push(new Date(d.redemptionUntil) > now ? 'redemptionPeriod' : 'pendingDelete')
    return list
  }

  private hostLinked(name: string): boolean {
    return Object.values(this.state.domains).some((d) => d.ns.includes(name))
  }
  private contactLinked(id: string): boolean {
    return Object.values(this.state.domains).some((d) => d.registrant === id || d.contacts.some((c) => c.id === id))
  }

  private years(node: XNode | undefined, allowed: number[], fallback: number): number {
    if (!node) return allowed.includes(fallback) ? fallback : (allowed[0] ?? 1)
    const years = Number(node.text)
    if (!allowed.includes(years)) throw new EppFault(2004, `Period of ${years} year(s) is not allowed; allowed: ${allowed.join(', ')}`)
    return years
  }

  private addYears(iso: string, years: number): string {
    const date = new Date(iso)
    date.setUTCFullYear(date.getUTCFullYear() + years)
    return date.toISOString()
  }

  private checkContactsExist(ids: (string | undefined)[]): void {
    for (const id of ids) if (id !== undefined && !this.state.contacts[id]) throw new EppFault(2303, `Contact ${id} does not exist`)
  }
  private checkHostsExist(names: string[]): void {
    for (const name of names) if (!this.state.hosts[name]) throw new EppFault(2303, `Host ${name} does not exist`)
  }

  private readDs(node: XNode): DsData {
    return {
      keyTag: Number(textOf(node, 'secDNS:keyTag')),
      alg: Number(textOf(node, 'secDNS:alg')),
      digestType: Number(textOf(node, 'secDNS:digestType')),
      digest: (textOf(node, 'secDNS:digest') ?? '').toUpperCase(),
    }
  }

  private readContacts(node: XNode | undefined): DomainContact[] {
    return childrenOf(node, 'domain:contact').map((c) => ({ type: (c.attrs.type ?? 'admin') as DomainContact['type'], id: c.text }))
  }

  private readNs(node: XNode | undefined): string[] {
    const ns = child(node, 'domain:ns')
    if (childrenOf(ns, 'domain:hostAttr').length) throw new EppFault(2102, 'This registry uses host objects (hostObj), not host attributes')
    return childrenOf(ns, 'domain:hostObj').map((h) => this.normalise(h.text))
  }

  // -------------------------------------------------------------- block (decision 302)

  private activeBlocks(): BlockRec[] {
    const now = this.iso()
    return Object.values(this.state.blocks ?? {}).filter((b) => b.exDate > now)
  }

  private blockFor(id: string | undefined, clID: string): BlockRec {
    const block = this.state.blocks?.[(id ?? '').trim()]
    if (!block) throw new EppFault(2303)
    this.sponsored(block, clID)
    return block
  }

  private blockTlds(product: { tlds?: string[] }): string[] {
    return [...(product.tlds ?? Object.keys(this.policy.tlds))].sort()
  }

  /**
   * A block of a label across the product's TLDs. Refused when the product is not sold here
   * (2306), the label is not a DNS label (2005), an active block of the same product holds the
   * label already — whoever asked for it (2302) —, or the label is registered in a covered TLD
   * (2308, naming the registrations): the provider blocks only labels nobody holds.
   */
  blockCreate(cmd: XNode, clID: string): Answer {
    const label = this.normalise(textOf(cmd, 'blk:label'))
    const productId = textOf(cmd, 'blk:product') ?? ''
    const product = this.policy.blockProducts[productId]
    if (!product) throw new EppFault(2306, `Block product ${productId} is not offered by this registry`)
    if (!LABEL.test(label) || (label.slice(2, 4) === '--' && !label.startsWith('xn--'))) throw new EppFault(2005, 'Invalid label')
    const idnProblem = label.startsWith('xn--') ? this.idnProblem(label) : undefined
    if (idnProblem) throw new EppFault(2005, idnProblem)
    // The holder is the trademark the block is placed under (its SMD / TMCH reference), through its registrar.
    const mark = textOf(cmd, 'blk:mark') ?? ''
    const taken = this.activeBlocks().find((b) => b.label === label && b.product === productId)
    if (taken)
      throw new EppFault(2302, taken.clID === clID && taken.mark === mark ? `The label ${label} is already blocked by you (${taken.id})` : `The label ${label} is already blocked by another holder`)
    const tlds = this.blockTlds(product)
    const registered = tlds.map((tld) => `${label}.${tld}`).filter((name) => this.state.domains[name])
    if (registered.length) throw new EppFault(2308, `The label is registered in a covered TLD: ${registered.join(', ')}`)
    const years = this.years(child(cmd, 'blk:period'), product.years, 1)
    const now = this.iso()
    this.state.blocks ??= {}
    const block: BlockRec = { id: this.nextRoid('B'), label, product: productId, mark, clID, crDate: now, exDate: this.addYears(now, years), tlds }
    this.state.blocks[block.id] = block
    return {
      code: 1000,
      resData: objectEl(
        'blk',
        'creData',
        null,
        el('blk:id', null, block.id),
        el('blk:label', null, block.label),
        el('blk:product', null, block.product),
        block.tlds.map((t) => el('blk:tld', null, t)),
        el('blk:crDate', null, block.crDate),
        el('blk:exDate', null, block.exDate),
      ),
    }
  }

  blockInfo(cmd: XNode, clID: string): Answer {
    const block = this.blockFor(textOf(cmd, 'blk:id'), clID)
    return {
      code: 1000,
      resData: objectEl(
        'blk',
        'infData',
        null,
        el('blk:id', null, block.id),
        el('blk:label', null, block.label),
        el('blk:product', null, block.product),
        el('blk:mark', null, block.mark),
        el('blk:status', null, block.exDate > this.iso() ? 'ok' : 'expired'),
        block.tlds.map((t) => el('blk:tld', null, t)),
        el('blk:clID', null, block.clID),
        el('blk:crDate', null, block.crDate),
        el('blk:exDate', null, block.exDate),
      ),
    }
  }

  /** Extends a block's term from its expiry (curExpDate must match, as for a domain); an expired block is not renewed (2105). */
  blockRenew(cmd: XNode, clID: string): Answer {
    const block = this.blockFor(textOf(cmd, 'blk:id'), clID)
    if (block.exDate <= this.iso()) throw new EppFault(2105, 'The block has expired: order a new one')
    const current = textOf(cmd, 'blk:curExpDate')
    if (current !== block.exDate.slice(0, 10)) throw new EppFault(2004, `curExpDate ${current} does not match the expiry date ${block.exDate.slice(0, 10)}`)
    const years = this.years(child(cmd, 'blk:period'), this.policy.blockProducts[block.product]?.years ?? [1], 1)
    block.exDate = this.addYears(block.exDate, years)
    return { code: 1000, resData: objectEl('blk', 'renData', null, el('blk:id', null, block.id), el('blk:exDate', null, block.exDate)) }
  }

  /** Cancels a block: the label is free to register at once. */
  blockDelete(cmd: XNode, clID: string): Answer {
    const block = this.blockFor(textOf(cmd, 'blk:id'), clID)
    delete this.state.blocks![block.id]
    return { code: 1000 }
  }

  // -------------------------------------------------------------- domain

  domainCheck(cmd: XNode): Answer {
    const cds = childrenOf(cmd, 'domain:name').map((n) => {
      const name = this.normalise(n.text)
      const problem = this.nameProblem(name) ?? (this.tldOf(name) ? this.scriptProblem(name) : 'TLD not served by this registry')
      const taken = !problem && this.state.domains[name] ? 'In use' : undefined
      const reason = problem ?? taken
      return el('domain:cd', null, el('domain:name', { avail: reason ? 0 : 1 }, n.text), reason ? el('domain:reason', null, reason) : null)
    })
    return { code: 1000, resData: objectEl('domain', 'chkData', null, cds) }
  }

  domainCreate(cmd: XNode, clID: string, ext: XNode | undefined): Answer {
    const name = this.normalise(textOf(cmd, 'domain:name'))
    const problem = this.nameProblem(name)
    if (problem) throw new EppFault(2005, problem)
    const tld = this.tldOf(name)
    if (!tld) throw new EppFault(2306, 'TLD not served by this registry')
    const scriptProblem = this.scriptProblem(name)
    if (scriptProblem) throw new EppFault(2306, scriptProblem)
    if (this.state.domains[name]) throw new EppFault(2302)
    const block = this.activeBlocks().find((b) => b.label === name.slice(0, name.indexOf('.')) && b.tlds.includes(name.slice(name.indexOf('.') + 1)))
    if (block) throw new EppFault(2308, `The label ${block.label} is blocked (${block.product} block ${block.id})`)
    const years = this.years(child(cmd, 'domain:period'), tld.createYears, 1)
    const ns = this.readNs(cmd)
    this.checkHostsExist(ns)
    const registrant = textOf(cmd, 'domain:registrant')
    const contacts = this.readContacts(cmd)
    this.checkContactsExist([registrant, ...contacts.map((c) => c.id)])
    const secDNS = child(ext, 'secDNS:create')
    if (secDNS && childrenOf(secDNS, 'secDNS:keyData').length) throw new EppFault(2102, 'Only the dsData interface is supported')
    const now = this.iso()
    const domain: DomainRec = {
      name,
      roid: this.nextRoid('D'),
      clID,
      crID: clID,
      crDate: now,
      exDate: this.addYears(now, years),
      authInfo: textOf(child(cmd, 'domain:authInfo'), 'domain:pw') ?? '',
      ...(registrant ? { registrant } : {}),
      contacts,
      ns,
      statuses: [],
      ds: childrenOf(secDNS, 'secDNS:dsData').map((n) => this.readDs(n)),
      addGraceUntil: new Date(this.now().getTime() + this.policy.addGraceDays * DAY).toISOString(),
    }
    this.state.domains[name] = domain
    return {
      code: 1000,
      resData: objectEl('domain', 'creData', null, el('domain:name', null, name), el('domain:crDate', null, domain.crDate), el('domain:exDate', null, domain.exDate)),
    }
  }

  domainInfo(cmd: XNode, clID: string): Answer {
    const domain = this.domainFor(textOf(cmd, 'domain:name'))
    const pw = textOf(child(cmd, 'domain:authInfo'), 'domain:pw')
    const sponsor = domain.clID === clID
    if (!sponsor && pw !== undefined && pw !== domain.authInfo) throw new EppFault(2202)
    const full = sponsor || pw !== undefined
    const statuses = this.domainStatuses(domain).map((s) => el('domain:status', { s }))
    if (!full) {
      // RFC 5731 §3.1.2: without authorization only the public part is answered.
      return { code: 1000, resData: objectEl('domain', 'infData', null, el('domain:name', null, domain.name), el('domain:roid', null, domain.roid), statuses, el('domain:clID', null, domain.clID)) }
    }
    const subordinate = Object.keys(this.state.hosts).filter((h) => h.endsWith(`.${domain.name}`))
    const extension: Raw[] = []
    if (domain.ds.length) extension.push(objectEl('secDNS', 'infData', null, domain.ds.map(dsXml)))
    const rgp = this.rgpStatuses(domain)
    if (rgp.length)
      extension.push(
        objectEl(
          'rgp',
          'infData',
          null,
          rgp.map((s) => el('rgp:rgpStatus', { s })),
        ),
      )
    return {
      code: 1000,
      resData: objectEl(
        'domain',
        'infData',
        null,
        el('domain:name', null, domain.name),
        el('domain:roid', null, domain.roid),
        statuses,
        domain.registrant ? el('domain:registrant', null, domain.registrant) : null,
        domain.contacts.map((c) => el('domain:contact', { type: c.type }, c.id)),
        domain.ns.length
          ? el(
              'domain:ns',
              null,
              domain.ns.map((h) => el('domain:hostObj', null, h)),
            )
          : null,
        subordinate.map((h) => el('domain:host', null, h)),
        el('domain:clID', null, domain.clID),
        el('domain:crID', null, domain.crID),
        el('domain:crDate', null, domain.crDate),
        domain.upID ? el('domain:upID', null, domain.upID) : null,
        domain.upDate ? el('domain:upDate', null, domain.upDate) : null,
        el('domain:exDate', null, domain.exDate),
        domain.trDate ? el('domain:trDate', null, domain.trDate) : null,
        el('domain:authInfo', null, el('domain:pw', null, domain.authInfo)),
      ),
      extension,
    }
  }

  domainRenew(cmd: XNode, clID: string): Answer {
    const domain = this.domainFor(textOf(cmd, 'domain:name'))
    this.sponsored(domain, clID)
    const statuses = this.domainStatuses(domain)
    if (statuses.some((s) => s === 'clientRenewProhibited' || s === 'serverRenewProhibited' || s === 'pendingDelete' || s === 'pendingTransfer')) {
      throw new EppFault(2304, `Domain status ${statuses.join(', ')} prohibits renewal`)
    }
    const current = textOf(cmd, 'domain:curExpDate')
    if (current !== domain.exDate.slice(0, 10)) throw new EppFault(2004, `curExpDate ${current} does not match the expiry date ${domain.exDate.slice(0, 10)}`)
    const years = this.years(child(cmd, 'domain:period'), this.tldOf(domain.name)?.renewYears ?? [1], 1)
    const exDate = this.addYears(domain.exDate, years)
    if (new Date(exDate).getTime() > this.now().getTime() + this.policy.maxRegistrationYears * 366 * DAY) {
      throw new EppFault(2004, `Renewal would exceed the maximum registration of ${this.policy.maxRegistrationYears} years`)
    }
    domain.exDate = exDate
    return { code: 1000, resData: objectEl('domain', 'renData', null, el('domain:name', null, domain.name), el('domain:exDate', null, exDate)) }
  }

  private trnData(name: string, t: TransferRec): Raw {
    return objectEl(
      'domain',
      'trnData',
      null,
      el('domain:name', null, name),
      el('domain:trStatus', null, t.status),
      el('domain:reID', null, t.reID),
      el('domain:reDate', null, t.reDate),
      el('domain:acID', null, t.acID),
      el('domain:acDate', null, t.acDate),
      t.exDate ? el('domain:exDate', null, t.exDate) : null,
    )
  }

  private completeTransfer(domain: DomainRec, status: TransferStatus, at = this.iso()): void {
    const t = domain.transfer!
    const losing = domain.clID
    t.status = status
    t.acDate = at
    if (status === 'clientApproved' || status === 'serverApproved') {
      domain.exDate = this.addYears(domain.exDate, t.years)
      t.exDate = domain.exDate
      domain.clID = t.reID
      domain.trDate = at
      domain.addGraceUntil = undefined
      // Subordinate hosts follow their domain to the new sponsor.
      for (const host of Object.values(this.state.hosts)) if (host.name.endsWith(`.${domain.name}`)) host.clID = t.reID
    }
    const text = {
      clientApproved: 'Transfer approved',
      serverApproved: 'Transfer approved by the registry',
      clientRejected: 'Transfer rejected',
      clientCancelled: 'Transfer cancelled',
      serverCancelled: 'Transfer cancelled by the registry',
      pending: 'Transfer requested',
    }[status]
    // The party that acted knows already; the other one (both, for the registry's own actions) is told.
    const notify = status === 'clientCancelled' ? [losing] : status.startsWith('server') ? [t.reID, losing] : [t.reID]
    for (const clientId of notify) this.enqueue(clientId, `${text}: ${domain.name}`, { name: domain.name, ...t })
  }

  domainTransfer(cmd: XNode, op: string, clID: string): Answer {
    const domain = this.domainFor(textOf(cmd, 'domain:name'))
    const pw = textOf(child(cmd, 'domain:authInfo'), 'domain:pw')
    const t = domain.transfer
    switch (op) {
      case 'request': {
        if (domain.clID === clID) throw new EppFault(2106, 'The domain is already sponsored by you')
        if (t?.status === 'pending') throw new EppFault(2300)
        if (pw === undefined) throw new EppFault(2003, 'authInfo is required for a transfer request')
        if (pw !== domain.authInfo) throw new EppFault(2202)
        const statuses = this.domainStatuses(domain)
        if (statuses.some((s) => s === 'clientTransferProhibited' || s === 'serverTransferProhibited' || s === 'pendingDelete')) {
          throw new EppFault(2304, `Domain status ${statuses.join(', ')} prohibits transfer`)
        }
        if (domain.addGraceUntil && new Date(domain.addGraceUntil) > this.now()) throw new EppFault(2106, 'Not eligible for transfer within the add grace period')
        const years = this.years(child(cmd, 'domain:period'), this.tldOf(domain.name)?.transferYears ?? [1], 1)
        const now = this.now()
        // The action date: when the losing registrar approves, for one that answers its transfers; else when the server does.
        const answersIn = this.policy.transferApprovers?.[domain.clID] ?? this.policy.transferAutoApproveSeconds
        domain.transfer = {
          status: 'pending',
          reID: clID,
          reDate: now.toISOString(),
          acID: domain.clID,
          acDate: new Date(now.getTime() + answersIn * 1000).toISOString(),
          years,
          exDate: this.addYears(domain.exDate, years),
        }
        this.enqueue(domain.clID, `Transfer requested: ${domain.name}`, { name: domain.name, ...domain.transfer })
        return { code: 1001, resData: this.trnData(domain.name, domain.transfer) }
      }
      case 'query': {
        if (!t) throw new EppFault(2301)
        if (domain.clID !== clID && t.reID !== clID && pw !== domain.authInfo) throw new EppFault(pw === undefined ? 2201 : 2202)
        return { code: 1000, resData: this.trnData(domain.name, t) }
      }
      case 'approve':
      case 'reject': {
        if (t?.status !== 'pending') throw new EppFault(2301)
        this.sponsored(domain, clID)
        this.completeTransfer(domain, op === 'approve' ? 'clientApproved' : 'clientRejected')
        return { code: 1000, resData: this.trnData(domain.name, domain.transfer!) }
      }
      case 'cancel': {
        if (t?.status !== 'pending') throw new EppFault(2301)
        if (t.reID !== clID) throw new EppFault(2201, 'Only the requesting registrar can cancel a transfer')
        this.completeTransfer(domain, 'clientCancelled')
        return { code: 1000, resData: this.trnData(domain.name, domain.transfer!) }
      }
      default:
        throw new EppFault(2102)
    }
  }

  domainUpdate(cmd: XNode, clID: string, ext: XNode | undefined): Answer {
    const domain = this.domainFor(textOf(cmd, 'domain:name'))
    this.sponsored(domain, clID)
    const restore = child(child(ext, 'rgp:update'), 'rgp:restore')
    if (restore) return this.restore(domain, restore.attrs.op ?? 'request', clID)
    const add = child(cmd, 'domain:add')
    const rem = child(cmd, 'domain:rem')
    const chg = child(cmd, 'domain:chg')
    const statuses = this.domainStatuses(domain)
    if (statuses.includes('pendingDelete')) throw new EppFault(2304, 'The domain is pending deletion')
    const removingUpdateLock = childrenOf(rem, 'domain:status').some((s) => s.attrs.s === 'clientUpdateProhibited')
    if (statuses.includes('serverUpdateProhibited') || (statuses.includes('clientUpdateProhibited') && !removingUpdateLock)) {
      throw new EppFault(2304, `Domain status ${statuses.join(', ')} prohibits update`)
    }
    const addStatuses = childrenOf(add, 'domain:status').map((s) => s.attrs.s ?? '')
    const remStatuses = childrenOf(rem, 'domain:status').map((s) => s.attrs.s ?? '')
    for (const s of [...addStatuses, ...remStatuses]) if (!CLIENT_DOMAIN_STATUSES.has(s)) throw new EppFault(2306, `Status ${s} cannot be set by a registrar`)
    const addNs = this.readNs(add)
    const remNs = this.readNs(rem)
    this.checkHostsExist(addNs)
    const addContacts = this.readContacts(add)
    const remContacts = this.readContacts(rem)
    const registrant = textOf(chg, 'domain:registrant')
    this.checkContactsExist([...addContacts.map((c) => c.id), registrant || undefined])
    const secDNS = child(ext, 'secDNS:update')
    if (secDNS && (childrenOf(child(secDNS, 'secDNS:add'), 'secDNS:keyData').length || childrenOf(child(secDNS, 'secDNS:rem'), 'secDNS:keyData').length)) {
      throw new EppFault(2102, 'Only the dsData interface is supported')
    }

    // All checks passed: apply rem before add (RFC 5731 §3.2.5 and RFC 5910 §5.2.5).
    domain.ns = domain.ns.filter((h) => !remNs.includes(h))
    for (const h of addNs) if (!domain.ns.includes(h)) domain.ns.push(h)
    domain.contacts = domain.contacts.filter((c) => !remContacts.some((r) => r.id === c.id && r.type === c.type))
    for (const c of addContacts) if (!domain.contacts.some((x) => x.id === c.id && x.type === c.type)) domain.contacts.push(c)
    domain.statuses = domain.statuses.filter((s) => !remStatuses.includes(s))
    for (const s of addStatuses) if (!domain.statuses.includes(s)) domain.statuses.push(s)
    if (registrant !== undefined) domain.registrant = registrant || undefined
    const pw = textOf(child(chg, 'domain:authInfo'), 'domain:pw')
    if (pw !== undefined) domain.authInfo = pw
    if (secDNS) {
      const remNode = child(secDNS, 'secDNS:rem')
      if (textOf(remNode, 'secDNS:all') === 'true' || textOf(remNode, 'secDNS:all') === '1') domain.ds = []
      const remDs = childrenOf(remNode, 'secDNS:dsData').map((n) => this.readDs(n))
      domain.ds = domain.ds.filter((d) => !remDs.some((r) => sameDs(r, d)))
      for (const ds of childrenOf(child(secDNS, 'secDNS:add'), 'secDNS:dsData').map((n) => this.readDs(n))) if (!domain.ds.some((d) => sameDs(d, ds))) domain.ds.push(ds)
    }
    domain.upID = clID
    domain.upDate = this.iso()
    return { code: 1000 }
  }

  private restore(domain: DomainRec, op: string, clID: string): Answer {
    if (op === 'report') {
      // Reports are accepted but not required here: a request already restores.
      return { code: 1000, extension: [objectEl('rgp', 'upData', null, el('rgp:rgpStatus', { s: 'pendingRestore' }))] }
    }
    if (!domain.redemptionUntil || new Date(domain.redemptionUntil) <= this.now()) {
      throw new EppFault(2304, 'The domain is not in its redemption period')
    }
    domain.redemptionUntil = undefined
    domain.purgeAt = undefined
    // RFC 3915 restores for a renewal period; the expiry moves out a year when it has passed.
    if (new Date(domain.exDate) <= this.now()) domain.exDate = this.addYears(domain.exDate, 1)
    domain.upID = clID
    domain.upDate = this.iso()
    return { code: 1000, extension: [objectEl('rgp', 'upData', null, el('rgp:rgpStatus', { s: 'pendingRestore' }))] }
  }

  domainDelete(cmd: XNode, clID: string): Answer {
    const domain = this.domainFor(textOf(cmd, 'domain:name'))
    this.sponsored(domain, clID)
    const statuses = this.domainStatuses(domain)
    if (statuses.some((s) => s === 'clientDeleteProhibited' || s === 'serverDeleteProhibited' || s === 'pendingDelete' || s === 'pendingTransfer')) {
      throw new EppFault(2304, `Domain status ${statuses.join(', ')} prohibits deletion`)
    }
    // RFC 5731 §3.2.2: a domain with subordinate host objects is not deleted until they are deleted
    // or renamed out of it (2305); deleting it used to remove them silently.
    const subordinate = Object.keys(this.state.hosts)
      .filter((h) => h.endsWith(`.${domain.name}`))
      .sort()
    if (subordinate.length) {
      throw new EppFault(2305, `Subordinate host objects exist: ${subordinate.join(', ')}; delete them or rename them out of ${domain.name} first`)
    }
    if (this.rgpStatuses(domain).includes('addPeriod')) {
      this.removeDomain(domain)
      return { code: 1000, msg: 'Command completed successfully; deleted within the add grace period, refunded' }
    }
    const now = this.now().getTime()
    domain.redemptionUntil = new Date(now + this.policy.redemptionDays * DAY).toISOString()
    domain.purgeAt = new Date(now + (this.policy.redemptionDays + this.policy.pendingDeleteDays) * DAY).toISOString()
    domain.upID = clID
    domain.upDate = this.iso()
    return { code: 1001 }
  }

  // -------------------------------------------------------------- host

  private superordinate(hostName: string): DomainRec | undefined {
    const labels = hostName.split('.')
    for (let i = 1; i < labels.length - 1; i++) {
      const domain = this.state.domains[labels.slice(i).join('.')]
      if (domain) return domain
    }
    return undefined
  }

  private readAddrs(node: XNode | undefined): HostAddress[] {
    return childrenOf(node, 'host:addr').map((a) => {
      const ip = a.attrs.ip === 'v6' ? 'v6' : 'v4'
      const ok = ip === 'v4' ? /^(\d{1,3})(\.\d{1,3}){3}$/.test(a.text) && a.text.split('.').every((p) => Number(p) <= 255) : /^[0-9a-f:.]+$/i.test(a.text) && a.text.includes(':')
      if (!ok) throw new EppFault(2005, `Invalid ${ip} address ${a.text}`)
      return { ip, address: a.text.toLowerCase() }
    })
  }

  hostCheck(cmd: XNode): Answer {
    const cds = childrenOf(cmd, 'host:name').map((n) => {
      const name = this.normalise(n.text)
      const reason = this.nameProblem(name) ? 'Invalid host name' : this.state.hosts[name] ? 'In use' : undefined
      return el('host:cd', null, el('host:name', { avail: reason ? 0 : 1 }, n.text), reason ? el('host:reason', null, reason) : null)
    })
    return { code: 1000, resData: objectEl('host', 'chkData', null, cds) }
  }

  hostCreate(cmd: XNode, clID: string): Answer {
    const name = this.normalise(textOf(cmd, 'host:name'))
    if (this.nameProblem(name)) throw new EppFault(2005, 'Invalid host name')
    if (this.state.hosts[name]) throw new EppFault(2302)
    const addrs = this.readAddrs(cmd)
    const parent = this.superordinate(name)
    if (parent) {
      this.sponsored(parent, clID)
      if (!addrs.length) throw new EppFault(2003, 'A host under a domain of this registry needs at least one address')
    } else if (this.tldOf(name)) {
      throw new EppFault(2303, 'The superordinate domain does not exist')
    } else if (addrs.length) {
      throw new EppFault(2306, 'Addresses are not allowed for hosts outside this registry')
    }
    const host: HostRec = { name, roid: this.nextRoid('H'), clID, crID: clID, crDate: this.iso(), addrs, statuses: [] }
    this.state.hosts[name] = host
    return { code: 1000, resData: objectEl('host', 'creData', null, el('host:name', null, name), el('host:crDate', null, host.crDate)) }
  }

  private hostFor(name: string | undefined): HostRec {
    const host = this.state.hosts[this.normalise(name)]
    if (!host) throw new EppFault(2303)
    return host
  }

  hostInfo(cmd: XNode): Answer {
    const host = this.hostFor(textOf(cmd, 'host:name'))
    const statuses = [...host.statuses, ...(this.hostLinked(host.name) ? ['linked'] : [])]
    return {
      code: 1000,
      resData: objectEl(
        'host',
        'infData',
        null,
        el('host:name', null, host.name),
        el('host:roid', null, host.roid),
        (statuses.length ? statuses : ['ok']).map((s) => el('host:status', { s })),
        host.addrs.map((a) => el('host:addr', { ip: a.ip }, a.address)),
        el('host:clID', null, host.clID),
        el('host:crID', null, host.crID),
        el('host:crDate', null, host.crDate),
        host.upID ? el('host:upID', null, host.upID) : null,
        host.upDate ? el('host:upDate', null, host.upDate) : null,
      ),
    }
  }

  hostUpdate(cmd: XNode, clID: string): Answer {
    const host = this.hostFor(textOf(cmd, 'host:name'))
    this.sponsored(host, clID)
    const add = child(cmd, 'host:add')
    const rem = child(cmd, 'host:rem')
    const removingLock = childrenOf(rem, 'host:status').some((s) => s.attrs.s === 'clientUpdateProhibited')
    if (host.statuses.includes('serverUpdateProhibited') || (host.statuses.includes('clientUpdateProhibited') && !removingLock)) throw new EppFault(2304)
    const addStatuses = childrenOf(add, 'host:status').map((s) => s.attrs.s ?? '')
    const remStatuses = childrenOf(rem, 'host:status').map((s) => s.attrs.s ?? '')
    for (const s of [...addStatuses, ...remStatuses]) if (!s.startsWith('client')) throw new EppFault(2306, `Status ${s} cannot be set by a registrar`)
    const addAddrs = this.readAddrs(add)
    const remAddrs = this.readAddrs(rem)
    const newName = textOf(child(cmd, 'host:chg'), 'host:name')
    if (newName !== undefined) {
      const target = this.normalise(newName)
      if (this.nameProblem(target)) throw new EppFault(2005, 'Invalid host name')
      if (this.state.hosts[target]) throw new EppFault(2302, `Host ${target} exists`)
    }
    const inRegistry = !!this.superordinate(host.name)
    if (!inRegistry && addAddrs.length) throw new EppFault(2306, 'Addresses are not allowed for hosts outside this registry')
    host.addrs = host.addrs.filter((a) => !remAddrs.some((r) => r.address === a.address))
    for (const a of addAddrs) if (!host.addrs.some((x) => x.address === a.address)) host.addrs.push(a)
    host.statuses = host.statuses.filter((s) => !remStatuses.includes(s))
    for (const s of addStatuses) if (!host.statuses.includes(s)) host.statuses.push(s)
    if (newName !== undefined) {
      const target = this.normalise(newName)
      delete this.state.hosts[host.name]
      for (const d of Object.values(this.state.domains)) d.ns = d.ns.map((h) => (h === host.name ? target : h))
      host.name = target
      this.state.hosts[target] = host
    }
    host.upID = clID
    host.upDate = this.iso()
    return { code: 1000 }
  }

  hostDelete(cmd: XNode, clID: string): Answer {
    const host = this.hostFor(textOf(cmd, 'host:name'))
    this.sponsored(host, clID)
    if (host.statuses.some((s) => s.endsWith('DeleteProhibited'))) throw new EppFault(2304)
    if (this.hostLinked(host.name)) throw new EppFault(2305, 'The host is a name server of a domain')
    delete this.state.hosts[host.name]
    return { code: 1000 }
  }

  // -------------------------------------------------------------- contact

  contactCheck(cmd: XNode): Answer {
    const cds = childrenOf(cmd, 'contact:id').map((n) => {
      const taken = !!this.state.contacts[n.text]
      return el('contact:cd', null, el('contact:id', { avail: taken ? 0 : 1 }, n.text), taken ? el('contact:reason', null, 'In use') : null)
    })
    return { code: 1000, resData: objectEl('contact', 'chkData', null, cds) }
  }

  contactCreate(cmd: XNode, clID: string): Answer {
    const id = textOf(cmd, 'contact:id') ?? ''
    if (this.state.contacts[id]) throw new EppFault(2302)
    const email = textOf(cmd, 'contact:email') ?? ''
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new EppFault(2005, 'Invalid e-mail address')
    const contact: ContactRec = {
      id,
      roid: this.nextRoid('C'),
      clID,
      crID: clID,
      crDate: this.iso(),
      postalInfo: childrenOf(cmd, 'contact:postalInfo').map(readPostalInfo),
      email,
      authInfo: textOf(child(cmd, 'contact:authInfo'), 'contact:pw') ?? '',
      statuses: [],
    }
    const voice = textOf(cmd, 'contact:voice')
    const fax = textOf(cmd, 'contact:fax')
    if (voice) contact.voice = voice
    if (fax) contact.fax = fax
    this.state.contacts[id] = contact
    return { code: 1000, resData: objectEl('contact', 'creData', null, el('contact:id', null, id), el('contact:crDate', null, contact.crDate)) }
  }

  private contactFor(id: string | undefined): ContactRec {
    const contact = this.state.contacts[id ?? '']
    if (!contact) throw new EppFault(2303)
    return contact
  }

  contactInfo(cmd: XNode, clID: string): Answer {
    const c = this.contactFor(textOf(cmd, 'contact:id'))
    const pw = textOf(child(cmd, 'contact:authInfo'), 'contact:pw')
    if (c.clID !== clID) {
      if (pw === undefined) throw new EppFault(2201, 'The contact is sponsored by another registrar')
      if (pw !== c.authInfo) throw new EppFault(2202)
    }
    const statuses = [...c.statuses, ...(this.contactLinked(c.id) ? ['linked'] : [])]
    return {
      code: 1000,
      resData: objectEl(
        'contact',
        'infData',
        null,
        el('contact:id', null, c.id),
        el('contact:roid', null, c.roid),
        (statuses.length ? statuses : ['ok']).map((s) => el('contact:status', { s })),
        c.postalInfo.map(postalXml),
        c.voice ? el('contact:voice', null, c.voice) : null,
        c.fax ? el('contact:fax', null, c.fax) : null,
        el('contact:email', null, c.email),
        el('contact:clID', null, c.clID),
        el('contact:crID', null, c.crID),
        el('contact:crDate', null, c.crDate),
        c.upID ? el('contact:upID', null, c.upID) : null,
        c.upDate ? el('contact:upDate', null, c.upDate) : null,
        el('contact:authInfo', null, el('contact:pw', null, c.authInfo)),
      ),
    }
  }

  contactUpdate(cmd: XNode, clID: string): Answer {
    const c = this.contactFor(textOf(cmd, 'contact:id'))
    this.sponsored(c, clID)
    const addStatuses = childrenOf(child(cmd, 'contact:add'), 'contact:status').map((s) => s.attrs.s ?? '')
    const remStatuses = childrenOf(child(cmd, 'contact:rem'), 'contact:status').map((s) => s.attrs.s ?? '')
    if (c.statuses.includes('serverUpdateProhibited') || (c.statuses.includes('clientUpdateProhibited') && !remStatuses.includes('clientUpdateProhibited'))) {
      throw new EppFault(2304, 'Contact status prohibits update')
    }
    for (const s of [...addStatuses, ...remStatuses]) if (!s.startsWith('client')) throw new EppFault(2306, `Status ${s} cannot be set by a registrar`)
    const chg = child(cmd, 'contact:chg')
    const email = textOf(chg, 'contact:email')
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new EppFault(2005, 'Invalid e-mail address')
    c.statuses = c.statuses.filter((s) => !remStatuses.includes(s))
    for (const s of addStatuses) if (!c.statuses.includes(s)) c.statuses.push(s)
    for (const p of childrenOf(chg, 'contact:postalInfo')) {
      const type = p.attrs.type === 'loc' ? 'loc' : 'int'
      const existing = c.postalInfo.find((x) => x.type === type)
      const next = readPostalInfo(p)
      if (!existing) {
        c.postalInfo.push(next)
        continue
      }
      if (textOf(p, 'contact:name') !== undefined) existing.name = next.name
      if (textOf(p, 'contact:org') !== undefined) existing.org = next.org
      if (child(p, 'contact:addr')) Object.assign(existing, { street: next.street, city: next.city, sp: next.sp, pc: next.pc, cc: next.cc })
    }
    const voice = textOf(chg, 'contact:voice')
    const fax = textOf(chg, 'contact:fax')
    if (voice !== undefined) c.voice = voice || undefined
    if (fax !== undefined) c.fax = fax || undefined
    if (email !== undefined) c.email = email
    const pw = textOf(child(chg, 'contact:authInfo'), 'contact:pw')
    if (pw !== undefined) c.authInfo = pw
    c.upID = clID
    c.upDate = this.iso()
    return { code: 1000 }
  }

  contactDelete(cmd: XNode, clID: string): Answer {
    const c = this.contactFor(textOf(cmd, 'contact:id'))
    this.sponsored(c, clID)
    if (c.statuses.some((s) => s.endsWith('DeleteProhibited'))) throw new EppFault(2304)
    if (this.contactLinked(c.id)) throw new EppFault(2305, 'The contact is used by a domain')
    delete this.state.contacts[c.id]
    return { code: 1000 }
  }

  // -------------------------------------------------------------- poll

  pollRequest(clID: string): Answer {
    const queue = this.state.queues[clID] ?? []
    const first = queue[0]
    if (!first) return { code: 1300 }
    return {
      code: 1301,
      msgQ: { count: queue.length, id: first.id, qDate: first.qDate, msg: first.msg },
      ...(first.transfer ? { resData: this.trnData(first.transfer.name, first.transfer) } : {}),
    }
  }

  pollAck(clID: string, msgID: string | undefined): Answer {
    const queue = this.state.queues[clID] ?? []
    const index = queue.findIndex((m) => m.id === msgID)
    if (index === -1) throw new EppFault(2303, `Message ${msgID ?? ''} is not in your queue`)
    queue.splice(index, 1)
    return { code: 1000, ...(queue.length ? { msgQ: { count: queue.length, id: queue[0]!.id } } : {}) }
  }
}

function sameDs(a: DsData, b: DsData): boolean {
  return a.keyTag === b.keyTag && a.alg === b.alg && a.digestType === b.digestType && a.digest.toUpperCase() === b.digest.toUpperCase()
}

function dsXml(ds: DsData): Raw {
  return el('secDNS:dsData', null, el('secDNS:keyTag', null, ds.keyTag), el('secDNS:alg', null, ds.alg), el('secDNS:digestType', null, ds.digestType), el('secDNS:digest', null, ds.digest))
}

function postalXml(p: PostalInfo): Raw {
  return el(
    'contact:postalInfo',
    { type: p.type },
    el('contact:name', null, p.name),
    p.org !== undefined ? el('contact:org', null, p.org) : null,
    el(
      'contact:addr',
      null,
      (p.street ?? []).map((s) => el('contact:street', null, s)),
      el('contact:city', null, p.city),
      p.sp !== undefined ? el('contact:sp', null, p.sp) : null,
      p.pc !== undefined ? el('contact:pc', null, p.pc) : null,
      el('contact:cc', null, p.cc),
    ),
  )
}

import { RegistryError, RESULT_MESSAGES } from './errors.ts'
import type {
  CheckResult,
  ContactCreateInput,
  ContactCreateResult,
  ContactInfo,
  ContactUpdateInput,
  DomainContact,
  DomainCreateInput,
  DomainCreateResult,
  DomainInfo,
  DomainRenewInput,
  DomainRenewResult,
  DomainTransferInput,
  DomainUpdateInput,
  DsData,
  HostAddress,
  HostCreateInput,
  HostCreateResult,
  HostInfo,
  HostUpdateInput,
  PollMessage,
  PostalInfo,
  TransferResult,
  TransferStatus,
} from './types.ts'
import { child, childrenOf, el, eppDocument, NS, objectEl, parseXml, Raw, textOf, type XmlChild, type XNode } from './xml.ts'

/** Client side of EPP: command frames and typed readings of response frames. */

export type EppResult = { code: number; message: string; reason?: string }
export type EppResponse = {
  code: number
  message: string
  results: EppResult[]
  msgQ?: { count: number; id: string; queuedAt?: Date; message: string }
  resData?: XNode
  extension?: XNode
  clTRID?: string
  svTRID?: string
  xml: string
}
export type Greeting = {
  serverId: string
  serverDate: Date
  versions: string[]
  langs: string[]
  objURIs: string[]
  extURIs: string[]
}

// ---------------------------------------------------------------- frames

function command(body: XmlChild, clTRID: string, extension?: XmlChild[]): string {
  const ext = (extension ?? []).filter(Boolean)
  return eppDocument(el('command', null, body, ext.length ? el('extension', null, ...ext) : null, el('clTRID', null, clTRID)))
}

export const helloFrame = (): string => eppDocument(el('hello'))

export function loginFrame(options: { clientId: string; password: string; newPassword?: string; objURIs?: string[]; extURIs?: string[]; lang?: string }, clTRID: string): string {
  const objURIs = options.objURIs ?? [NS.domain, NS.host, NS.contact]
  const extURIs = options.extURIs ?? [NS.secDNS, NS.rgp]
  return command(
    el(
      'login',
      null,
      el('clID', null, options.clientId),
      el('pw', null, options.password),
      options.newPassword ? el('newPW', null, options.newPassword) : null,
      el('options', null, el('version', null, '1.0'), el('lang', null, options.lang ?? 'en')),
      el(
        'svcs',
        null,
        objURIs.map((uri) => el('objURI', null, uri)),
        extURIs.length
          ? el(
              'svcExtension',
              null,
              extURIs.map((uri) => el('extURI', null, uri)),
            )
          : null,
      ),
    ),
    clTRID,
  )
}

export const logoutFrame = (clTRID: string): string => command(el('logout'), clTRID)
export const pollRequestFrame = (clTRID: string): string => command(el('poll', { op: 'req' }), clTRID)
export const pollAckFrame = (id: string, clTRID: string): string => command(el('poll', { op: 'ack', msgID: id }), clTRID)

const period = (years: number | undefined) => (years === undefined ? null : el('domain:period', { unit: 'y' }, years))
const authInfo = (prefix: 'domain' | 'contact', pw: string | undefined) => (pw === undefined ? null : el(`${prefix}:authInfo`, null, el(`${prefix}:pw`, null, pw)))
const contacts = (list: DomainContact[] | undefined) => (list ?? []).map((c) => el('domain:contact', { type: c.type }, c.id))
const nsList = (names: string[] | undefined) =>
  names?.length
    ? el(
        'domain:ns',
        null,
        names.map((n) => el('domain:hostObj', null, n)),
      )
    : null
const dsEl = (ds: DsData) =>
  el('secDNS:dsData', null, el('secDNS:keyTag', null, ds.keyTag), el('secDNS:alg', null, ds.alg), el('secDNS:digestType', null, ds.digestType), el('secDNS:digest', null, ds.digest.toUpperCase()))
const statusEls = (prefix: string, list: string[] | undefined) => (list ?? []).map((s) => el(`${prefix}:status`, { s }))

export const domainCheckFrame = (names: string[], clTRID: string) =>
  command(
    el(
      'check',
      null,
      objectEl(
        'domain',
        'check',
        null,
        names.map((n) => el('domain:name', null, n)),
      ),
    ),
    clTRID,
  )

export function domainCreateFrame(input: DomainCreateInput, clTRID: string): string {
  const ext = input.dsData?.length ? [objectEl('secDNS', 'create', null, input.dsData.map(dsEl))] : []
  return command(
    el(
      'create',
      null,
      objectEl(
        'domain',
        'create',
        null,
        el('domain:name', null, input.name),
        period(input.years),
        nsList(input.nameservers),
        input.registrant ? el('domain:registrant', null, input.registrant) : null,
        contacts(input.contacts),
        authInfo('domain', input.authInfo),
      ),
    ),
    clTRID,
    ext,
  )
}

export const domainInfoFrame = (name: string, clTRID: string, pw?: string) =>
  command(el('info', null, objectEl('domain', 'info', null, el('domain:name', { hosts: 'all' }, name), authInfo('domain', pw))), clTRID)

export function domainRenewFrame(input: DomainRenewInput, clTRID: string): string {
  const current = typeof input.currentExpiry === 'string' ? input.currentExpiry.slice(0, 10) : input.currentExpiry.toISOString().slice(0, 10)
  return command(el('renew', null, objectEl('domain', 'renew', null, el('domain:name', null, input.name), el('domain:curExpDate', null, current), period(input.years))), clTRID)
}

export const domainTransferFrame = (input: DomainTransferInput, clTRID: string) =>
  command(el('transfer', { op: input.op }, objectEl('domain', 'transfer', null, el('domain:name', null, input.name), period(input.years), authInfo('domain', input.authInfo))), clTRID)

function addRem(tag: 'add' | 'rem', part: DomainUpdateInput['add']): Raw | null {
  if (!part || (!part.nameservers?.length && !part.contacts?.length && !part.statuses?.length)) return null
  return el(`domain:${tag}`, null, nsList(part.nameservers), contacts(part.contacts), statusEls('domain', part.statuses))
}

export function domainUpdateFrame(input: DomainUpdateInput, clTRID: string, extra: XmlChild[] = []): string {
  const chg = input.registrant !== undefined || input.authInfo !== undefined
  const ds = input.dsData
  const secDNS =
    ds && (ds.add?.length || ds.rem?.length || ds.removeAll)
      ? objectEl(
          'secDNS',
          'update',
          null,
          ds.removeAll ? el('secDNS:rem', null, el('secDNS:all', null, 'true')) : ds.rem?.length ? el('secDNS:rem', null, ds.rem.map(dsEl)) : null,
          ds.add?.length ? el('secDNS:add', null, ds.add.map(dsEl)) : null,
        )
      : null
  return command(
    el(
      'update',
      null,
      objectEl(
        'domain',
        'update',
        null,
        el('domain:name', null, input.name),
        addRem('add', input.add),
        addRem('rem', input.rem),
        chg ? el('domain:chg', null, input.registrant !== undefined ? el('domain:registrant', null, input.registrant) : null, authInfo('domain', input.authInfo)) : null,
      ),
    ),
    clTRID,
    [secDNS, ...extra],
  )
}

export const domainDeleteFrame = (name: string, clTRID: string) => command(el('delete', null, objectEl('domain', 'delete', null, el('domain:name', null, name))), clTRID)

/** RFC 3915 restore request: an empty domain:update carrying the rgp:update extension. */
export const domainRestoreFrame = (name: string, clTRID: string) => domainUpdateFrame({ name }, clTRID, [objectEl('rgp', 'update', null, el('rgp:restore', { op: 'request' }))])

const addrEls = (list: HostAddress[] | undefined) => (list ?? []).map((a) => el('host:addr', { ip: a.ip }, a.address))

export const hostCheckFrame = (names: string[], clTRID: string) =>
  command(
    el(
      'check',
      null,
      objectEl(
        'host',
        'check',
        null,
        names.map((n) => el('host:name', null, n)),
      ),
    ),
    clTRID,
  )
export const hostCreateFrame = (input: HostCreateInput, clTRID: string) =>
  command(el('create', null, objectEl('host', 'create', null, el('host:name', null, input.name), addrEls(input.addresses))), clTRID)
export const hostInfoFrame = (name: string, clTRID: string) => command(el('info', null, objectEl('host', 'info', null, el('host:name', null, name))), clTRID)
export const hostDeleteFrame = (name: string, clTRID: string) => command(el('delete', null, objectEl('host', 'delete', null, el('host:name', null, name))), clTRID)
export function hostUpdateFrame(input: HostUpdateInput, clTRID: string): string {
  const part = (tag: 'add' | 'rem', p: HostUpdateInput['add']) =>
    p && (p.addresses?.length || p.statuses?.length) ? el(`host:${tag}`, null, addrEls(p.addresses), statusEls('host', p.statuses)) : null
  return command(
    el(
      'update',
      null,
      objectEl(
        'host',
        'update',
        null,
        el('host:name', null, input.name),
        part('add', input.add),
        part('rem', input.rem),
        input.newName ? el('host:chg', null, el('host:name', null, input.newName)) : null,
      ),
    ),
    clTRID,
  )
}

const postalEl = (p: PostalInfo) =>
  el(
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

export const contactCheckFrame = (ids: string[], clTRID: string) =>
  command(
    el(
      'check',
      null,
      objectEl(
        'contact',
        'check',
        null,
        ids.map((id) => el('contact:id', null, id)),
      ),
    ),
    clTRID,
  )
export const contactCreateFrame = (input: ContactCreateInput, clTRID: string) =>
  command(
    el(
      'create',
      null,
      objectEl(
        'contact',
        'create',
        null,
        el('contact:id', null, input.id),
        input.postalInfo.map(postalEl),
        input.voice ? el('contact:voice', null, input.voice) : null,
        input.fax ? el('contact:fax', null, input.fax) : null,
        el('contact:email', null, input.email),
        authInfo('contact', input.authInfo),
      ),
    ),
    clTRID,
  )
export const contactInfoFrame = (id: string, clTRID: string, pw?: string) => command(el('info', null, objectEl('contact', 'info', null, el('contact:id', null, id), authInfo('contact', pw))), clTRID)
export const contactDeleteFrame = (id: string, clTRID: string) => command(el('delete', null, objectEl('contact', 'delete', null, el('contact:id', null, id))), clTRID)
export function contactUpdateFrame(input: ContactUpdateInput, clTRID: string): string {
  const c = input.change
  const chg =
    c && (c.postalInfo?.length || c.voice !== undefined || c.fax !== undefined || c.email !== undefined || c.authInfo !== undefined)
      ? el(
          'contact:chg',
          null,
          (c.postalInfo ?? []).map(postalEl),
          c.voice !== undefined ? el('contact:voice', null, c.voice) : null,
          c.fax !== undefined ? el('contact:fax', null, c.fax) : null,
          c.email !== undefined ? el('contact:email', null, c.email) : null,
          authInfo('contact', c.authInfo),
        )
      : null
  return command(
    el(
      'update',
      null,
      objectEl(
        'contact',
        'update',
        null,
        el('contact:id', null, input.id),
        input.add?.statuses.length ? el('contact:add', null, statusEls('contact', input.add.statuses)) : null,
        input.rem?.statuses.length ? el('contact:rem', null, statusEls('contact', input.rem.statuses)) : null,
        chg,
      ),
    ),
    clTRID,
  )
}

// ---------------------------------------------------------------- reading responses

const date = (value: string | undefined) => (value ? new Date(value) : undefined)

export function parseGreeting(xml: string): Greeting {
  const root = parseXml(xml)
  const greeting = child(root, 'epp:greeting')
  if (root.name !== 'epp:epp' || !greeting) throw new Error('The server did not send an EPP greeting')
  const menu = child(greeting, 'epp:svcMenu')
  return {
    serverId: textOf(greeting, 'epp:svID') ?? '',
    serverDate: new Date(textOf(greeting, 'epp:svDate') ?? 0),
    versions: childrenOf(menu, 'epp:version').map((n) => n.text),
    langs: childrenOf(menu, 'epp:lang').map((n) => n.text),
    objURIs: childrenOf(menu, 'epp:objURI').map((n) => n.text),
    extURIs: childrenOf(child(menu, 'epp:svcExtension'), 'epp:extURI').map((n) => n.text),
  }
}

export function parseResponse(xml: string): EppResponse {
  const root = parseXml(xml)
  const response = child(root, 'epp:response')
  if (root.name !== 'epp:epp' || !response) throw new Error('Expected an EPP response frame')
  const results = childrenOf(response, 'epp:result').map((r) => {
    const code = Number(r.attrs.code)
    const reason = childrenOf(r, 'epp:extValue')
      .map((v) => textOf(v, 'epp:reason'))
      .concat(childrenOf(r, 'epp:value').map((v) => v.text || v.children.map((c) => c.text).join(' ')))
      .filter(Boolean)
      .join('; ')
    return { code, message: textOf(r, 'epp:msg') ?? RESULT_MESSAGES[code] ?? '', ...(reason ? { reason } : {}) }
  })
  const first = results[0] ?? { code: 2400, message: 'Command failed' }
  const q = child(response, 'epp:msgQ')
  const trID = child(response, 'epp:trID')
  return {
    code: first.code,
    message: first.message,
    results,
    ...(q ? { msgQ: { count: Number(q.attrs.count), id: q.attrs.id ?? '', queuedAt: date(textOf(q, 'epp:qDate')), message: child(q, 'epp:msg')?.text ?? '' } } : {}),
    resData: child(response, 'epp:resData'),
    extension: child(response, 'epp:extension'),
    clTRID: textOf(trID, 'epp:clTRID'),
    svTRID: textOf(trID, 'epp:svTRID'),
    xml,
  }
}

/** Throws the response's first result as a RegistryError when it is a failure. */
export function assertSuccess(response: EppResponse): EppResponse {
  if (response.code >= 2000) {
    const first = response.results[0]
    throw new RegistryError(response.code, response.message, { reason: first?.reason, clTRID: response.clTRID, svTRID: response.svTRID })
  }
  return response
}

function checks(response: EppResponse, prefix: 'domain' | 'host' | 'contact'): CheckResult[] {
  const key = prefix === 'contact' ? 'contact:id' : `${prefix}:name`
  return childrenOf(child(response.resData, `${prefix}:chkData`), `${prefix}:cd`).map((cd) => {
    const name = child(cd, key)
    const reason = textOf(cd, `${prefix}:reason`)
    return { name: name?.text ?? '', available: name?.attrs.avail === '1' || name?.attrs.avail === 'true', ...(reason ? { reason } : {}) }
  })
}
export const readDomainCheck = (r: EppResponse) => checks(r, 'domain')
export const readHostCheck = (r: EppResponse) => checks(r, 'host')
export const readContactCheck = (r: EppResponse) => checks(r, 'contact')

export function readDomainCreate(r: EppResponse): DomainCreateResult {
  const data = child(r.resData, 'domain:creData')
  return { name: textOf(data, 'domain:name') ?? '', createdAt: new Date(textOf(data, 'domain:crDate') ?? 0), expiresAt: date(textOf(data, 'domain:exDate')) }
}

const readDs = (node: XNode): DsData => ({
  keyTag: Number(textOf(node, 'secDNS:keyTag')),
  alg: Number(textOf(node, 'secDNS:alg')),
  digestType: Number(textOf(node, 'secDNS:digestType')),
  digest: (textOf(node, 'secDNS:digest') ?? '').toUpperCase(),
})

export function readDomainInfo(r: EppResponse): DomainInfo {
  const d = child(r.resData, 'domain:infData')
  const ns = child(d, 'domain:ns')
  const pw = textOf(child(d, 'domain:authInfo'), 'domain:pw')
  const opt = (name: string) => textOf(d, name)
  const info: DomainInfo = {
    name: opt('domain:name') ?? '',
    roid: opt('domain:roid') ?? '',
    statuses: childrenOf(d, 'domain:status').map((s) => s.attrs.s ?? ''),
    contacts: childrenOf(d, 'domain:contact').map((c) => ({ type: (c.attrs.type ?? 'admin') as DomainContact['type'], id: c.text })),
    nameservers: [...childrenOf(ns, 'domain:hostObj').map((h) => h.text), ...childrenOf(ns, 'domain:hostAttr').map((h) => textOf(h, 'domain:hostName') ?? '')],
    hosts: childrenOf(d, 'domain:host').map((h) => h.text),
    clientId: opt('domain:clID') ?? '',
    dsData: childrenOf(child(r.extension, 'secDNS:infData'), 'secDNS:dsData').map(readDs),
    rgpStatuses: childrenOf(child(r.extension, 'rgp:infData'), 'rgp:rgpStatus').map((s) => s.attrs.s ?? ''),
  }
  const registrant = opt('domain:registrant')
  if (registrant) info.registrant = registrant
  if (opt('domain:crID')) info.createdBy = opt('domain:crID')
  if (opt('domain:crDate')) info.createdAt = date(opt('domain:crDate'))
  if (opt('domain:upID')) info.updatedBy = opt('domain:upID')
  if (opt('domain:upDate')) info.updatedAt = date(opt('domain:upDate'))
  if (opt('domain:exDate')) info.expiresAt = date(opt('domain:exDate'))
  if (opt('domain:trDate')) info.transferredAt = date(opt('domain:trDate'))
  if (pw !== undefined) info.authInfo = pw
  return info
}

export function readDomainRenew(r: EppResponse): DomainRenewResult {
  const data = child(r.resData, 'domain:renData')
  return { name: textOf(data, 'domain:name') ?? '', expiresAt: date(textOf(data, 'domain:exDate')) }
}

export function readTransfer(data: XNode | undefined, pending: boolean): TransferResult {
  const result: TransferResult = {
    name: textOf(data, 'domain:name') ?? '',
    status: (textOf(data, 'domain:trStatus') ?? 'pending') as TransferStatus,
    requestedBy: textOf(data, 'domain:reID') ?? '',
    requestedAt: new Date(textOf(data, 'domain:reDate') ?? 0),
    pending,
  }
  if (textOf(data, 'domain:acID')) result.actionBy = textOf(data, 'domain:acID')
  if (textOf(data, 'domain:acDate')) result.actionAt = date(textOf(data, 'domain:acDate'))
  if (textOf(data, 'domain:exDate')) result.expiresAt = date(textOf(data, 'domain:exDate'))
  return result
}
export const readDomainTransfer = (r: EppResponse) => readTransfer(child(r.resData, 'domain:trnData'), r.code === 1001)

export const readRgpStatuses = (r: EppResponse) => childrenOf(child(r.extension, 'rgp:upData'), 'rgp:rgpStatus').map((s) => s.attrs.s ?? '')

export function readHostCreate(r: EppResponse): HostCreateResult {
  const data = child(r.resData, 'host:creData')
  return { name: textOf(data, 'host:name') ?? '', createdAt: new Date(textOf(data, 'host:crDate') ?? 0) }
}

export function readHostInfo(r: EppResponse): HostInfo {
  const h = child(r.resData, 'host:infData')
  const info: HostInfo = {
    name: textOf(h, 'host:name') ?? '',
    roid: textOf(h, 'host:roid') ?? '',
    statuses: childrenOf(h, 'host:status').map((s) => s.attrs.s ?? ''),
    addresses: childrenOf(h, 'host:addr').map((a) => ({ ip: a.attrs.ip === 'v6' ? 'v6' : 'v4', address: a.text })),
    clientId: textOf(h, 'host:clID') ?? '',
    createdBy: textOf(h, 'host:crID') ?? '',
    createdAt: new Date(textOf(h, 'host:crDate') ?? 0),
  }
  if (textOf(h, 'host:upID')) info.updatedBy = textOf(h, 'host:upID')
  if (textOf(h, 'host:upDate')) info.updatedAt = date(textOf(h, 'host:upDate'))
  return info
}

export function readContactCreate(r: EppResponse): ContactCreateResult {
  const data = child(r.resData, 'contact:creData')
  return { id: textOf(data, 'contact:id') ?? '', createdAt: new Date(textOf(data, 'contact:crDate') ?? 0) }
}

export function readPostalInfo(p: XNode): PostalInfo {
  const addr = child(p, 'contact:addr')
  const info: PostalInfo = {
    type: p.attrs.type === 'loc' ? 'loc' : 'int',
    name: textOf(p, 'contact:name') ?? '',
    street: childrenOf(addr, 'contact:street').map((s) => s.text),
    city: textOf(addr, 'contact:city') ?? '',
    cc: textOf(addr, 'contact:cc') ?? '',
  }
  if (textOf(p, 'contact:org') !== undefined) info.org = textOf(p, 'contact:org')
  if (textOf(addr, 'contact:sp') !== undefined) info.sp = textOf(addr, 'contact:sp')
  if (textOf(addr, 'contact:pc') !== undefined) info.pc = textOf(addr, 'contact:pc')
  return info
}

export function readContactInfo(r: EppResponse): ContactInfo {
  const c = child(r.resData, 'contact:infData')
  const info: ContactInfo = {
    id: textOf(c, 'contact:id') ?? '',
    roid: textOf(c, 'contact:roid') ?? '',
    statuses: childrenOf(c, 'contact:status').map((s) => s.attrs.s ?? ''),
    postalInfo: childrenOf(c, 'contact:postalInfo').map(readPostalInfo),
    email: textOf(c, 'contact:email') ?? '',
    clientId: textOf(c, 'contact:clID') ?? '',
    createdBy: textOf(c, 'contact:crID') ?? '',
    createdAt: new Date(textOf(c, 'contact:crDate') ?? 0),
  }
  if (textOf(c, 'contact:voice')) info.voice = textOf(c, 'contact:voice')
  if (textOf(c, 'contact:fax')) info.fax = textOf(c, 'contact:fax')
  if (textOf(c, 'contact:upID')) info.updatedBy = textOf(c, 'contact:upID')
  if (textOf(c, 'contact:upDate')) info.updatedAt = date(textOf(c, 'contact:upDate'))
  const pw = textOf(child(c, 'contact:authInfo'), 'contact:pw')
  if (pw !== undefined) info.authInfo = pw
  return info
}

export function readPoll(r: EppResponse): PollMessage | null {
  if (r.code === 1300 || !r.msgQ) return null
  const trn = child(r.resData, 'domain:trnData')
  return {
    id: r.msgQ.id,
    count: r.msgQ.count,
    ...(r.msgQ.queuedAt ? { queuedAt: r.msgQ.queuedAt } : {}),
    message: r.msgQ.message,
    ...(trn ? { transfer: readTransfer(trn, false) } : {}),
  }
}

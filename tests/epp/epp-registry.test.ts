import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EppClient } from '#server/integrations/registry/client.ts'
import { EppRegistryConnection } from '#server/integrations/registry/connection.ts'
import { RegistryThrottled, REGISTRY_THROTTLE_MESSAGE } from '#server/integrations/registry/errors.ts'
import { encodeFrame, FrameReader } from '#server/integrations/registry/framing.ts'
import { startLocalRegistry, type LocalRegistryServer } from '#server/integrations/registry/local-server.ts'
import { checkXsdDir } from '#server/integrations/registry/xsd-validator.ts'
import { parseXml } from '#server/integrations/registry/xml.ts'

// Real TLS sockets on loopback against the local registry, which validates every frame both ways
// against ../shared/epp-xsd. Time is a clock we move, so grace periods need no waiting.

const xsd = checkXsdDir()
if (!xsd.ok) throw new Error(`${xsd.reason} — the EPP tests need the RFC schemas in ../shared/epp-xsd beside the project.`)

const DAY = 24 * 3600 * 1000
let clock = new Date('2030-03-01T10:00:00.000Z')
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms)
}
const A = { id: 'registrar-a', password: 'secret-a-123' }
const B = { id: 'registrar-b', password: 'secret-b-123' }
let server: LocalRegistryServer
const clientFrames = { sent: 0, received: 0 }
// Commands that do not validate, sent on purpose by the wire tests.
let invalidOnPurpose = 0
const open: EppClient[] = []

async function session(who = A, login = true): Promise<EppClient> {
  const client = new EppClient({
    host: '127.0.0.1',
    port: server.port,
    tls: { ca: server.certificate, servername: 'localhost' },
    timeoutMs: 10_000,
    onFrame: (direction) => clientFrames[direction]++,
  })
  open.push(client)
  await client.connect()
  if (login) await client.login({ clientId: who.id, password: who.password })
  return client
}

const contact = (id: string) => ({
  id,
  postalInfo: [{ type: 'int' as const, name: 'Ada Lovelace', org: 'Analytical Ltd', street: ['1 Engine Street'], city: 'London', pc: 'N1 9GU', cc: 'GB' }],
  voice: '+44.2071234567',
  email: `${id}@example.net`,
  authInfo: 'contact-pw-1',
})

const DS = { keyTag: 12345, alg: 13, digestType: 2, digest: '49FD46E6C4B45C55D4AC69CBD3CD34AC1AFE51DE49FD46E6C4B45C55D4AC69CB' }
const DS2 = { keyTag: 54321, alg: 13, digestType: 2, digest: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }

let a: EppClient
let b: EppClient

beforeAll(async () => {
  server = await startLocalRegistry({
    port: 0,
    clients: [A, B, { id: 'registrar-c', password: 'secret-c-123' }],
    policy: {
      tlds: { test: { createYears: [1, 2, 5], renewYears: [1, 2, 3], transferYears: [1] }, example: { createYears: [1], renewYears: [1], transferYears: [1] } },
      transferAutoApproveSeconds: 3600,
    },
    now: () => clock,
  })
  a = await session(A)
  b = await session(B)
  await a.createContact(contact('ada-1'))
  await a.createContact(contact('ada-2'))
  await a.createHost({ name: 'ns1.dns-provider.net' })
  await a.createHost({ name: 'ns2.dns-provider.net' })
})

/** A domain of registrar A as the creation test makes it (two name servers, contacts, a DS), for a test of its own. */
async function domainOfA(name: string, years = 2) {
  return a.createDomain({
    name,
    years,
    nameservers: ['ns1.dns-provider.net', 'ns2.dns-provider.net'],
    registrant: 'ada-1',
    contacts: [
      { type: 'admin', id: 'ada-1' },
      { type: 'tech', id: 'ada-2' },
    ],
    authInfo: 'auth-Alpha-1',
    dsData: [DS],
  })
}

afterAll(async () => {
  for (const client of open) client.destroy()
  await server?.close()
})

describe('session', () => {
  it('greets, refuses a wrong password with 2200, logs in, answers hello and logs out with 1500', async () => {
    const client = await session(A, false)
    expect(client.greeting?.objURIs).toEqual([
      'urn:ietf:params:xml:ns:domain-1.0',
      'urn:ietf:params:xml:ns:host-1.0',
      'urn:ietf:params:xml:ns:contact-1.0',
      'urn:registrar-portal:params:xml:ns:block-1.0',
    ])
    expect(client.greeting?.extURIs).toContain('urn:ietf:params:xml:ns:secDNS-1.1')
    await expect(client.login({ clientId: A.id, password: 'wrong-password' })).rejects.toMatchObject({ name: 'RegistryError', code: 2200, registryMessage: 'Authentication error' })
    await expect(client.checkDomains(['x.test'])).rejects.toMatchObject({ code: 2002 })
    await client.login({ clientId: A.id, password: A.password })
    const hello = await client.hello()
    expect(hello.serverId).toBe('Registrar Portal local registry')
    await client.logout()
    expect(client.isOpen).toBe(false)
  })

  it('closes the session with 2501 after repeated failed logins', async () => {
    const client = await session(A, false)
    await expect(client.login({ clientId: A.id, password: 'wrong-one-1' })).rejects.toMatchObject({ code: 2200 })
    await expect(client.login({ clientId: A.id, password: 'wrong-one-2' })).rejects.toMatchObject({ code: 2200 })
    await expect(client.login({ clientId: A.id, password: 'wrong-one-3' })).rejects.toMatchObject({ code: 2501 })
    expect(client.isOpen).toBe(false)
  })

  it('changes the password with newPW at login', async () => {
    const client = await session({ id: 'registrar-c', password: 'secret-c-123' }, false)
    await client.login({ clientId: 'registrar-c', password: 'secret-c-123', newPassword: 'secret-c-456' })
    await client.logout()
    const again = await session({ id: 'registrar-c', password: 'secret-c-123' }, false)
    await expect(again.login({ clientId: 'registrar-c', password: 'secret-c-123' })).rejects.toMatchObject({ code: 2200 })
    await again.login({ clientId: 'registrar-c', password: 'secret-c-456' })
  })

  it('sends a keep-alive hello when idle', async () => {
    const client = new EppClient({ host: '127.0.0.1', port: server.port, tls: { ca: server.certificate, servername: 'localhost' }, keepAliveMs: 100, onFrame: (d) => clientFrames[d]++ })
    open.push(client)
    let hellos = 0
    const seen = new Promise<void>((resolve) => {
      client.options.onFrame = (direction, xml) => {
        clientFrames[direction]++
        if (direction === 'sent' && xml.includes('<hello/>') && ++hellos === 2) resolve()
      }
    })
    await client.connect()
    await seen
    expect(client.isOpen).toBe(true)
    client.destroy()
  })
})

describe('contacts', () => {
  it('checks, creates, refuses a duplicate (2302), reads and updates', async () => {
    expect(await a.checkContacts(['ada-1', 'nobody-1'])).toEqual([
      { name: 'ada-1', available: false, reason: 'In use' },
      { name: 'nobody-1', available: true },
    ])
    await expect(a.createContact(contact('ada-1'))).rejects.toMatchObject({ code: 2302 })
    await a.updateContact({ id: 'ada-2', change: { email: 'new@example.net', postalInfo: [{ type: 'int', name: 'Ada King', city: 'Ockham', cc: 'GB' }] } })
    const info = await a.infoContact('ada-2')
    expect(info).toMatchObject({ id: 'ada-2', email: 'new@example.net', clientId: A.id, authInfo: 'contact-pw-1', voice: '+44.2071234567' })
    expect(info.postalInfo[0]).toMatchObject({ name: 'Ada King', city: 'Ockham', org: 'Analytical Ltd' })
    await expect(a.infoContact('nobody-1')).rejects.toMatchObject({ code: 2303 })
  })

  it('lets another registrar read a contact only with its authInfo (2201 without, 2202 wrong)', async () => {
    await expect(b.infoContact('ada-1')).rejects.toMatchObject({ code: 2201 })
    await expect(b.infoContact('ada-1', { authInfo: 'wrong-pw' })).rejects.toMatchObject({ code: 2202 })
    expect((await b.infoContact('ada-1', { authInfo: 'contact-pw-1' })).id).toBe('ada-1')
    await expect(b.updateContact({ id: 'ada-1', change: { email: 'x@example.net' } })).rejects.toMatchObject({ code: 2201 })
  })

  it('refuses updates under clientUpdateProhibited (2304) and deletes an unused contact', async () => {
    await a.createContact(contact('temp-1'))
    await a.updateContact({ id: 'temp-1', add: { statuses: ['clientUpdateProhibited'] } })
    await expect(a.updateContact({ id: 'temp-1', change: { email: 'y@example.net' } })).rejects.toMatchObject({ code: 2304 })
    await a.updateContact({ id: 'temp-1', rem: { statuses: ['clientUpdateProhibited'] } })
    await a.deleteContact('temp-1')
    await expect(a.deleteContact('temp-1')).rejects.toMatchObject({ code: 2303 })
  })
})

describe('domains and hosts', () => {
  it('checks availability with reasons', async () => {
    await a.createDomain({ name: 'taken.test', authInfo: 'auth-Taken-1', registrant: 'ada-1' })
    expect(await a.checkDomains(['taken.test', 'free.test', 'nope.invalidtld', 'ab--name.test'])).toEqual([
      { name: 'taken.test', available: false, reason: 'In use' },
      { name: 'free.test', available: true },
      { name: 'nope.invalidtld', available: false, reason: 'TLD not served by this registry' },
      { name: 'ab--name.test', available: false, reason: 'Invalid domain name' },
    ])
  })

  it('creates with period, contacts, host objects and DS data; refuses duplicates, unknown hosts and disallowed periods', async () => {
    await expect(a.createHost({ name: 'ns1.dns-provider.net' })).rejects.toMatchObject({ code: 2302 })
    const created = await a.createDomain({
      name: 'alpha.test',
      years: 2,
      nameservers: ['ns1.dns-provider.net', 'ns2.dns-provider.net'],
      registrant: 'ada-1',
      contacts: [
        { type: 'admin', id: 'ada-1' },
        { type: 'tech', id: 'ada-2' },
      ],
      authInfo: 'auth-Alpha-1',
      dsData: [DS],
    })
    expect(created.name).toBe('alpha.test')
    expect(created.expiresAt?.toISOString()).toBe('2032-03-01T10:00:00.000Z')
    await expect(a.createDomain({ name: 'alpha.test', authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2302, registryMessage: 'Object exists' })
    await expect(a.createDomain({ name: 'three.test', years: 3, authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2004, reason: expect.stringContaining('allowed: 1, 2, 5') })
    await expect(a.createDomain({ name: 'one.example', years: 2, authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2004 })
    await expect(a.createDomain({ name: 'gamma.test', nameservers: ['ns9.unknown.net'], authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2303 })
    await expect(a.createDomain({ name: 'gamma.test', registrant: 'nobody-9', authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2303 })

    const info = await a.infoDomain('alpha.test')
    expect(info).toMatchObject({
      name: 'alpha.test',
      statuses: ['ok'],
      registrant: 'ada-1',
      contacts: [
        { type: 'admin', id: 'ada-1' },
        { type: 'tech', id: 'ada-2' },
      ],
      nameservers: ['ns1.dns-provider.net', 'ns2.dns-provider.net'],
      clientId: A.id,
      authInfo: 'auth-Alpha-1',
      dsData: [DS],
      rgpStatuses: ['addPeriod'],
    })
    expect(info.roid).toMatch(/^D\d+-LOCAL$/)
  })

  it('answers only the public part of a domain to another registrar, and 2202 for a wrong authInfo', async () => {
    await domainOfA('public-part.test')
    const info = await b.infoDomain('public-part.test')
    expect(info.authInfo).toBeUndefined()
    expect(info.nameservers).toEqual([])
    expect(info.clientId).toBe(A.id)
    await expect(b.infoDomain('public-part.test', { authInfo: 'wrong-auth' })).rejects.toMatchObject({ code: 2202 })
    await expect(a.infoDomain('missing.test')).rejects.toMatchObject({ code: 2303, registryMessage: 'Object does not exist' })
  })

  it('adds and removes DS records with secDNS-1.1 and shows them in info', async () => {
    await domainOfA('ds-data.test')
    expect((await a.infoDomain('ds-data.test')).dsData).toEqual([DS])
    await a.updateDomain({ name: 'ds-data.test', dsData: { add: [DS2], rem: [DS] } })
    expect((await a.infoDomain('ds-data.test')).dsData).toEqual([DS2])
    await a.updateDomain({ name: 'ds-data.test', dsData: { removeAll: true } })
    const info = await a.infoDomain('ds-data.test')
    expect(info.dsData).toEqual([])
  })

  it('updates nameservers, contacts, statuses, registrant and authInfo; status locks prohibit (2304)', async () => {
    await domainOfA('updates.test')
    await a.updateDomain({
      name: 'updates.test',
      rem: { nameservers: ['ns2.dns-provider.net'], contacts: [{ type: 'tech', id: 'ada-2' }] },
      add: { contacts: [{ type: 'billing', id: 'ada-2' }], statuses: ['clientDeleteProhibited', 'clientUpdateProhibited'] },
      registrant: 'ada-2',
      authInfo: 'auth-Alpha-2',
    })
    const info = await a.infoDomain('updates.test')
    expect(info).toMatchObject({
      nameservers: ['ns1.dns-provider.net'],
      registrant: 'ada-2',
      authInfo: 'auth-Alpha-2',
      contacts: [
        { type: 'admin', id: 'ada-1' },
        { type: 'billing', id: 'ada-2' },
      ],
    })
    expect(info.statuses.sort()).toEqual(['clientDeleteProhibited', 'clientUpdateProhibited'])
    await expect(a.updateDomain({ name: 'updates.test', add: { nameservers: ['ns2.dns-provider.net'] } })).rejects.toMatchObject({ code: 2304 })
    await expect(a.deleteDomain('updates.test')).rejects.toMatchObject({ code: 2304, registryMessage: 'Object status prohibits operation' })
    await expect(a.updateDomain({ name: 'updates.test', add: { statuses: ['serverHold'] } })).rejects.toMatchObject({ code: 2304 })
    await a.updateDomain({ name: 'updates.test', rem: { statuses: ['clientUpdateProhibited'] } })
    await expect(a.updateDomain({ name: 'updates.test', add: { statuses: ['serverHold'] } })).rejects.toMatchObject({ code: 2306 })
    await expect(b.updateDomain({ name: 'updates.test', authInfo: 'stolen-1' })).rejects.toMatchObject({ code: 2201 })
  })

  it('renews with the right current expiry and an allowed period (2004 otherwise)', async () => {
    const expiry = (await domainOfA('renewal.test')).expiresAt!
    const day = (date: Date, years = 0) => `${date.getUTCFullYear() + years}-${date.toISOString().slice(5, 10)}`
    await expect(a.renewDomain({ name: 'renewal.test', currentExpiry: day(expiry, -1), years: 1 })).rejects.toMatchObject({ code: 2004 })
    await expect(a.renewDomain({ name: 'renewal.test', currentExpiry: day(expiry), years: 5 })).rejects.toMatchObject({ code: 2004 })
    const renewed = await a.renewDomain({ name: 'renewal.test', currentExpiry: expiry, years: 3 })
    const expected = new Date(expiry)
    expected.setUTCFullYear(expected.getUTCFullYear() + 3)
    expect(renewed.expiresAt?.toISOString()).toBe(expected.toISOString())
    await expect(b.renewDomain({ name: 'renewal.test', currentExpiry: day(expected) })).rejects.toMatchObject({ code: 2201 })
  })

  it('manages hosts: in-registry hosts need addresses, linked hosts cannot be deleted, renames follow into domains', async () => {
    await domainOfA('hosts.test')
    await expect(a.createHost({ name: 'ns1.hosts.test' })).rejects.toMatchObject({ code: 2003 })
    await expect(b.createHost({ name: 'ns1.hosts.test', addresses: [{ ip: 'v4', address: '192.0.2.1' }] })).rejects.toMatchObject({ code: 2201 })
    await expect(a.createHost({ name: 'ns1.nowhere.test', addresses: [{ ip: 'v4', address: '192.0.2.1' }] })).rejects.toMatchObject({ code: 2303 })
    await a.createHost({
      name: 'ns1.hosts.test',
      addresses: [
        { ip: 'v4', address: '192.0.2.1' },
        { ip: 'v6', address: '2001:db8::1' },
      ],
    })
    expect(await a.checkHosts(['ns1.hosts.test', 'ns2.hosts.test'])).toEqual([
      { name: 'ns1.hosts.test', available: false, reason: 'In use' },
      { name: 'ns2.hosts.test', available: true },
    ])
    await a.updateDomain({ name: 'hosts.test', add: { nameservers: ['ns1.hosts.test'] } })
    let host = await a.infoHost('ns1.hosts.test')
    expect(host).toMatchObject({
      statuses: ['linked'],
      addresses: [
        { ip: 'v4', address: '192.0.2.1' },
        { ip: 'v6', address: '2001:db8::1' },
      ],
      clientId: A.id,
    })
    expect((await a.infoDomain('hosts.test')).hosts).toEqual(['ns1.hosts.test'])
    await expect(a.deleteHost('ns1.hosts.test')).rejects.toMatchObject({ code: 2305 })
    await a.updateHost({ name: 'ns1.hosts.test', rem: { addresses: [{ ip: 'v6', address: '2001:db8::1' }] }, add: { addresses: [{ ip: 'v4', address: '192.0.2.2' }] }, newName: 'dns1.hosts.test' })
    host = await a.infoHost('dns1.hosts.test')
    expect(host.addresses.map((x) => x.address)).toEqual(['192.0.2.1', '192.0.2.2'])
    expect((await a.infoDomain('hosts.test')).nameservers).toContain('dns1.hosts.test')
    await expect(a.infoHost('ns1.hosts.test')).rejects.toMatchObject({ code: 2303 })
    await expect(b.updateHost({ name: 'dns1.hosts.test', newName: 'x.hosts.test' })).rejects.toMatchObject({ code: 2201 })
    await a.updateDomain({ name: 'hosts.test', rem: { nameservers: ['dns1.hosts.test'] } })
    await a.deleteHost('dns1.hosts.test')
  })
})

describe('grace periods, redemption and restore (RFC 3915)', () => {
  it('deletes within add grace at once, with a refund', async () => {
    await a.createDomain({ name: 'quick.test', authInfo: 'auth-Quick-1' })
    const result = await a.deleteDomain('quick.test')
    expect(result).toMatchObject({ immediate: true, refunded: true })
    await expect(a.infoDomain('quick.test')).rejects.toMatchObject({ code: 2303 })
    expect((await a.checkDomains(['quick.test']))[0]?.available).toBe(true)
  })

  it('after add grace a delete goes to redemption; restore brings it back; unrestored domains are purged', async () => {
    await a.createDomain({ name: 'later.test', authInfo: 'auth-Later-1' })
    await a.createDomain({ name: 'gone.test', authInfo: 'auth-Gone-1' })
    advance(6 * DAY)
    expect((await a.infoDomain('later.test')).rgpStatuses).toEqual([])
    expect(await a.deleteDomain('later.test')).toMatchObject({ immediate: false, refunded: false })
    await a.deleteDomain('gone.test')
    const pending = await a.infoDomain('later.test')
    expect(pending.statuses).toContain('pendingDelete')
    expect(pending.rgpStatuses).toEqual(['redemptionPeriod'])
    await expect(a.updateDomain({ name: 'later.test', authInfo: 'x-auth-999' })).rejects.toMatchObject({ code: 2304 })
    await expect(a.renewDomain({ name: 'later.test', currentExpiry: pending.expiresAt! })).rejects.toMatchObject({ code: 2304 })
    await domainOfA('not-deleted.test')
    await expect(a.restoreDomain('not-deleted.test')).rejects.toMatchObject({ code: 2304 })

    advance(10 * DAY)
    expect(await a.restoreDomain('later.test')).toEqual({ rgpStatuses: ['pendingRestore'] })
    const restored = await a.infoDomain('later.test')
    expect(restored.statuses).not.toContain('pendingDelete')
    expect(restored.rgpStatuses).toEqual([])

    advance(21 * DAY) // gone.test: past its 30-day redemption, now in the 5-day pendingDelete
    expect((await a.infoDomain('gone.test')).rgpStatuses).toEqual(['pendingDelete'])
    await expect(a.restoreDomain('gone.test')).rejects.toMatchObject({ code: 2304 })
    advance(5 * DAY)
    await expect(a.infoDomain('gone.test')).rejects.toMatchObject({ code: 2303 })
  })
})

describe('transfers and poll messages', () => {
  it('needs the right authInfo, then waits for the losing registrar, who is told through poll', async () => {
    const { expiresAt } = await a.createDomain({ name: 'move.test', authInfo: 'auth-Move-1' })
    await expect(b.transferDomain({ op: 'request', name: 'move.test', authInfo: 'auth-Move-1' })).rejects.toMatchObject({ code: 2106 }) // add grace
    advance(6 * DAY)
    await expect(b.transferDomain({ op: 'request', name: 'move.test', authInfo: 'wrong-auth' })).rejects.toMatchObject({ code: 2202 })
    await expect(b.transferDomain({ op: 'request', name: 'move.test' })).rejects.toMatchObject({ code: 2003 })
    await expect(a.transferDomain({ op: 'request', name: 'move.test', authInfo: 'auth-Move-1' })).rejects.toMatchObject({ code: 2106 })
    await expect(b.transferDomain({ op: 'query', name: 'move.test' })).rejects.toMatchObject({ code: 2301 })

    const requested = await b.transferDomain({ op: 'request', name: 'move.test', authInfo: 'auth-Move-1', years: 1 })
    expect(requested).toMatchObject({ name: 'move.test', status: 'pending', requestedBy: B.id, actionBy: A.id, pending: true })
    await expect(b.transferDomain({ op: 'request', name: 'move.test', authInfo: 'auth-Move-1' })).rejects.toMatchObject({ code: 2300 })
    expect((await a.infoDomain('move.test')).statuses).toContain('pendingTransfer')
    await expect(b.transferDomain({ op: 'approve', name: 'move.test' })).rejects.toMatchObject({ code: 2201 })

    const notice = await a.poll()
    expect(notice).toMatchObject({ message: 'Transfer requested: move.test', transfer: { name: 'move.test', status: 'pending', requestedBy: B.id } })
    expect(await a.ackPoll(notice!.id)).toEqual({ remaining: 0 })
    expect(await a.poll()).toBeNull()
    await expect(a.ackPoll(notice!.id)).rejects.toMatchObject({ code: 2303 })

    const approved = await a.transferDomain({ op: 'approve', name: 'move.test' })
    expect(approved).toMatchObject({ status: 'clientApproved', pending: false })
    const info = await b.infoDomain('move.test')
    expect(info.clientId).toBe(B.id)
    expect(info.expiresAt?.getUTCFullYear()).toBe(expiresAt!.getUTCFullYear() + 1)
    expect(info.transferredAt).toBeInstanceOf(Date)
    const gained = await b.poll()
    expect(gained).toMatchObject({ message: 'Transfer approved: move.test', transfer: { status: 'clientApproved' } })
    await b.ackPoll(gained!.id)
    expect((await b.transferDomain({ op: 'query', name: 'move.test' })).status).toBe('clientApproved')
  })

  it('rejects, cancels, and approves automatically after the configured time', async () => {
    await b.createDomain({ name: 'keep.test', authInfo: 'auth-Keep-1' })
    advance(6 * DAY)
    await a.transferDomain({ op: 'request', name: 'keep.test', authInfo: 'auth-Keep-1' })
    expect((await b.transferDomain({ op: 'reject', name: 'keep.test' })).status).toBe('clientRejected')
    await a.transferDomain({ op: 'request', name: 'keep.test', authInfo: 'auth-Keep-1' })
    await expect(b.transferDomain({ op: 'cancel', name: 'keep.test' })).rejects.toMatchObject({ code: 2201 })
    expect((await a.transferDomain({ op: 'cancel', name: 'keep.test' })).status).toBe('clientCancelled')
    await a.transferDomain({ op: 'request', name: 'keep.test', authInfo: 'auth-Keep-1' })
    advance(3601 * 1000)
    expect((await a.infoDomain('keep.test')).clientId).toBe(A.id)

    const messagesForA: string[] = []
    for (let m = await a.poll(); m; m = await a.poll()) {
      messagesForA.push(m.message)
      await a.ackPoll(m.id)
    }
    expect(messagesForA).toEqual(['Transfer rejected: keep.test', 'Transfer approved by the registry: keep.test'])
    const messagesForB: string[] = []
    for (let m = await b.poll(); m; m = await b.poll()) {
      messagesForB.push(m.message)
      await b.ackPoll(m.id)
    }
    expect(messagesForB).toEqual([
      'Transfer requested: keep.test',
      'Transfer requested: keep.test',
      'Transfer cancelled: keep.test',
      'Transfer requested: keep.test',
      'Transfer approved by the registry: keep.test',
    ])
  })

  it('refuses a transfer under clientTransferProhibited (2304)', async () => {
    await a.createDomain({ name: 'transfer-locked.test', authInfo: 'auth-Locked-1' })
    advance(6 * DAY) // past the add grace period, when a transfer could otherwise be asked for
    await a.updateDomain({ name: 'transfer-locked.test', add: { statuses: ['clientTransferProhibited'] } })
    await expect(b.transferDomain({ op: 'request', name: 'transfer-locked.test', authInfo: 'auth-Locked-1' })).rejects.toMatchObject({
      code: 2304,
      registryMessage: 'Object status prohibits operation',
    })
  })
})

describe('frames on the wire', () => {
  async function rawSession() {
    const socket = connect({ host: '127.0.0.1', port: server.port, ca: server.certificate, servername: 'localhost' })
    const reader = new FrameReader()
    const inbox: string[] = []
    let notify: (() => void) | undefined
    socket.on('data', (chunk: Buffer) => {
      inbox.push(...reader.push(chunk))
      notify?.()
    })
    const next = async (count: number) => {
      while (inbox.length < count) await new Promise<void>((resolve) => (notify = resolve))
      return inbox.splice(0, count)
    }
    await next(1) // greeting
    return { socket, next }
  }
  const login = `<?xml version="1.0" encoding="UTF-8"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><login><clID>${A.id}</clID><pw>${A.password}</pw><options><version>1.0</version><lang>en</lang></options><svcs><objURI>urn:ietf:params:xml:ns:domain-1.0</objURI></svcs></login><clTRID>RAW-1</clTRID></command></epp>`
  const check = (n: number) =>
    `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><check><d:check xmlns:d="urn:ietf:params:xml:ns:domain-1.0"><d:name>raw${n}.test</d:name></d:check></check><clTRID>RAW-C${n}</clTRID></command></epp>`

  it('handles a frame split into single bytes and several frames in one TCP write, answering in order', async () => {
    const { socket, next } = await rawSession()
    for (const byte of encodeFrame(login)) socket.write(Buffer.from([byte]))
    expect((await next(1))[0]).toContain('code="1000"')
    socket.write(Buffer.concat([encodeFrame(check(1)), encodeFrame(check(2)), encodeFrame(check(3))]))
    const answers = await next(3)
    expect(answers.map((xml) => /<clTRID>(.*?)<\/clTRID>/.exec(xml)?.[1])).toEqual(['RAW-C1', 'RAW-C2', 'RAW-C3'])
    expect(answers[1]).toContain('avail="1">raw2.test')
    socket.destroy()
  })

  it('answers 2001 with the schema error to a command that does not validate, echoing clTRID', async () => {
    const { socket, next } = await rawSession()
    socket.write(encodeFrame(login))
    await next(1)
    invalidOnPurpose++
    socket.write(encodeFrame(check(4).replace('<d:name>raw4.test</d:name>', '<d:nom>raw4.test</d:nom>')))
    const [answer] = await next(1)
    const root = parseXml(answer!)
    expect(root.children[0]?.children[0]?.attrs.code).toBe('2001')
    expect(answer).toContain('<clTRID>RAW-C4</clTRID>')
    expect(answer).toMatch(/nom.*not expected/)
    invalidOnPurpose++
    socket.write(encodeFrame('<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><check>'))
    expect((await next(1))[0]).toContain('code="2001"')
    socket.destroy()
  })
})

describe('RegistryConnection: pool and rate limit', () => {
  it('runs commands over a pool of sessions, reconnects after a broken one and throttles per registry', async () => {
    await domainOfA('pooled.test')
    let now = 0
    const connection = new EppRegistryConnection({
      registry: 'local',
      // Not counted with the other clients' frames: those in flight when the server is killed below never arrive.
      client: { host: '127.0.0.1', port: server.port, tls: { ca: server.certificate, servername: 'localhost' }, timeoutMs: 10_000 },
      clientId: A.id,
      password: A.password,
      sessions: 2,
      rateLimit: { perSecond: 1, burst: 6 },
      now: () => now,
    })
    try {
      const results = await Promise.all(['p1.test', 'p2.test', 'p3.test', 'p4.test'].map((name) => connection.checkDomains([name])))
      expect(results.map((r) => r[0]?.available)).toEqual([true, true, true, true])
      expect(connection.pool.stats).toMatchObject({ idle: 2, busy: 0, opened: 2 })

      // Kill every server-side socket: the next read replaces the broken session and succeeds.
      await server.close().catch(() => undefined)
      server = await restartOnSamePort(server)
      expect((await connection.infoDomain('pooled.test')).name).toBe('pooled.test')
      expect(connection.pool.sessionsOpened).toBe(3)

      await expect(connection.createDomain({ name: 'pooled.test', authInfo: 'x-auth-123' })).rejects.toMatchObject({ code: 2302 })
      const throttled = await connection.checkDomains(['p5.test']).then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(throttled).toBeInstanceOf(RegistryThrottled)
      expect(throttled).toMatchObject({ registry: 'local', message: REGISTRY_THROTTLE_MESSAGE })
      expect((throttled as RegistryThrottled).retryAfterSeconds).toBeGreaterThan(0)
      now += 1000
      expect((await connection.checkDomains(['p5.test']))[0]?.available).toBe(true)
    } finally {
      await connection.close()
    }
  })
})

// Restart keeps the registry's state (same object) but drops every connection.
async function restartOnSamePort(old: LocalRegistryServer): Promise<LocalRegistryServer> {
  const next = await startLocalRegistry({
    port: old.port,
    tlsDir: old.tlsDir,
    clients: [A, B, { id: 'registrar-c', password: 'secret-c-456' }],
    policy: old.registry.policy,
    now: () => clock,
  })
  next.registry.state = old.registry.state
  // Carry the counts so the final check covers every frame of the suite.
  next.frames.received += old.frames.received
  next.frames.sent += old.frames.sent
  next.problems.push(...old.problems)
  if (next.validator && old.validator) {
    for (const key of Object.keys(old.validator.stats) as (keyof typeof old.validator.stats)[]) next.validator.stats[key] += old.validator.stats[key]
  }
  return next
}

// Whichever tests ran (all, one, or any subset), every frame the server received and sent was
// validated against the XSDs and every answer was valid: checked once the file's tests are done.
afterAll(async () => {
  if (!server?.validator) return
  const stats = server.validator.stats
  // A frame the client wrote just before the last test ended may still be on its way.
  const settled = () => stats.received >= clientFrames.sent && stats.received === server.frames.received && stats.sent === server.frames.sent
  for (const deadline = Date.now() + 5_000; !settled() && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 20))
  for (const client of open) client.destroy()
  console.log(`EPP frames validated against the XSDs: received ${stats.received}, sent ${stats.sent} (client saw ${clientFrames.sent} sent / ${clientFrames.received} received)`)
  expect(server.problems.filter((p) => p.direction === 'sent')).toEqual([])
  expect(stats.invalidSent).toBe(0)
  expect(stats.received).toBe(server.frames.received)
  expect(stats.sent).toBe(server.frames.sent)
  expect(stats.invalidReceived).toBe(invalidOnPurpose)
  expect(stats.received).toBeGreaterThan(0)
  // Every frame our client sent reached the server's validator (raw-socket frames are extra).
  expect(stats.received).toBeGreaterThanOrEqual(clientFrames.sent)
})

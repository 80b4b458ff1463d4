import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalRegistry } from '#server/integrations/registry/local-registry.ts'
import { startRdapServer, type RdapServer } from '#server/integrations/registry/rdap-server.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { createHostPacer, HostThrottled } from '../host-pacer.ts'
import { createRdapClient, parseRdapBases, parseRdapDomain, RdapError } from './client.ts'

const TLDS = { test: { createYears: [1], renewYears: [1], transferYears: [1] } }
const REGISTRARS = {
  rival: { name: 'Rival Registrar Ltd.', ianaId: '9999', abuseEmail: 'abuse@rival.example', abusePhone: '+44.2071234567' },
}

let registry: LocalRegistry
let server: RdapServer

beforeAll(async () => {
  registry = new LocalRegistry({ policy: { tlds: TLDS } })
  registry.preload([
    {
      name: 'acme-login.test',
      clientId: 'rival',
      createdAt: '2026-01-02T03:04:05.000Z',
      expiresAt: '2027-01-02T03:04:05.000Z',
      authInfo: 'x-Secret-1',
      statuses: ['clientTransferProhibited'],
      nameservers: ['ns1.parking.example', 'ns2.parking.example'],
    },
    { name: 'xn--80ak5af1h.test', clientId: 'unknown-registrar', createdAt: '2026-02-01T00:00:00Z', expiresAt: '2027-02-01T00:00:00Z', authInfo: 'x-Secret-2' },
  ])
  server = await startRdapServer({ registry, registrars: REGISTRARS })
})
afterAll(() => server.close())

const client = () => createRdapClient({ bases: parseRdapBases(`test=${server.url}`), fetch: createOutbound({ resolver: null }).fetch, perSecond: 100, burst: 100 })

describe('the local registry’s RDAP service and the client', () => {
  it('answers a domain with its registrar, IANA id, nested abuse contact, events, statuses and name servers', async () => {
    const response = await fetch(`${server.url}/domain/acme-login.test`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/rdap+json')
    const body = (await response.json()) as { entities: { publicIds: unknown; entities: { roles: string[] }[] }[]; status: string[] }
    expect(body.entities[0]!.publicIds).toEqual([{ type: 'IANA Registrar ID', identifier: '9999' }])
    expect(body.entities[0]!.entities[0]!.roles).toEqual(['abuse'])
    expect(body.status).toEqual(['client transfer prohibited'])

    expect(await client().lookupDomain('ACME-login.test.')).toEqual({
      domain: 'acme-login.test',
      unicodeName: null,
      handle: expect.stringMatching(/^D\d+-LOCAL$/),
      registrar: 'Rival Registrar Ltd.',
      ianaId: '9999',
      abuseEmail: 'abuse@rival.example',
      abusePhone: '+44.2071234567',
      registrant: null,
      created: '2026-01-02T03:04:05.000Z',
      expires: '2027-01-02T03:04:05.000Z',
      updated: null,
      statuses: ['client transfer prohibited'],
      nameservers: ['ns1.parking.example', 'ns2.parking.example'],
      signed: false,
    })
  })

  it('finds an IDN by its Unicode form, and says 404 for a name it does not hold as null', async () => {
    const idn = await client().lookupDomain('ѕрасе.test')
    expect(idn).toMatchObject({ domain: 'xn--80ak5af1h.test', unicodeName: 'ѕрасе.test', registrar: 'unknown-registrar', ianaId: null, abuseEmail: null, statuses: ['inactive'] })
    expect(await client().lookupDomain('nobody-has-this.test')).toBeNull()
    expect((await fetch(`${server.url}/domain/nobody-has-this.test`)).status).toBe(404)
    expect((await fetch(`${server.url}/nameserver/ns1.parking.example`)).status).toBe(400)
  })

  it('answers watch’s facts, null where no server is configured for the TLD', async () => {
    const rdap = client()
    expect(rdap.serverOf('acme-login.test')).toBe(new URL(server.url).host)
    expect(await rdap.lookup('acme-login.test')).toMatchObject({ server: new URL(server.url).host, iana_id: '9999', abuse_email: 'abuse@rival.example', registered_at: '2026-01-02T03:04:05.000Z' })
    expect(rdap.serverOf('acme.com')).toBe('')
    expect(await rdap.lookup('acme.com')).toBeNull()
    await expect(rdap.lookupDomain('acme.com')).rejects.toMatchObject({ reason: 'no_server' })
  })
})

describe('parseRdapDomain', () => {
  it('reads a registry’s answer with the abuse entity beside the registrar and a text phone', () => {
    const summary = parseRdapDomain({
      objectClassName: 'domain',
      ldhName: 'EXAMPLE.COM.',
      status: ['active'],
      events: [{ eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' }],
      entities: [
        {
          objectClassName: 'entity',
          roles: ['registrar'],
          handle: '376',
          publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['fn', {}, 'text', 'RESERVED-IANA'],
            ],
          ],
        },
        {
          objectClassName: 'entity',
          roles: ['abuse'],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['tel', {}, 'text', '+1.3108239358'],
              ['email', {}, 'text', 'abuse@iana.org'],
            ],
          ],
        },
        { objectClassName: 'entity', roles: ['registrant'], vcardArray: ['vcard', [['fn', {}, 'text', 'Internet Assigned Numbers Authority']]] },
      ],
      nameservers: [{ objectClassName: 'nameserver', ldhName: 'A.IANA-SERVERS.NET.' }],
    })
    expect(summary).toMatchObject({
      domain: 'example.com',
      registrar: 'RESERVED-IANA',
      ianaId: '376',
      abuseEmail: 'abuse@iana.org',
      abusePhone: '+1.3108239358',
      registrant: 'Internet Assigned Numbers Authority',
      created: '1995-08-14T04:00:00Z',
      expires: null,
      nameservers: ['a.iana-servers.net'],
      signed: null,
    })
  })

  it('refuses what is not a domain object', () => {
    expect(() => parseRdapDomain({ errorCode: 404 })).toThrow(RdapError)
    expect(() => parseRdapDomain({ objectClassName: 'domain' })).toThrow(/no name/)
  })
})

describe('parseRdapBases', () => {
  it('takes one URL, tld=url pairs or IANA’s bootstrap file', () => {
    expect([...parseRdapBases('https://rdap.example/')]).toEqual([['*', 'https://rdap.example']])
    expect([...parseRdapBases('test=http://127.0.0.1:3871, *=https://rdap.org/')]).toEqual([
      ['test', 'http://127.0.0.1:3871'],
      ['*', 'https://rdap.org'],
    ])
    const iana = JSON.stringify({
      version: '1.0',
      services: [
        [
          ['com', 'net'],
          ['http://rdap.verisign.com/com/v1/', 'https://rdap.verisign.com/com/v1/'],
        ],
      ],
    })
    expect(parseRdapBases(iana).get('net')).toBe('https://rdap.verisign.com/com/v1')
    expect(() => parseRdapBases('ftp://rdap.example')).toThrow(/http/)
    expect(() => parseRdapBases('=https://x.example')).toThrow(/tld=url/)
  })
})

describe('the per-host pacer', () => {
  it('grants the burst, then refuses a wait longer than allowed, per host', async () => {
    let now = 0
    const pacer = createHostPacer({ perSecond: 1, burst: 2, maxWaitMs: 500, now: () => now })
    await pacer.wait('a.example')
    await pacer.wait('a.example')
    await expect(pacer.wait('a.example')).rejects.toBeInstanceOf(HostThrottled)
    await pacer.wait('b.example')
    now += 1000
    await pacer.wait('a.example')
  })
})

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { addressClass, createOutbound, parseResolverSetting } from './outbound.ts'

describe('addressClass: every address by its class', () => {
  it("refuses the issue's addresses that were accepted before", () => {
    for (const [host, kind] of [
      ['[::127.0.0.1]', 'ipv4-compatible'],
      ['[::ffff:0:7f00:1]', 'ipv4-translated'],
      ['[2002:7f00:1::1]', '6to4'],
      ['[::a00:1]', 'ipv4-compatible'],
      ['fec0::1', 'site-local'],
      ['100::1', 'discard'],
    ] as const) {
      expect(addressClass(host), host).toBe(kind)
      // As the URL parser writes them.
      expect(addressClass(new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname), host).toBe(kind)
    }
  })

  it('IPv4: each special range at its edges, and the public addresses just outside them', () => {
    const cases: [string, string | null][] = [
      ['0.0.0.0', 'unspecified'],
      ['0.255.255.255', 'unspecified'],
      ['1.0.0.0', null],
      ['9.255.255.255', null],
      ['10.0.0.0', 'private'],
      ['10.255.255.255', 'private'],
      ['11.0.0.0', null],
      ['100.63.255.255', null],
      ['100.64.0.0', 'cgnat'],
      ['100.127.255.255', 'cgnat'],
      ['100.128.0.0', null],
      ['126.255.255.255', null],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.255', 'loopback'],
      ['128.0.0.0', null],
      ['169.254.0.0', 'link-local'],
      ['169.254.169.254', 'link-local'],
      ['169.255.0.0', null],
      ['172.15.255.255', null],
      ['172.16.0.0', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.0', null],
      ['192.0.0.0', 'ietf-protocol'],
      ['192.0.0.255', 'ietf-protocol'],
      ['192.0.1.0', null],
      ['192.0.2.0', 'documentation'],
      ['192.0.2.255', 'documentation'],
      ['192.0.3.0', null],
      ['192.88.99.1', '6to4'],
      ['192.167.255.255', null],
      ['192.168.0.0', 'private'],
      ['192.168.255.255', 'private'],
      ['192.169.0.0', null],
      ['198.17.255.255', null],
      ['198.18.0.0', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['198.20.0.0', null],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.7', 'documentation'],
      ['203.0.114.0', null],
      ['223.255.255.255', null],
      ['224.0.0.0', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.0', 'reserved'],
      ['255.255.255.254', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['93.184.216.34', null],
      ['8.8.8.8', null],
    ]
    for (const [ip, kind] of cases) expect(addressClass(ip), ip).toBe(kind)
  })

  it('IPv6: each special range at its edges; the forms carrying an IPv4 address', () => {
    const cases: [string, string | null][] = [
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['::2', 'ipv4-compatible'],
      ['::ffff:ffff', 'ipv4-compatible'],
      ['::1:0:0', 'reserved'],
      // IPv4-mapped: judged by the IPv4 address carried.
      ['::ffff:127.0.0.1', 'ipv4-mapped'],
      ['::ffff:7f00:1', 'ipv4-mapped'],
      ['::ffff:10.0.0.1', 'ipv4-mapped'],
      ['::ffff:169.254.169.254', 'ipv4-mapped'],
      ['::ffff:0.0.0.0', 'ipv4-mapped'],
      ['::ffff:8.8.8.8', null],
      // IPv4-translated (SIIT), refused whatever it carries.
      ['::ffff:0:808:808', 'ipv4-translated'],
      ['::ffff:0:7f00:1', 'ipv4-translated'],
      ['0:0:0:1::', 'reserved'],
      ['ff::', 'reserved'],
      // NAT64: the well-known prefix judged by what it carries, the local-use prefix refused.
      ['64:ff9b::7f00:1', 'nat64'],
      ['64:ff9b::10.0.0.1', 'nat64'],
      ['64:ff9b::808:808', null],
      ['64:ff9b:1::808:808', 'nat64'],
      ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'nat64'],
      ['64:ff9b:2::1', 'reserved'],
      ['100::', 'discard'],
      ['100::ffff:ffff:ffff:ffff', 'discard'],
      ['100:0:0:1::', 'reserved'],
      ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['2000::', null],
      ['2001::', 'teredo'],
      ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'teredo'],
      ['2001:1::1', 'ietf-protocol'],
      ['2001:2::1', 'ietf-protocol'],
      ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'ietf-protocol'],
      ['2001:200::1', null],
      ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
      ['2001:db8::', 'documentation'],
      ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
      ['2001:db9::', null],
      ['2001:4860:4860::8888', null],
      ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
      ['2002::', '6to4'],
      ['2002:808:808::1', '6to4'],
      ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '6to4'],
      ['2003::', null],
      ['2a00:1450:4001::1', null],
      ['3ffe:ffff::1', null],
      ['3fff::', 'documentation'],
      ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
      ['3fff:1000::', null],
      ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
      ['4000::', 'reserved'],
      ['5f00::1', 'reserved'],
      ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
      ['fc00::', 'unique-local'],
      ['fd00::1', 'unique-local'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
      ['fe00::', 'reserved'],
      ['fe80::', 'link-local'],
      ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['fec0::', 'site-local'],
      ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
      ['ff00::', 'multicast'],
      ['ff02::1', 'multicast'],
      ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
      ['not an address', 'reserved'],
      ['', 'reserved'],
    ]
    for (const [ip, kind] of cases) expect(addressClass(ip), ip).toBe(kind)
  })
})

describe('DNS_RESOLVER', () => {
  it('takes system or resolvers by address, with their ports', () => {
    expect(parseResolverSetting('system')).toBe('system')
    expect(parseResolverSetting('127.0.0.1:5300, 192.0.2.53, [::1]:53, 2001:db8::53')).toEqual(['127.0.0.1:5300', '192.0.2.53:53', '[::1]:53', '[2001:db8::53]:53'])
    expect(() => parseResolverSetting('dns.example:53')).toThrow(/not an IP address/)
    expect(() => parseResolverSetting('127.0.0.1:0')).toThrow(/port/)
    expect(() => parseResolverSetting('127.0.0.1:99999')).toThrow(/port/)
  })
})

describe('the guard', () => {
  it('resolves no name without a resolver, localhost never through one; an address needs none', async () => {
    const guard = createOutbound({ resolver: null })
    await expect(guard.resolve('hooks.example.com')).rejects.toMatchObject({ code: 'EOUTBOUND', reason: 'no_resolver' })
    await expect(guard.resolve('localhost')).rejects.toMatchObject({ reason: 'address', addressClass: 'loopback' })
    await expect(guard.resolve('api.localhost')).rejects.toMatchObject({ reason: 'address', addressClass: 'loopback' })
    expect(await guard.resolve('[2001:4860:4860::8888]')).toEqual([{ address: '2001:4860:4860::8888', family: 6 }])
    expect(await guard.resolve('localhost', { allowPrivate: true })).toHaveLength(2)
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => guard.lookup()('localhost', {}, (e) => resolve(e)))
    expect(error?.code).toBe('EOUTBOUND')
  })

  it('refuses an address written in the URL before connecting, and a scheme not allowed', () => {
    const guard = createOutbound({ resolver: null })
    for (const url of [
      'http://[::127.0.0.1]:8080/',
      'http://[::ffff:0:7f00:1]/',
      'http://[2002:7f00:1::1]/',
      'http://[::a00:1]/',
      'http://[fec0::1]/',
      'http://[100::1]/',
      'http://127.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://[::ffff:127.0.0.1]/',
    ])
      expect(() => guard.requestOptions(new URL(url)), url).toThrow(/not reachable from here/)
    expect(() => guard.requestOptions(new URL('ftp://8.8.8.8/'))).toThrow(/ftp is not allowed/)
    expect(() => guard.requestOptions(new URL('http://8.8.8.8/'), {}, ['https:'])).toThrow(/http is not allowed/)
    expect(guard.requestOptions(new URL('https://8.8.8.8/x?y')).options).toMatchObject({ hostname: '8.8.8.8', path: '/x?y' })
    expect(guard.requestOptions(new URL('http://127.0.0.1/'), { allowPrivate: true }).https).toBe(false)
  })

  it('follows a redirect only to a checked address, up to the hop limit, and stops a body past its limit', async () => {
    const hits: string[] = []
    const server = createServer((req, res) => {
      hits.push(req.url ?? '')
      if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end()
      else if (req.url === '/inside') res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end()
      else if (req.url === '/big') res.end('x'.repeat(10_000))
      else res.end('ok')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve))
    const port = (server.address() as AddressInfo).port
    try {
      const guard = createOutbound({ resolver: null, allow: ['127.0.0.2'] })
      expect((await guard.fetch(`http://127.0.0.2:${port}/`)).body.toString()).toBe('ok')
      await expect(guard.fetch(`http://127.0.0.2:${port}/inside`)).rejects.toMatchObject({ reason: 'address', addressClass: 'loopback' })
      expect(hits).not.toContain('/secret')
      await expect(guard.fetch(`http://127.0.0.2:${port}/loop`, { maxRedirects: 3 })).rejects.toMatchObject({ reason: 'redirects' })
      expect(hits.filter((h) => h === '/loop')).toHaveLength(4)
      await expect(guard.fetch(`http://127.0.0.2:${port}/big`, { maxBytes: 1000 })).rejects.toMatchObject({ reason: 'too_large' })
      expect((await guard.fetch(`http://127.0.0.2:${port}/inside`, { maxRedirects: 0 })).status).toBe(302)
      await expect(guard.fetch(`http://127.0.0.2:${port}/loop`, { redirectPorts: [80, 443] })).rejects.toThrow(`A redirect to port ${port} is not followed (80, 443 only)`)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

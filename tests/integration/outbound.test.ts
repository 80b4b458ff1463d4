import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPowerDnsClient } from '#server/integrations/powerdns/client.ts'
import { change } from '#server/platform/core/change.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { checkCaa } from '#server/platform/ssl/caa.ts'
import { httpServed } from '#server/platform/ssl/jobs.ts'
import { startWebhookDispatcher } from '#server/platform/webhooks/delivery.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { createEndpoint } from '#server/platform/webhooks/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'

/**
 * The outbound guard (issue 26, decision 022) where the server reaches addresses users give:
 * webhook endpoints refused when saved and when delivered (private addresses not allowed), a name
 * resolved through the configured resolver — a zone of a real PowerDNS — to a private address
 * refused, and the SSL HTTP-01 pre-check stopping at a redirect to the loopback.
 */
const ZONE = 'outbound.test'
let pdns: PowerDnsServer
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let receiver: Server
let port: number
const hits: string[] = []
let admin: string
let acme: string
let dispatcher: { close(): Promise<void> } | undefined

const rrset = (name: string, type: string, content: string) => ({ name: `${name}.${ZONE}.`, type, ttl: 60, changetype: 'REPLACE' as const, records: [{ content, disabled: false }] })

beforeAll(async () => {
  pdns = await startPowerDns()
  await createPowerDnsClient(pdns.settings).createZone(
    `${ZONE}.`,
    [
      rrset('public', 'A', '93.184.216.34'),
      rrset('inside', 'A', '10.0.0.1'),
      rrset('mapped', 'AAAA', '::ffff:7f00:1'),
      rrset('compatible', 'AAAA', '::7f00:1'),
      rrset('rebind', 'A', '93.184.216.34'),
      rrset('redirector', 'A', '127.0.0.2'),
      rrset('caa', 'CAA', '0 issue "ca.example"'),
    ],
    ['ns1.outbound.test.'],
  )
  receiver = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(204).end()
  })
  // Both families: an IPv4 client arrives IPv4-mapped.
  await new Promise<void>((resolve) => receiver.listen(0, '::', resolve))
  port = (receiver.address() as AddressInfo).port
  platform = await createTestPlatform(
    {
      // The resolver is our PowerDNS; 127.0.0.2 (a first hop in the redirect test) is allowed by name, nothing else private.
      outbound: createOutbound({ resolver: [`127.0.0.1:${pdns.dnsPort}`], allow: ['127.0.0.2'] }),
      webhooks: { allowPrivateAddresses: false, retryDelaysSeconds: [60] },
    },
    { seed: { domainsPerAccount: [1, 1] } },
  )
  admin = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
}, 120_000)

afterAll(async () => {
  await dispatcher?.close()
  await platform?.close()
  receiver?.close()
  await pdns?.stop()
})

const create = (url: string) => platform.call('POST', `/groups/${acme}/webhook_endpoints`, { token: admin, body: { url, events: ['domain.renewed'] } })

describe('webhook endpoints through the outbound guard (private addresses not allowed)', () => {
  it('refuses, when saved, every address by its class — the forms accepted before included', async () => {
    for (const host of [
      '[::127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[2002:7f00:1::1]',
      '[::a00:1]',
      '[fec0::1]',
      '[100::1]',
      '[::ffff:127.0.0.1]',
      '[64:ff9b::a00:1]',
      '127.0.0.1',
      '100.64.0.1',
      '192.0.2.1',
      'localhost',
    ]) {
      const made = await create(`https://${host}:${port}/hook`)
      expect(made.status, host).toBe(400)
      expect(made.json.errors, host).toEqual([expect.objectContaining({ field: 'url', code: 'webhook.url_private_address' })])
    }
  })

  it('refuses, when saved, a name the configured resolver answers with a private address; takes a public one', async () => {
    for (const name of ['inside', 'mapped', 'compatible']) {
      const made = await create(`https://${name}.${ZONE}/hook`)
      expect(made.status, name).toBe(400)
      expect(made.json.errors, name).toEqual([expect.objectContaining({ code: 'webhook.url_private_address' })])
    }
    expect((await create(`https://public.${ZONE}/hook`)).status).toBe(201)
  })

  it('sends nothing at delivery to an address the guard refuses: one saved while private addresses were allowed, or a name rebound to the loopback', async () => {
    const scope = systemScope('test', acme)
    const saved = async (url: string) => (await createEndpoint({ ...platform.deps, webhooks: { allowPrivateAddresses: true } }, scope, { url, events: ['domain.renewed'] })).endpoint.id
    const endpoints = [
      await saved(`http://127.0.0.1:${port}/plain`),
      await saved(`http://[::ffff:127.0.0.1]:${port}/mapped`),
      await saved(`http://[::127.0.0.1]:${port}/compatible`),
      (await create(`https://rebind.${ZONE}:${port}/rebound`)).json.endpoint.id as string,
    ]
    // The name now answers the loopback (DNS rebinding after the check on save).
    await createPowerDnsClient(pdns.settings).patchRrsets(`${ZONE}.`, [rrset('rebind', 'A', '127.0.0.1')])
    await change(platform.db, scope, (tx) => recordEvent(tx, { accountId: acme, type: 'domain.renewed', data: { name: 'acme-one.com' } }))
    dispatcher = await startWebhookDispatcher(platform.deps)
    const deadline = Date.now() + 20_000
    let attempts: { endpoint_id: string; error: string | null; status: number | null }[] = []
    while (Date.now() < deadline) {
      attempts = await platform.db.selectFrom('webhook_attempts').select(['endpoint_id', 'error', 'status']).where('endpoint_id', 'in', endpoints).execute()
      if (new Set(attempts.map((a) => a.endpoint_id)).size === endpoints.length) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(new Set(attempts.map((a) => a.endpoint_id)).size).toBe(endpoints.length)
    expect(hits).toEqual([])
    for (const attempt of attempts) expect(attempt).toMatchObject({ status: null, error: expect.stringMatching(/(loopback|ipv4-mapped|ipv4-compatible) address, not reachable from here/) })
    expect(attempts.find((a) => a.endpoint_id === endpoints[3])!.error).toBe(`rebind.${ZONE} resolves to 127.0.0.1, a loopback address, not reachable from here`)
  }, 30_000)
})

describe('the SSL pre-checks of names hosted elsewhere', () => {
  it('HTTP-01: follows a redirect only to a checked address — one to 127.0.0.1 stops there, unfetched', async () => {
    const inside: string[] = []
    const secret = createServer((req, res) => {
      inside.push(req.url ?? '')
      res.end('the-key-authorisation')
    })
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve))
    const insidePort = (secret.address() as AddressInfo).port
    const first = createServer((req, res) => {
      if (req.url?.endsWith('/served')) res.end('the-key-authorisation')
      else res.writeHead(302, { location: `http://127.0.0.1:${insidePort}${req.url}` }).end()
    })
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.2', resolve))
    const firstPort = (first.address() as AddressInfo).port
    try {
      // The first hop redirects to the loopback: not followed, so not judged here (the CA is asked and judges).
      expect(await httpServed(platform.deps, '127.0.0.2', 'token', 'the-key-authorisation', firstPort)).toEqual({
        state: 'unreachable',
        detail: '127.0.0.1 is a loopback address, not reachable from here',
      })
      expect(inside).toEqual([])
      // A name resolves through our PowerDNS to the first hop, which answers the file itself…
      expect(await httpServed(platform.deps, `redirector.${ZONE}`, 'served', 'the-key-authorisation', firstPort)).toEqual({ state: 'right', detail: '' })
      // …or redirects to the loopback: not followed, so not judged here (the CA is asked and judges).
      const seen = await httpServed(platform.deps, `redirector.${ZONE}`, 'token', 'the-key-authorisation', firstPort)
      expect(seen).toEqual({ state: 'unreachable', detail: '127.0.0.1 is a loopback address, not reachable from here' })
      expect(inside).toEqual([])
    } finally {
      await new Promise((resolve) => first.close(resolve))
      await new Promise((resolve) => secret.close(resolve))
    }
  })

  it('CAA of a name we do not host is read through the configured resolver', async () => {
    const [verdict] = await checkCaa(platform.deps, acme, [`caa.${ZONE}`], ['pebble.test'], null)
    expect(verdict).toMatchObject({ domain: `caa.${ZONE}`, records: [{ flags: 0, tag: 'issue', value: 'ca.example' }], allowed: false })
  })
})

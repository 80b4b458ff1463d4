import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { startWebhookDispatcher } from '#server/platform/webhooks/delivery.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Webhooks (issue 20) against a real HTTP receiver: events written with their change (none for a
 * change rolled back), fanned out and delivered per Standard Webhooks — each message verified by
 * the `standardwebhooks` package, an independent implementation — retried, disabled by 410,
 * replayed, pinged, signed twice during a secret rotation, and delivered when the worker starts
 * after the event was committed (a process that died before delivering).
 */
type Received = { headers: IncomingHttpHeaders; body: string }
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let receiver: Server
let url: string
const received: Received[] = []
/** What the receiver answers next (then 204). */
const answers: { status: number; headers?: Record<string, string> }[] = []
const session: Record<string, string> = {}
let acme: string
let globex: string
let dispatcher: { close(): Promise<void> } | undefined

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      const answer = answers.shift() ?? { status: 204 }
      res.writeHead(answer.status, answer.headers).end(answer.status === 204 ? undefined : `status ${answer.status}`)
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  platform = await createTestPlatform({ webhooks: { allowPrivateAddresses: true, retryDelaysSeconds: [1, 1] } }, { seed: { domainsPerAccount: [1, 1] } })
  for (const email of ['admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    session[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await dispatcher?.close()
  await platform?.close()
  receiver?.close()
})

async function until<T>(what: string, read: () => T | Promise<T>, deadlineMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + deadlineMs
  for (;;) {
    const value = await read()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const admin = () => session['admin@acme.example']!
const base = () => `/groups/${acme}/webhook_endpoints`
const byType = (type: string) => received.filter((r) => JSON.parse(r.body).type === type)

/** Commits (or rolls back) a change that records an event, as a service does. */
async function changeWithEvent(type: 'domain.renewed' | 'order.failed', data: Record<string, unknown>, rollBack = false) {
  await change(platform.db, systemScope('test', acme), async (tx) => {
    await recordEvent(tx, { accountId: acme, type, data })
    if (rollBack) throw new Error('rolled back')
  }).catch((error: Error) => {
    if (!rollBack) throw error
  })
}

describe('webhooks', () => {
  let endpoint: { id: string; version: number }
  let secret: string

  it('delivers an event committed while no worker ran once one starts, signed per Standard Webhooks; a rolled-back change sends nothing', async () => {
    const made = await platform.call('POST', base(), { token: admin(), body: { url, description: 'ops', events: ['domain.renewed', 'order.failed'] } })
    expect(made.status).toBe(201)
    ;({ endpoint, secret } = made.json)
    expect(secret).toMatch(/^whsec_/)
    await changeWithEvent('order.failed', { name: 'never.example' }, true)
    await changeWithEvent('domain.renewed', { name: 'acme-one.com' })
    // The process that would have delivered was down: the worker and dispatcher start now.
    await platform.deps.jobs.start({ work: true })
    dispatcher = await startWebhookDispatcher(platform.deps)
    const [message] = await until('the renewal', () => (byType('domain.renewed').length ? byType('domain.renewed') : null))
    const payload = new Webhook(secret).verify(message!.body, message!.headers as Record<string, string>) as { type: string; data: { name: string } }
    expect(payload.data.name).toBe('acme-one.com')
    expect(message!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/)
    expect(byType('order.failed')).toEqual([])
    // A forged body fails the same check.
    expect(() => new Webhook(secret).verify(message!.body.replace('acme-one', 'evil'), message!.headers as Record<string, string>)).toThrow()
  })

  it('retries a failure with the same webhook-id, logs each attempt, and replays on demand', async () => {
    answers.push({ status: 500 })
    const before = received.length
    await changeWithEvent('domain.renewed', { name: 'retry.example' })
    const tries = await until('a retry', () =>
      byType('domain.renewed').filter((r) => r.body.includes('retry.example')).length >= 2 ? byType('domain.renewed').filter((r) => r.body.includes('retry.example')) : null,
    )
    expect(received.length - before).toBe(2)
    expect(tries[0]!.headers['webhook-id']).toBe(tries[1]!.headers['webhook-id'])
    const log = await until('the log', async () => {
      const res = await platform.call('GET', `${base()}/${endpoint.id}/attempts`, { token: session['viewer@acme.example'] })
      return res.json.data.filter((a: { delivery_state: string }) => a.delivery_state === 'succeeded').length >= 2 ? res.json.data : null
    })
    const failed = log.find((a: { status: number }) => a.status === 500)
    expect(failed.response_excerpt).toBe('status 500')
    const replay = await platform.call('POST', `${base()}/${endpoint.id}/deliveries/${failed.delivery_id}/replay`, { token: admin() })
    expect(replay.status).toBe(202)
    await until('the replay', () => byType('domain.renewed').filter((r) => r.body.includes('retry.example')).length === 3)
    // A delivery whose sender died (its claim ran out, nobody told of it) is found by the poll and sent.
    await until('the replay done', async () => (await platform.db.selectFrom('webhook_deliveries').select('state').where('id', '=', failed.delivery_id).executeTakeFirst())?.state === 'succeeded')
    await platform.db
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', next_attempt_at: new Date(Date.now() - 600_000), claimed_until: new Date(Date.now() - 1000) })
      .where('id', '=', failed.delivery_id)
      .execute()
    await until('the overdue delivery', () => byType('domain.renewed').filter((r) => r.body.includes('retry.example')).length === 4)
  })

  it('signs with both secrets while a rotation overlaps, pings on demand; five days of failures or a 410 disable the endpoint', async () => {
    const rotated = await platform.call('POST', `${base()}/${endpoint.id}/rotate_secret`, { token: admin() })
    expect(rotated.json.endpoint.rotating_until).not.toBeNull()
    const ping = await platform.call('POST', `${base()}/${endpoint.id}/test`, { token: admin() })
    expect(ping.status).toBe(202)
    const [message] = await until('the ping', () => (byType('webhook.test').length ? byType('webhook.test') : null))
    expect(String(message!.headers['webhook-signature']).split(' ')).toHaveLength(2)
    for (const key of [secret, rotated.json.secret]) expect(new Webhook(key).verify(message!.body, message!.headers as Record<string, string>)).toBeTruthy()

    // Failing for five days: the next failure disables it; enabling it again clears the failure.
    await platform.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - 6 * 86_400_000) })
      .where('id', '=', endpoint.id)
      .execute()
    answers.push({ status: 500 })
    await changeWithEvent('domain.renewed', { name: 'tired.example' })
    const tired = await until('the endpoint disabled after five days', async () => {
      const res = await platform.call('GET', `${base()}/${endpoint.id}`, { token: admin() })
      return res.json.enabled === false ? res.json : null
    })
    expect(tired.disabled_reason).toMatch(/5 days/)
    const enabled = await platform.call('PATCH', `${base()}/${endpoint.id}`, { token: admin(), body: { enabled: true, version: tired.version } })
    expect(enabled.json).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null })

    answers.push({ status: 410 })
    await changeWithEvent('domain.renewed', { name: 'gone.example' })
    const shown = await until('the endpoint disabled', async () => {
      const res = await platform.call('GET', `${base()}/${endpoint.id}`, { token: admin() })
      return res.json.enabled === false ? res.json : null
    })
    expect(shown.disabled_reason).toMatch(/410/)
  })

  it('refuses what is not HTTPS or points inside, keeps accounts apart, and lets a viewer only read', async () => {
    const events = ['domain.renewed']
    // This platform allows private addresses (tests); HTTPS and the address checks: address.test.ts.
    const bad = await platform.call('POST', base(), { token: admin(), body: { url: 'ftp://example.com/x', events } })
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'url', code: 'webhook.url_https_required' })])
    expect((await platform.call('POST', base(), { token: session['viewer@acme.example'], body: { url, events } })).status).toBe(403)
    const other = session['admin@globex.example']
    for (const [method, path] of [
      ['GET', `${base()}/${endpoint.id}`],
      ['GET', `/groups/${globex}/webhook_endpoints/${endpoint.id}`],
      ['POST', `/groups/${globex}/webhook_endpoints/${endpoint.id}/test`],
      ['DELETE', `/groups/${globex}/webhook_endpoints/${endpoint.id}`],
    ] as const) {
      expect((await platform.call(method, path, { token: other })).status).toBe(404)
    }
    expect((await platform.call('GET', `/groups/${globex}/webhook_endpoints`, { token: other })).json.data).toEqual([])
  })
})

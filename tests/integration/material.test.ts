import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createMaterialChangeRequest, expireRequests } from '#server/platform/material-changes/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'

// Material change requests end to end through the Platform API: the approver's mail is captured
// by a real SMTP server and its link is what approves or rejects.

let smtp: SmtpCapture
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let clock = new Date()
let acme: string
let token: string
const APPROVER = 'approver@acme.example'

beforeAll(async () => {
  smtp = await startSmtpCapture()
  platform = await createTestPlatform({ config: { ...TEST_CONFIG, SMTP_URL: smtp.url, PUBLIC_URL: 'http://portal.test' }, now: () => clock }, { seed: { domainsPerAccount: [8, 2] } })
  await platform.deps.jobs.start({ work: true })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  token = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
  expect((await platform.call('PUT', `/groups/${acme}/material-approvers`, { token, body: { emails: [APPROVER, 'Second@Acme.example'] } })).json.emails).toEqual([APPROVER, 'second@acme.example'])
})

afterAll(async () => {
  await platform?.close()
  await smtp?.close()
})

async function materialDomain(index: number, registryLock = false) {
  const domain = await platform.db
    .selectFrom('domains')
    .select(['id', 'name', 'nameservers', 'version'])
    .where('account_id', '=', acme)
    .where('registry_lock', '=', registryLock)
    .orderBy('name')
    .offset(index)
    .limit(1)
    .executeTakeFirstOrThrow()
  expect((await platform.call('PUT', `/groups/${acme}/material-domains`, { token, body: { ids: [domain.id], is_material: true } })).json.changed).toBe(1)
  return domain
}

/** Asks for a nameserver change through a bulk action and returns the approver's link. */
async function requestNameservers(domainId: string, nameservers: string[]) {
  const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'set_nameservers', ids: [domainId], params: { nameservers } } })
  expect(job.status).toBe(202)
  const done = await vi.waitFor(
    async () => {
      const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${job.json.job_id}`, { token })
      expect(res.json.state).toBe('completed')
      return res.json
    },
    { timeout: 30_000, interval: 200 },
  )
  expect(done.results[0]).toMatchObject({ ok: true, outcome: 'approval_requested' })
  const list = await platform.call('GET', `/groups/${acme}/material-change-requests?filter[domain_id]=${domainId}&sort=-created_at`, { token })
  const id = list.json.data[0].id as string
  const mail = await smtp.waitFor((m) => m.envelopeTo.includes(APPROVER) && (m.text ?? '').includes(id), 30_000)
  const link = new URL(/http:\/\/portal\.test\/approvals\/\S+/.exec(mail.text ?? '')![0])
  return { id, link, token: link.searchParams.get('token')!, mail }
}

describe('material change requests', () => {
  it('holds a nameserver change for approval, mails the approvers, and applies it once approved through the link', async () => {
    const domain = await materialDomain(0)
    const { id, link, token: approval, mail } = await requestNameservers(domain.id, ['ns1.approved.example', 'ns2.approved.example'])
    expect(mail.subject).toContain(domain.name)
    expect(link.pathname).toBe(`/approvals/${id}`)
    // Nothing changed yet.
    expect((await platform.db.selectFrom('domains').select('nameservers').where('id', '=', domain.id).executeTakeFirstOrThrow()).nameservers).toEqual(domain.nameservers)
    // Only the hash of the token is stored.
    const stored = await platform.db.selectFrom('material_approval_tokens').select('token_hash').where('request_id', '=', id).execute()
    expect(stored).toHaveLength(2)
    expect(stored.map((s) => s.token_hash)).not.toContain(approval)

    const view = await platform.call('GET', `/approvals/${id}?token=${approval}`)
    expect(view.status).toBe(200)
    expect(view.json).toMatchObject({ domain_name: domain.name, state: 'pending', approver: APPROVER, change: { nameservers: ['ns1.approved.example', 'ns2.approved.example'] } })
    expect((await platform.call('GET', `/approvals/${id}?token=${'x'.repeat(43)}`)).status).toBe(404)

    const decided = await platform.call('POST', `/approvals/${id}`, { body: { token: approval, decision: 'approve', comment: 'Planned move' } })
    expect(decided.status).toBe(200)
    expect(decided.json).toMatchObject({ state: 'applied', decided_by: APPROVER, comment: 'Planned move', error: null })
    expect((await platform.db.selectFrom('domains').select('nameservers').where('id', '=', domain.id).executeTakeFirstOrThrow()).nameservers).toEqual(['ns1.approved.example', 'ns2.approved.example'])

    // The link is single use: again (or the other approver's link) says it was decided, and when.
    const again = await platform.call('POST', `/approvals/${id}`, { body: { token: approval, decision: 'approve', comment: '' } })
    expect(again.status).toBe(409)
    expect(again.json).toMatchObject({ code: 'approval.decided', state: 'applied', decided_at: clock.toISOString(), decided_by: APPROVER })
    expect(again.json.detail).toMatch(/already decided by approver@acme\.example on \d{4}-\d\d-\d\d \d\d:\d\d UTC; it is applied now/)
    const reopened = await platform.call('GET', `/approvals/${id}?token=${approval}`)
    expect(reopened.status).toBe(409)
    expect(reopened.json).toMatchObject({ code: 'approval.decided', state: 'applied', decided_at: clock.toISOString() })
    const other = (await smtp.waitFor((m) => m.envelopeTo.includes('second@acme.example') && (m.text ?? '').includes(id), 30_000)).text ?? ''
    const otherToken = new URL(/http:\/\/portal\.test\/approvals\/\S+/.exec(other)![0]).searchParams.get('token')
    expect((await platform.call('GET', `/approvals/${id}?token=${otherToken}`)).json).toMatchObject({ status: 409, code: 'approval.decided', state: 'applied' })
    // A token that never belonged to the request is still a plain 404 that shows nothing.
    expect((await platform.call('GET', `/approvals/${id}?token=${'y'.repeat(43)}`)).json).not.toHaveProperty('state')

    const trail = await platform.db.selectFrom('audit_entries').select(['entity_type', 'action', 'actor_label']).where('entity_id', 'in', [id, domain.id]).orderBy('created_at').execute()
    expect(trail.map((e) => `${e.entity_type}:${e.action}`)).toEqual(
      expect.arrayContaining(['domain:update', 'material-change-request:request', 'material-change-request:approve', 'domain:material-change-applied', 'material-change-request:apply']),
    )
    expect(trail.find((e) => e.action === 'approve')!.actor_label).toBe(`approver ${APPROVER}`)

    const detail = await platform.call('GET', `/groups/${acme}/material-change-requests/${id}`, { token })
    expect(detail.json).toMatchObject({ state: 'applied', approvers: [APPROVER, 'second@acme.example'] })
  }, 60_000)

  it('rejects with a comment and leaves the domain as it was', async () => {
    const domain = await materialDomain(1)
    const { id, token: approval } = await requestNameservers(domain.id, ['ns1.rejected.example'])
    const decided = await platform.call('POST', `/approvals/${id}`, { body: { token: approval, decision: 'reject', comment: 'Not agreed' } })
    expect(decided.json).toMatchObject({ state: 'rejected', comment: 'Not agreed' })
    expect((await platform.db.selectFrom('domains').select('nameservers').where('id', '=', domain.id).executeTakeFirstOrThrow()).nameservers).toEqual(domain.nameservers)
  }, 60_000)

  it('refuses up front a change on a registry-locked domain: no request, no mail, the lock named', async () => {
    const domain = await materialDomain(0, true)
    const requestsOf = () => platform.db.selectFrom('material_change_requests').select('id').where('domain_id', '=', domain.id).execute()
    const patched = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token, body: { version: domain.version, auto_renew: false, nameservers: ['ns1.locked.example'] } })
    expect(patched.status).toBe(409)
    expect(patched.json).toMatchObject({ code: 'domain.registry_locked', domain: domain.name })
    expect(patched.json.detail).toMatch(/registry lock on.*Turn the registry lock off first/)
    // Nothing of the PATCH applied, not even its auto-renew part.
    const row = await platform.db.selectFrom('domains').select(['auto_renew', 'version', 'nameservers']).where('id', '=', domain.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ version: domain.version, nameservers: domain.nameservers })

    // A bulk item: failed with the same sentence.
    const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'set_nameservers', ids: [domain.id], params: { nameservers: ['ns1.locked.example'] } } })
    const done = await vi.waitFor(
      async () => {
        const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${job.json.job_id}`, { token })
        expect(res.json.state).toBe('completed')
        return res.json
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(done.results[0]).toMatchObject({ ok: false, error: patched.json.detail })

    // And the service itself, whoever calls it.
    const scope = systemScope('test', acme)
    await expect(
      change(platform.db, scope, (tx) => createMaterialChangeRequest(tx, scope, { domainId: domain.id, change: { nameservers: ['ns1.locked.example'] } }, platform.deps)),
    ).rejects.toMatchObject({
      status: 409,
      code: 'domain.registry_locked',
    })
    // No request, so no mail job: nobody is asked to approve what the registry would refuse.
    expect(await requestsOf()).toEqual([])
    expect(smtp.messages.filter((m) => (m.subject ?? '').includes(domain.name))).toEqual([])
  }, 60_000)

  it('expires after 7 days: the link can no longer decide', async () => {
    const domain = await materialDomain(2)
    // The domains core calls this from its PATCH, inside its own transaction.
    const scope = systemScope('test', acme)
    const { id } = await change(platform.db, scope, (tx) => createMaterialChangeRequest(tx, scope, { domainId: domain.id, change: { nameservers: ['ns.late.example'] } }, platform.deps))
    const mail = await smtp.waitFor((m) => (m.text ?? '').includes(id), 30_000)
    const approval = new URL(/http:\/\/portal\.test\/approvals\/\S+/.exec(mail.text ?? '')![0]).searchParams.get('token')!
    clock = new Date(clock.getTime() + 7 * 24 * 3600 * 1000 + 1000)
    expect(await expireRequests(platform.db, clock)).toBe(1)
    const view = await platform.call('GET', `/approvals/${id}?token=${approval}`)
    expect(view.json.state).toBe('expired')
    const refused = await platform.call('POST', `/approvals/${id}`, { body: { token: approval, decision: 'approve', comment: '' } })
    expect(refused.status).toBe(409)
    expect((await platform.db.selectFrom('domains').select('nameservers').where('id', '=', domain.id).executeTakeFirstOrThrow()).nameservers).toEqual(domain.nameservers)
    // The clock moved past the access token's life too: sign in again.
    token = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
    const list = await platform.call('GET', `/groups/${acme}/material-change-requests?pql=${encodeURIComponent("state equals 'expired'")}`, { token })
    expect(list.json.data.map((r: { id: string }) => r.id)).toContain(id)
  }, 60_000)

  it('needs approvers and domain-admin to mark domains', async () => {
    const viewer = (await platform.call('POST', '/login', { body: { username: 'viewer@acme.example', password: DEMO_PASSWORD } })).json.access_token
    expect((await platform.call('PUT', `/groups/${acme}/material-approvers`, { token: viewer, body: { emails: [] } })).status).toBe(403)
    expect((await platform.call('PUT', `/groups/${acme}/material-approvers`, { token, body: { emails: ['not-an-address'] } })).status).toBe(400)
  })
})

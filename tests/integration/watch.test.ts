import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailMessage } from '#server/integrations/mail/mailer.ts'
import { powerDnsInstalled } from '#server/integrations/powerdns/local-server.ts'
import { createBrand } from '#server/platform/brand/service.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { sendReminders } from '#server/platform/watch/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { liveZone } from '#tests/support/zones.ts'

// Watch (issue 31): a watch over a brand finds its lookalikes registered by a stranger through our
// PowerDNS, rates and clusters them with their evidence; a case goes through its steps, URS is
// refused for .com, the notice is mailed once, the reminder once; brand-viewer reads and cannot
// change, another account's watch and case are 404.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let pdns: PowerDnsServer | undefined
const mails: MailMessage[] = []
const tokens: Record<string, string> = {}
let acmeId: string
let globexId: string

const call = (method: string, path: string, token: string, body?: unknown) => platform.call(method, path, { token, ...(body === undefined ? {} : { body }) })

describe.skipIf(!powerDnsInstalled())('watch', () => {
  beforeAll(async () => {
    pdns = await startPowerDns()
    platform = await createTestPlatform(
      { powerdns: pdns.settings, outbound: createOutbound({ resolver: [`127.0.0.1:${pdns.dnsPort}`] }), mailer: { send: async (m) => void mails.push(m) } },
      { seed: { domainsPerAccount: [1, 1] } },
    )
    await platform.deps.jobs.start({ work: true })
    acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
    globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
    await createUser(platform.db, systemScope('test', acmeId), { account_id: acmeId, email: 'watch-viewer@acme.example', name: 'Wes Viewer', password: DEMO_PASSWORD, roles: ['brand-viewer'] })
    await createUser(platform.db, systemScope('test', acmeId), { account_id: acmeId, email: 'watch-manager@acme.example', name: 'Wyn Manager', password: DEMO_PASSWORD, roles: ['brand-manager'] })
    await createUser(platform.db, systemScope('test', globexId), { account_id: globexId, email: 'watch@globex.example', name: 'Gus Watch', password: DEMO_PASSWORD, roles: ['brand-admin'] })
    for (const [key, username] of Object.entries({
      viewer: 'watch-viewer@acme.example',
      manager: 'watch-manager@acme.example',
      globex: 'watch@globex.example',
      globexAdmin: 'admin@globex.example',
      staff: 'staff@example.com',
    })) {
      const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
      tokens[key] = res.json.access_token
    }
    // A stranger (Globex) hosts two omissions of the brand on one address, one with mail.
    for (const [name, mx] of [
      ['wtchame.com', true],
      ['wtchace.com', false],
    ] as const) {
      const zone = await liveZone(platform.call, globexId, tokens.globexAdmin!, tokens.staff!, name)
      const changes = [{ action: 'add', name: '@', type: 'A', content: '192.0.2.80' }, ...(mx ? [{ action: 'add', name: '@', type: 'MX', content: `10 mail.${name}.` }] : [])]
      expect((await call('POST', `/groups/${globexId}/zones/${zone.json.id}/changes`, tokens.globexAdmin!, { changes })).status).toBe(200)
    }
    const resolver = platform.deps.outbound!
    // Both served (each zone is its own publish job) before the tests run.
    const served = async () => (await resolver.resolveRecords('wtchame.com', 'MX').catch(() => [])).length > 0 && (await resolver.resolveRecords('wtchace.com', 'A').catch(() => [])).length > 0
    for (let i = 0; i < 200 && !(await served()); i++) await new Promise((r) => setTimeout(r, 100))
  })
  afterAll(async () => {
    await platform?.close()
    await pdns?.stop()
  })

  it('detects, rates, clusters and keeps evidence; carries a case to its notice, once; tenancy and roles hold', async () => {
    const brand = await createBrand(platform.deps, systemScope('test', acmeId), { label: 'wtchacme', domains: ['wtchacme.com'], fuzzers: ['omission'] })
    const base = `/groups/${acmeId}`
    // A viewer cannot add a watch; a manager can.
    expect((await call('POST', `${base}/watches`, tokens.viewer!, { name: 'W', brand_id: brand.id })).status).toBe(403)
    const created = await call('POST', `${base}/watches`, tokens.manager!, { name: 'Wtchacme', brand_id: brand.id, min_similarity: 50 })
    expect(created.status, created.text).toBe(201)
    const watchId = created.json.id as string
    expect((await call('POST', `${base}/watches/${watchId}/contacts`, tokens.manager!, { email: 'brand-team@acme.example', language: 'es' })).status).toBe(201)

    // Another account's user: 404 on the watch, its run, its lists' rows.
    expect((await call('GET', `/groups/${globexId}/watches/${watchId}`, tokens.globex!)).status).toBe(404)
    expect((await call('POST', `/groups/${globexId}/watches/${watchId}/run`, tokens.globex!)).status).toBe(404)
    expect((await call('GET', `${base}/watches/${watchId}`, tokens.globex!)).status).toBe(404)

    expect((await call('POST', `${base}/watches/${watchId}/run`, tokens.viewer!)).status).toBe(403)
    const run = await call('POST', `${base}/watches/${watchId}/run`, tokens.manager!)
    expect(run.status, run.text).toBe(200)
    expect(run.json.fresh.sort()).toEqual(['wtchace.com', 'wtchame.com'])
    // The contacts are told, in their language.
    expect(mails.filter((m) => m.to === 'brand-team@acme.example').map((m) => m.subject)).toEqual(['Vigilancia Wtchacme: 2 dominios similares nuevos o cambiados'])
    // Nothing changed: a second run tells nobody.
    const again = await call('POST', `${base}/watches/${watchId}/run`, tokens.manager!)
    expect(again.json).toMatchObject({ found: 2, new: 0, changed: 0 })
    expect(mails).toHaveLength(1)

    const list = await call('GET', `${base}/watch-detections?pql=${encodeURIComponent(`watch_id equals '${watchId}'`)}`, tokens.viewer!)
    expect(list.status).toBe(200)
    const byName = Object.fromEntries(list.json.data.map((d: { name: string }) => [d.name, d]))
    expect(byName['wtchame.com']).toMatchObject({ risk: 'high', mail_ready: true, cluster: 'wtchace.com', cluster_size: 2 })
    expect(byName['wtchace.com']).toMatchObject({ risk: 'low', mail_ready: false, cluster: 'wtchace.com' })
    const detection = await call('GET', `${base}/watch-detections/${byName['wtchame.com'].id}`, tokens.viewer!)
    expect(detection.json.reasons.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['similarity', 'mail-ready']))
    const dns = detection.json.evidence.find((e: { kind: string }) => e.kind === 'dns')
    expect(dns.data).toMatchObject({ a: ['192.0.2.80'], mx: ['10 mail.wtchame.com'] })
    // Evidence is immutable: the database refuses a change.
    await expect(platform.db.updateTable('watch_evidence').set({ sha256: 'x' }).where('id', '=', dns.id).execute()).rejects.toThrow(/immutable/)

    // A case over the cluster.
    expect((await call('POST', `${base}/watch-detections/${byName['wtchame.com'].id}/case`, tokens.viewer!, { cluster: true })).status).toBe(403)
    const opened = await call('POST', `${base}/watch-detections/${byName['wtchame.com'].id}/case`, tokens.manager!, { cluster: true })
    expect(opened.status, opened.text).toBe(201)
    const caseId = opened.json.id as string
    expect(opened.json).toMatchObject({ state: 'new', names: ['wtchame.com', 'wtchace.com'] })
    expect((await call('GET', `/groups/${globexId}/watch-cases/${caseId}`, tokens.globex!)).status).toBe(404)
    const step = (body: Record<string, unknown>, token = tokens.manager!) => call('POST', `${base}/watch-cases/${caseId}/steps`, token, body)
    const early = await step({ version: 1, to: 'action', action: 'notice-sent' })
    expect(early.json.errors[0].code).toBe('watch.triage-first')
    expect((await step({ version: 1, to: 'triaged', triage: 'high' }, tokens.viewer!)).status).toBe(403)
    expect((await step({ version: 1, to: 'triaged', triage: 'high', note: 'mail-ready twin' })).json).toMatchObject({ state: 'triaged', triage: 'high', version: 2 })
    const urs = await step({ version: 2, to: 'action', action: 'urs' })
    expect(urs.json.errors[0]).toMatchObject({ field: 'action', code: 'watch.urs-not-applicable' })
    // The notice, to the abuse contact (RDAP's when it has one, else given), in the language asked.
    const noticed = await step({ version: 2, to: 'action', action: 'notice-sent', notice_to: 'abuse@rival.example', language: 'en' })
    expect(noticed.status, noticed.text).toBe(200)
    expect(noticed.json).toMatchObject({ state: 'action', action: 'notice-sent', notice_to: 'abuse@rival.example', notice_sent_at: expect.any(String) })
    const notices = mails.filter((m) => m.to === 'abuse@rival.example')
    expect(notices).toHaveLength(1)
    expect(notices[0]!.subject).toBe('Abuse report: wtchame.com imitates the brand wtchacme')
    expect(notices[0]!.text).toContain('- wtchace.com')
    // Re-sent (a retried job, a second click): the send is idempotent by case and step.
    const { sendNotice } = await import('#server/platform/watch/service.ts')
    await sendNotice(platform.deps, systemScope('test', acmeId), caseId)
    expect(mails.filter((m) => m.to === 'abuse@rival.example')).toHaveLength(1)

    // The escalation reminder, 5 business days on, once.
    expect(await sendReminders(platform.deps)).toBe(0)
    await platform.db
      .updateTable('watch_cases')
      .set({ notice_sent_at: new Date(Date.now() - 8 * 86_400_000) })
      .where('id', '=', caseId)
      .execute()
    expect(await sendReminders(platform.deps)).toBe(1)
    expect(await sendReminders(platform.deps)).toBe(0)
    expect(mails.filter((m) => m.to === 'brand-team@acme.example').at(-1)!.subject).toBe('Sin respuesta: aviso de retirada de wtchame.com')

    const detail = await call('GET', `${base}/watch-cases/${caseId}`, tokens.viewer!)
    expect(detail.json.steps.map((s: { state: string; detail: string | null }) => `${s.state}:${s.detail ?? ''}`)).toEqual(['new:', 'triaged:high', 'action:notice-sent'])
    expect(detail.json.steps[1]).toMatchObject({ note: 'mail-ready twin', actor_label: 'watch-manager@acme.example' })
    expect(detail.json.urs).toBe(false)
    expect(detail.json.deadlines.map((d: { key: string }) => d.key)).toEqual(['escalation'])
    const resolved = await step({ version: 3, to: 'resolved', resolution: 'taken-down' })
    expect(resolved.json).toMatchObject({ state: 'resolved', resolution: 'taken-down' })
    const overview = await call('GET', `${base}/watch-overview`, tokens.viewer!)
    expect(overview.json).toMatchObject({ taken_down: 1, states: { resolved: 1 } })
    // Every step is in the audit trail under watch.
    const audit = await platform.db.selectFrom('audit_entries').select(['action']).where('area', '=', 'watch').where('entity_id', '=', caseId).execute()
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'step', 'step', 'step'])
  })

  it('finds our own name hijacked (delegated to nameservers we do not run while its zone is ours) and lapsed', async () => {
    const own = await platform.db.selectFrom('domains').select(['id', 'name']).where('account_id', '=', acmeId).where('status', '=', 'active').orderBy('name').executeTakeFirstOrThrow()
    const admin = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token as string
    const base = `/groups/${acmeId}`
    const zone = await call('POST', `${base}/zones`, admin, { domain_id: own.id })
    expect(zone.status, zone.text).toBe(201)
    await platform.db
      .updateTable('domains')
      .set({ expires_at: new Date(Date.now() + 300 * 86_400_000), auto_renew: true })
      .where('id', '=', own.id)
      .execute()
    const brand = await createBrand(platform.deps, systemScope('test', acmeId), { label: 'wtchown', domains: [own.name], fuzzers: ['omission'] })
    const watchId = (await call('POST', `${base}/watches`, tokens.manager!, { name: 'Own names', brand_id: brand.id })).json.id as string
    const run = () => call('POST', `${base}/watches/${watchId}/run`, tokens.manager!)
    const detection = async () => {
      const list = await call('GET', `${base}/watch-detections?pql=${encodeURIComponent(`watch_id equals '${watchId}'`)}`, tokens.viewer!)
      return list.json.data.find((d: { name: string }) => d.name === own.name) as { id: string; risk: string; fuzzers: string[] } | undefined
    }
    const reasons = async (id: string) =>
      (await call('GET', `${base}/watch-detections/${id}`, tokens.viewer!)).json.reasons.map((r: { code: string; detail?: string }) => `${r.code}:${r.detail ?? ''}`)
    // Served by our nameservers, renewed: nothing to say.
    expect((await run()).json.fresh).toEqual([])
    expect(await detection()).toBeUndefined()

    // The registry now delegates it elsewhere, which no change of ours explains: a critical detection.
    const served = await platform.db.selectFrom('dns_records').select('content').where('zone_id', '=', zone.json.id).where('type', '=', 'NS').execute()
    await platform.db
      .updateTable('domains')
      .set({ nameservers: [served[0]!.content, 'ns.hijack.example'] })
      .where('id', '=', own.id)
      .execute()
    expect((await run()).json.fresh).toEqual([own.name])
    const hijack = (await detection())!
    expect(hijack).toMatchObject({ risk: 'critical', fuzzers: ['own-name'] })
    expect(await reasons(hijack.id)).toEqual(['own-nameservers:ns.hijack.example'])

    // It also lapses (expired, nobody renewed it): the same detection, changed, told again.
    const lapsed = new Date(Date.now() - 2 * 86_400_000)
    await platform.db.updateTable('domains').set({ expires_at: lapsed, auto_renew: false }).where('id', '=', own.id).execute()
    expect((await run()).json).toMatchObject({ new: 0, changed: 1 })
    expect(await reasons(hijack.id)).toEqual(['own-nameservers:ns.hijack.example', `own-lapsed:${lapsed.toISOString().slice(0, 10)}`])
  })
})

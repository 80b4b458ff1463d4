import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { acceptInvite } from '#server/platform/users/service.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
// A real SMTP server on a free loopback port captures the invitation mails.
const mails: { to: string; text: string }[] = []
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', async () => {
      const parsed = await PostalMime.parse(Buffer.concat(chunks))
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: parsed.text ?? '' })
      callback()
    })
  },
})
let acme: string
let registrar: string

async function login(email: string, password = DEMO_PASSWORD) {
  const res = await platform.call('POST', '/login', { body: { username: email, password } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject)
    smtp.listen(0, '127.0.0.1', resolve)
  })
  const { port } = smtp.server.address() as AddressInfo
  platform = await createTestPlatform({ config: { ...TEST_CONFIG, SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: 'http://portal.test' } }, { seed: { domainsPerAccount: [3, 3] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  registrar = (await platform.db.selectFrom('accounts').select('id').where('is_registrar', '=', true).executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await platform?.close()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

const userId = async (email: string) => (await platform.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
const pql = (text: string) => `pql=${encodeURIComponent(text)}`

describe('users', () => {
  it('lists and filters users by role, status, two-factor and last sign-in', async () => {
    const admin = await login('admin@acme.example')
    const all = await platform.call('GET', `/groups/${acme}/users?sort=email`, { token: admin })
    expect(all.status).toBe(200)
    expect(all.json.data.map((u: { email: string }) => u.email)).toEqual(['admin@acme.example', 'viewer@acme.example'])
    const admins = await platform.call('GET', `/groups/${acme}/users?${pql("roles equals 'user-admin'")}`, { token: admin })
    expect(admins.json.data.map((u: { email: string }) => u.email)).toEqual(['admin@acme.example'])
    const signedIn = await platform.call('GET', `/groups/${acme}/users?${pql(`last_sign_in_at greater_than '2020-01-01' and two_factor equals 'false' and status equals 'active'`)}`, { token: admin })
    expect(signedIn.json.data.map((u: { email: string }) => u.email)).toEqual(['admin@acme.example'])

    const staff = await login('staff@example.com')
    const everyone = await platform.call('GET', `/groups/${registrar}/users?${pql(`group_id equals '${acme}'`)}&fields=email,account.name`, { token: staff })
    expect(everyone.json.data).toEqual([
      { email: 'admin@acme.example', account: { name: 'Acme Corp' } },
      { email: 'viewer@acme.example', account: { name: 'Acme Corp' } },
    ])
  })

  it('shows a user with what each role grants', async () => {
    const admin = await login('admin@acme.example')
    const res = await platform.call('GET', `/groups/${acme}/users/${await userId('admin@acme.example')}`, { token: admin })
    expect(res.status).toBe(200)
    expect(res.json.role_grants['user-admin']).toEqual(['user-manager', 'user-viewer'])
    expect(res.json.permissions).toEqual(expect.arrayContaining(['contact-manager', 'domain-viewer']))
    expect(res.json).toMatchObject({ two_factor: false, invited: false, account: { id: acme, name: 'Acme Corp' } })
    expect(res.json).not.toHaveProperty('password_hash')
  })

  it('invites by email with a set-password link that works once', async () => {
    const admin = await login('admin@acme.example')
    const res = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'New.Person@Acme.example', name: 'New Person', roles: ['domain-viewer'] } })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ email: 'new.person@acme.example', invited: true, group_id: acme, roles: ['domain-viewer'] })
    const mail = mails.find((m) => m.to === 'new.person@acme.example')
    expect(mail).toBeDefined()
    const link = /http:\/\/portal\.test\/invitations\/(\S+)/.exec(mail!.text)
    expect(link).not.toBeNull()
    const token = decodeURIComponent(link![1]!)
    expect((await platform.call('GET', `/user_invites/${encodeURIComponent(token)}`)).json).toEqual({ email: 'new.person@acme.example', name: 'New Person' })
    const weak = await platform.call('PUT', `/user_invites/${encodeURIComponent(token)}`, { body: { password: 'short' } })
    expect(weak.status).toBe(400)
    expect(weak.json.errors[0]).toMatchObject({ field: 'password', code: 'password.too_short' })
    const accepted = await platform.call('PUT', `/user_invites/${encodeURIComponent(token)}`, { body: { password: 'a long enough passphrase 42' } })
    expect(accepted.status).toBe(204)
    await login('new.person@acme.example', 'a long enough passphrase 42')
    expect((await platform.call('PUT', `/user_invites/${encodeURIComponent(token)}`, { body: { password: 'another passphrase 43' } })).status).toBe(404)
    await expect(acceptInvite(platform.db, token, 'another passphrase 43')).rejects.toMatchObject({ status: 404 })
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?${pql(`area equals 'users' and entity_id equals '${res.json.id}'`)}&sort=created_at`, { token: admin })
    expect(log.json.data.map((e: { action: string }) => e.action)).toEqual(['invite', 'accept-invite'])
    // Only staff hand out the staff permission.
    const escalate = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'mallory@acme.example', name: 'M', roles: ['staff'] } })
    expect(escalate.status).toBe(400)
    expect(escalate.json.errors[0]).toMatchObject({ field: 'roles.0', code: 'permission.not_grantable' })
  })

  it('refuses an invitation without a role or with an unknown role, inviting nobody (issue 28, item 7)', async () => {
    const admin = await login('admin@acme.example')
    const none = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'nobody@acme.example', name: 'No Role', roles: [] } })
    expect(none.status).toBe(400)
    expect(none.json.code).toBe('user.roles_required')
    expect(none.json.errors).toContainEqual(expect.objectContaining({ field: 'roles', code: 'user.roles_required' }))
    const unknown = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'nobody@acme.example', name: 'No Role', roles: ['domain-viewer', 'wizard-admin'] } })
    expect(unknown.status).toBe(400)
    expect(unknown.json.errors).toContainEqual(expect.objectContaining({ field: 'roles.1', code: 'user.role_unknown' }))
    // The names the registry decided against (decision 025) are unknown too, and so is an ability outside it.
    const decidedAgainst = await platform.call('POST', `/groups/${acme}/users`, {
      token: admin,
      body: { email: 'nobody@acme.example', name: 'No Role', roles: ['watch-viewer', 'report-viewer', 'intelligence-viewer'], abilities: ['view-report-schedules', 'manage-everything'] },
    })
    expect(decidedAgainst.status).toBe(400)
    expect(decidedAgainst.json.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`)).toEqual([
      'roles.0 user.role_unknown',
      'roles.1 user.role_unknown',
      'roles.2 user.role_unknown',
      'abilities.1 user.ability_unknown',
    ])
    const found = await platform.call('GET', `/groups/${acme}/users?${pql(`email equals 'nobody@acme.example'`)}`, { token: admin })
    expect(found.json.data).toEqual([])
  })

  it("lets an account's admin grant the brand roles (watch, brand protection) but not the prospect ones, which staff grant and keep (decision 025)", async () => {
    const admin = await login('admin@acme.example')
    const brand = await platform.call('POST', `/groups/${acme}/users`, {
      token: admin,
      body: { email: 'watcher@acme.example', name: 'Watcher', roles: ['brand-manager'], abilities: ['manage-report-schedules'] },
    })
    expect(brand.status).toBe(201)
    const watcher = await platform.call('GET', `/groups/${acme}/users/${brand.json.id}`, { token: admin })
    expect(watcher.json).toMatchObject({ role_grants: { 'brand-manager': ['brand-viewer'] }, ability_grants: { 'manage-report-schedules': ['view-report-schedules'] } })
    expect(watcher.json.permissions).toEqual(['brand-manager', 'brand-viewer', 'manage-report-schedules', 'view-report-schedules'])

    const prospect = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'seller@acme.example', name: 'Seller', roles: ['domain-viewer', 'prospect-viewer'] } })
    expect(prospect.status).toBe(400)
    expect(prospect.json.errors).toContainEqual(expect.objectContaining({ field: 'roles.1', code: 'permission.not_grantable' }))
    const staff = await login('staff@example.com')
    const seller = await platform.call('POST', `/groups/${acme}/users`, { token: staff, body: { email: 'seller@acme.example', name: 'Seller', roles: ['domain-viewer', 'prospect-viewer'] } })
    expect(seller.status).toBe(201)
    // The account's admin changes the seller's other roles: the prospect role stays, it is staff's to take away.
    const edited = await platform.call('PATCH', `/groups/${acme}/users/${seller.json.id}`, { token: admin, body: { roles: ['dns-viewer'], version: seller.json.version } })
    expect(edited.status).toBe(200)
    expect(edited.json.roles).toEqual(['dns-viewer', 'prospect-viewer'])
    const added = await platform.call('PATCH', `/groups/${acme}/users/${brand.json.id}`, { token: admin, body: { roles: ['brand-manager', 'prospect-admin'], version: watcher.json.version } })
    expect(added.status).toBe(400)
    expect(added.json.errors).toContainEqual(expect.objectContaining({ field: 'roles.1', code: 'permission.not_grantable' }))
    const removed = await platform.call('PATCH', `/groups/${acme}/users/${seller.json.id}`, { token: staff, body: { roles: ['dns-viewer'], version: edited.json.version } })
    expect(removed.json.roles).toEqual(['dns-viewer'])
  })

  it('lists a pending invitation as invited, and as active once accepted (issue 28, item 7)', async () => {
    const admin = await login('admin@acme.example')
    const res = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'pending@acme.example', name: 'Pending', roles: ['dns-viewer'] } })
    expect(res.status).toBe(201)
    const statusOf = async () => (await platform.call('GET', `/groups/${acme}/users?${pql(`email equals 'pending@acme.example'`)}`, { token: admin })).json.data[0]?.status
    expect(await statusOf()).toBe('invited')
    const invitedOnes = await platform.call('GET', `/groups/${acme}/users?${pql(`status equals 'invited'`)}`, { token: admin })
    expect(invitedOnes.json.data.map((u: { email: string }) => u.email)).toContain('pending@acme.example')
    expect(invitedOnes.json.data.every((u: { status: string }) => u.status === 'invited')).toBe(true)
    const active = await platform.call('GET', `/groups/${acme}/users?${pql(`status equals 'active'`)}`, { token: admin })
    expect(active.json.data.map((u: { email: string }) => u.email)).not.toContain('pending@acme.example')
    const mail = mails.find((m) => m.to === 'pending@acme.example')
    const token = decodeURIComponent(/http:\/\/portal\.test\/invitations\/(\S+)/.exec(mail!.text)![1]!)
    expect((await platform.call('PUT', `/user_invites/${encodeURIComponent(token)}`, { body: { password: 'a long enough passphrase 42' } })).status).toBe(204)
    expect(await statusOf()).toBe('active')
  })

  it('edits roles with optimistic concurrency, keeps an admin, disables and enables', async () => {
    const admin = await login('admin@acme.example')
    const invited = await platform.call('POST', `/groups/${acme}/users`, { token: admin, body: { email: 'second.admin@acme.example', name: 'Second', roles: ['domain-viewer'] } })
    const id = invited.json.id as string
    const promoted = await platform.call('PATCH', `/groups/${acme}/users/${id}`, { token: admin, body: { roles: ['user-admin'], name: 'Second Admin', version: invited.json.version } })
    expect(promoted.status).toBe(200)
    expect(promoted.json).toMatchObject({ roles: ['user-admin'], name: 'Second Admin', role_grants: { 'user-admin': ['user-manager', 'user-viewer'] } })
    const stale = await platform.call('PATCH', `/groups/${acme}/users/${id}`, { token: admin, body: { name: 'Again', version: invited.json.version } })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('version.conflict')

    const disabled = await platform.call('POST', `/groups/${acme}/users/${id}/disable`, { token: admin })
    expect(disabled.status).toBe(200)
    expect(disabled.json.status).toBe('disabled')
    // With the second admin disabled, Ada is the last one again: staff cannot demote her.
    const staff = await login('staff@example.com')
    const ada = await platform.call('GET', `/groups/${acme}/users/${await userId('admin@acme.example')}`, { token: staff })
    const demote = await platform.call('PATCH', `/groups/${acme}/users/${ada.json.id}`, { token: staff, body: { roles: ['domain-admin'], version: ada.json.version } })
    expect(demote.status).toBe(409)
    expect(demote.json).toMatchObject({ code: 'user.last_admin', errors: [{ field: 'roles', code: 'user.last_admin' }] })
    const enabled = await platform.call('POST', `/groups/${acme}/users/${id}/enable`, { token: admin })
    expect(enabled.json.status).toBe('active')
    const nowAllowed = await platform.call('PATCH', `/groups/${acme}/users/${ada.json.id}`, {
      token: staff,
      body: { roles: [...ada.json.roles.filter((r: string) => r !== 'user-admin')], version: ada.json.version },
    })
    expect(nowAllowed.status).toBe(200)
  })

  it('ends all sessions of a user and resets their second factor', async () => {
    const staff = await login('staff@example.com')
    const viewer = await login('viewer@acme.example')
    expect((await platform.call('GET', '/me', { token: viewer })).status).toBe(200)
    const id = await userId('viewer@acme.example')
    const ended = await platform.call('POST', `/groups/${acme}/users/${id}/end-sessions`, { token: staff })
    expect(ended.status).toBe(200)
    expect((await platform.call('GET', '/me', { token: viewer })).status).toBe(401)

    await sql`INSERT INTO user_two_factor (user_id, secret, enabled_at) VALUES (${id}, 'JBSWY3DPEHPK3PXP', now())`.execute(platform.db)
    const on = await platform.call('GET', `/groups/${acme}/users?${pql("two_factor equals 'true'")}`, { token: staff })
    expect(on.json.data.map((u: { id: string }) => u.id)).toEqual([id])
    const reset = await platform.call('POST', `/groups/${acme}/users/${id}/reset-two-factor`, { token: staff })
    expect(reset.status).toBe(200)
    expect(reset.json.two_factor).toBe(false)
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?${pql(`entity_id equals '${id}'`)}&sort=created_at`, { token: staff })
    expect(log.json.data.map((e: { action: string }) => e.action)).toEqual(['create', 'end-sessions', 'reset-two-factor'])
  })
})

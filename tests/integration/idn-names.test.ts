import punycode from 'punycode/punycode.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RegistryError, type RegistryConnection } from '#server/integrations/registry/index.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Issue 26 item 11: `x\u202e.com` (a right-to-left override) was registered and active; zero-width
// joiners, full-width forms and mixed scripts were accepted. The order path refuses them beside the
// name with a code the portal says in the user's language, maps full-width forms, keeps each TLD to
// its scripts (its catalogue entry, else the default), and the local registry refuses them as its
// own rule (2005 for a label that is not valid IDNA2008, 2306 for a script the TLD does not take).

const US = { id: 'registrar-portal', password: 'portal-secret-1' }
const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const YEARS = { createYears: TEN, renewYears: TEN, transferYears: [1] }

let local: LocalRegistryConnection
let ours: RegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let staff: string
let acmeId: string

beforeAll(async () => {
  local = await localRegistryConnection({ client: US, policy: { tlds: { com: YEARS, net: { ...YEARS, scripts: ['Latn', 'Arab'] }, jp: YEARS }, addGraceDays: 0 }, sessions: 1 })
  ours = local.connection
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: false })
  const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })).json.access_token as string
  admin = await login('admin@acme.example')
  staff = await login('staff@example.com')
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await platform?.close()
  await local?.close()
})

const addToCart = (name: string) => platform.call('POST', `/groups/${acmeId}/cart/items`, { token: admin, body: { type: 'register', name, period: 1 } })

describe('the order path', () => {
  it.each([
    ['a right-to-left override', 'x\u202e.com', 'label-invisible'],
    ['a zero-width joiner', 'idn\u200dtest.com', 'label-invisible'],
    ['a zero-width space', 'idn\u200btest.com', 'label-invisible'],
    ['Latin mixed with a Cyrillic look-alike', 'p\u0430ypal-idn.com', 'label-mixed-scripts'],
    ['a symbol', 'i\u2665idn.com', 'label-characters'],
    ['a middle dot outside l·l', 'a\u00b7b.com', 'label-context'],
    ['an A-label standing for a right-to-left override', `xn--${punycode.encode('x\u202e')}.com`, 'label-invisible'],
    ['Arabic in .com (Latin only by default)', '\u0645\u062b\u0627\u0644.com', 'label-script'],
  ])('refuses %s beside the name, with its code', async (_, name, code) => {
    const res = await addToCart(name)
    expect(res.status, res.text).toBe(400)
    expect(res.json).toMatchObject({ reason: 'invalid-name', name_error: code, errors: [{ field: 'name' }] })
  })

  it('maps full-width forms (UTS #46) and registers the mapped name', async () => {
    const res = await addToCart('ｉｄｎ-ｆｕｌｌｗｉｄｔｈ.com')
    expect(res.status, res.text).toBe(201)
    expect(res.json).toMatchObject({ name: 'idn-fullwidth.com', unicode_name: 'idn-fullwidth.com' })
  })

  it('takes a script once the TLD catalogue entry says so (the registry takes it too), and a Japanese name under .jp by default', async () => {
    const arabic = '\u0645\u062b\u0627\u0644\u0627\u062a.net'
    expect((await addToCart(arabic)).json).toMatchObject({ name_error: 'label-script' })
    const net = await platform.call('GET', '/tlds/net', { token: staff })
    expect(net.json.idn_scripts).toBeNull()
    const patched = await platform.call('PATCH', `/tlds/${net.json.id}`, { token: staff, body: { idn_scripts: ['Latn', 'Arab'], version: net.json.version } })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.json.idn_scripts).toEqual(['Latn', 'Arab'])
    const added = await addToCart(arabic)
    expect(added.status, added.text).toBe(201)
    expect(added.json.name).toBe(`xn--${punycode.encode('\u0645\u062b\u0627\u0644\u0627\u062a')}.net`)
    // Mixed scripts stay refused whatever the TLD takes.
    expect((await addToCart('\u0645\u062b\u0627\u0644abc.net')).json).toMatchObject({ name_error: expect.stringMatching(/^label-(bidi|mixed-scripts)$/) })
    const bad = await platform.call('PATCH', `/tlds/${net.json.id}`, { token: staff, body: { idn_scripts: ['Klingon'], version: patched.json.version } })
    expect(bad.status).toBe(400)
    const japanese = await addToCart('ドメイン-idn.jp')
    expect(japanese.status, japanese.text).toBe(201)
  })

  it('refuses the same names on the availability check and a transfer', async () => {
    const res = await platform.call('POST', `/groups/${acmeId}/cart/items`, { token: admin, body: { type: 'transfer', name: 'x\u202e.com', period: 1, auth_code: 'secret-A1x' } })
    expect(res.json).toMatchObject({ name_error: 'label-invisible' })
  })
})

describe('the local registry, as its own rule', () => {
  const ascii = (unicode: string) => `xn--${punycode.encode(unicode)}`

  it('answers a check of an invalid IDN label unavailable, and refuses its create with 2005', async () => {
    for (const label of [ascii('x\u202e'), ascii('ab\u200dc'), ascii('p\u0430ypal')]) {
      const [check] = await ours.checkDomains([`${label}.com`])
      expect(check, label).toMatchObject({ available: false, reason: expect.stringMatching(/Invalid IDN label/) })
      const refused = await ours.createDomain({ name: `${label}.com`, years: 1, authInfo: 'secret-A1x' }).catch((error: unknown) => error)
      expect(refused, label).toBeInstanceOf(RegistryError)
      expect((refused as RegistryError).code, label).toBe(2005)
    }
  })

  it('refuses a label in a script the TLD does not take with 2306, and takes one it does', async () => {
    const arabic = `${ascii('\u0645\u062b\u0627\u0644')}.com`
    expect((await ours.checkDomains([arabic]))[0]).toMatchObject({ available: false })
    const refused = await ours.createDomain({ name: arabic, years: 1, authInfo: 'secret-A1x' }).catch((error: unknown) => error)
    expect((refused as RegistryError).code).toBe(2306)
    const japanese = `${ascii('ドメイン')}.jp`
    expect((await ours.checkDomains([japanese]))[0]).toMatchObject({ available: true })
  })
})

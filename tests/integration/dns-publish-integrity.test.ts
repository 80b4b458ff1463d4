import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPowerDnsClient, type PdnsRrset } from '#server/integrations/powerdns/client.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { PATCH_RRSETS, publishZone } from '#server/platform/dns/publish.ts'
import { createZone, importZone } from '#server/platform/dns/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'

// Issue 26 item 10: a BIND import took an owner name PowerDNS refuses (`dotted\.label`), the
// publication then failed, and PowerDNS was left serving part of the change. Names are now checked
// as PowerDNS checks them, a refused publication leaves PowerDNS serving the last good zone, and a
// TTL under the floor (configuration) is raised with a warning on its line instead of refusing the file.

let pdns: PowerDnsServer
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let accountId: string
const PARENT = 'publish-integrity.test'

beforeAll(async () => {
  pdns = await startPowerDns()
  platform = await createTestPlatform({ powerdns: pdns.settings })
  // The TTL floor as DNS_TTL_MIN=120 sets it (server/main.ts: deps.dns.ttlMin).
  Object.assign(platform.deps, { dns: { ttlMin: 120 } })
  // Jobs are queued (publications) but not worked: the test publishes when it means to.
  await platform.deps.jobs.start({ work: false })
  accountId = (await platform.db.insertInto('accounts').values({ name: 'Publish integrity' }).returning('id').executeTakeFirstOrThrow()).id
  // The account's domain: its zones (names under it) are the account's to publish.
  await platform.db.insertInto('domains').values({ account_id: accountId, name: PARENT, unicode_name: PARENT, tld: 'test', status: 'active' }).execute()
})
afterAll(async () => {
  await platform?.close()
  await pdns?.stop()
})
afterEach(() => {
  PATCH_RRSETS.value = 10_000
})

const scope = () => systemScope('test', accountId)
const served = async (zone: string) => {
  const remote = await createPowerDnsClient(pdns.settings).getZone(zone)
  return (remote?.rrsets ?? [])
    .map(
      (r: PdnsRrset) =>
        `${r.name} ${r.ttl} ${r.type} ${r.records
          .map((x) => x.content)
          .sort()
          .join(',')}`,
    )
    .filter((line) => !/ SOA /.test(line))
    .sort()
}
const zoneRow = (id: string) => platform.db.selectFrom('dns_zones').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('an owner name PowerDNS refuses', () => {
  it('is refused by the import on its line, preview and apply alike, and nothing is written', async () => {
    const zone = await createZone(platform.deps, scope(), { name: `owner-names.${PARENT}` })
    const records = () => platform.db.selectFrom('dns_records').select(['name', 'type', 'content']).where('zone_id', '=', zone.id).orderBy('name').orderBy('type').execute()
    const before = await records()
    const text = [`$ORIGIN owner-names.${PARENT}.`, '$TTL 300', 'www A 192.0.2.1', 'dotted\\.label A 192.0.2.2', 'sp\\032ace TXT "x"', 'ok A 192.0.2.3'].join('\n')
    for (const dry_run of [true, false]) {
      const result = await importZone(platform.deps, scope(), zone.id, [text], { dry_run })
      expect(result.applied).toBe(false)
      expect(result.errors.map((e) => [e.line, e.column, e.code])).toEqual([
        [4, 1, 'owner-characters'],
        [5, 1, 'owner-characters'],
      ])
      expect(result.errors[0]!.message).toMatch(/PowerDNS serves only letters, digits, hyphens, underscores and \/ in names/)
    }
    expect(await records()).toEqual(before)
  })

  it('is refused by the record editor beside the name', async () => {
    const zone = await createZone(platform.deps, scope(), { name: `editor-names.${PARENT}` })
    const { applyChangeSet } = await import('#server/platform/dns/service.ts')
    await expect(applyChangeSet(platform.deps, scope(), zone.id, { changes: [{ action: 'add', name: 'dotted\\.label', type: 'A', content: '192.0.2.1' }] })).rejects.toMatchObject({
      status: 400,
      errors: [{ field: 'changes.0.name' }],
    })
  })
})

describe('a publication PowerDNS refuses', () => {
  // A record PowerDNS refuses that got into our tables anyway (stored before names were checked
  // this way): the publication of a big change that holds it must not leave half of it served.
  async function refusedPublication(zoneName: string, rrsets: number) {
    const zone = await createZone(platform.deps, scope(), { name: zoneName })
    const good = ['$TTL 300', 'www A 192.0.2.1', 'mail A 192.0.2.2', 'old TXT "kept"'].join('\n')
    expect((await importZone(platform.deps, scope(), zone.id, [good])).applied).toBe(true)
    await publishZone(platform.deps, zone.id)
    expect(await zoneRow(zone.id)).toMatchObject({ publish_state: 'published', last_error: null })
    const before = await served(zoneName)
    expect(before).toContain(`www.${zoneName}. 300 A 192.0.2.1`)

    const lines = ['$TTL 300', 'www A 192.0.2.9']
    for (let i = 0; i < rrsets; i++) lines.push(`h${i} A 10.0.${i >> 8}.${i & 255}`)
    expect((await importZone(platform.deps, scope(), zone.id, [lines.join('\n')])).applied).toBe(true)
    // The legacy row, inserted after the import's so that it comes last.
    await platform.db
      .insertInto('dns_records')
      .values({ zone_id: zone.id, account_id: accountId, name: `dotted\\.label.${zoneName}`, type: 'A', ttl: 300, content: '192.0.2.66' })
      .execute()
    await sql`UPDATE dns_zones SET serial = serial + 1, publish_state = 'pending' WHERE id = ${zone.id}`.execute(platform.db)
    await publishZone(platform.deps, zone.id)
    const after = await zoneRow(zone.id)
    expect(after.publish_state).toBe('failed')
    expect(after.last_error).toMatch(/dotted\\\.label.*unsupported characters/)
    return { before, after: await served(zoneName) }
  }

  it('in one PATCH: PowerDNS goes on serving the last good zone', async () => {
    const { before, after } = await refusedPublication(`one-patch.${PARENT}`, 2100)
    expect(after).toEqual(before)
  })

  it('in several PATCHes (a change larger than one): the ones that went through are undone', async () => {
    PATCH_RRSETS.value = 500
    const { before, after } = await refusedPublication(`many-patches.${PARENT}`, 1200)
    expect(after).toEqual(before)
  })
})

describe('a TTL under the floor', () => {
  it('is raised to the configured floor with a warning on its line in the preview, and the file is applied', async () => {
    const zone = await createZone(platform.deps, scope(), { name: `ttl-floor.${PARENT}` })
    const text = [`$ORIGIN ttl-floor.${PARENT}.`, '$TTL 300', 'host 30 A 192.0.2.1', 'other A 192.0.2.2', 'slow 600 A 192.0.2.3'].join('\n')
    const preview = await importZone(platform.deps, scope(), zone.id, [text], { dry_run: true })
    expect(preview.errors).toEqual([])
    expect(preview.warnings).toMatchObject([{ line: 3, column: 6, code: 'ttl-raised', params: { given: 30, ttl: 120 } }])
    expect(preview.added.find((r) => r.name === `host.ttl-floor.${PARENT}`)).toMatchObject({ ttl: 120 })
    const applied = await importZone(platform.deps, scope(), zone.id, [text])
    expect(applied.applied).toBe(true)
    const rows = await platform.db.selectFrom('dns_records').select(['name', 'ttl']).where('zone_id', '=', zone.id).where('type', '=', 'A').orderBy('name').execute()
    expect(rows).toEqual([
      { name: `host.ttl-floor.${PARENT}`, ttl: 120 },
      { name: `other.ttl-floor.${PARENT}`, ttl: 300 },
      { name: `slow.ttl-floor.${PARENT}`, ttl: 600 },
    ])
  })
})

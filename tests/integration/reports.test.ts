import { sql } from 'kysely'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { i18nextMiddleware } from '#app/lib/i18n.server.ts'
import { loader as exportLoader } from '#app/routes/reports/export.ts'
import { loader as domainsLoader } from '#app/routes/reports/domains.tsx'
import { loader as printLoader } from '#app/routes/reports/print.tsx'
import { loader as indexLoader } from '#app/routes/reports/index.tsx'
import { loader as recordsLoader } from '#app/routes/reports/dns-records.tsx'
import { refreshZonePostures } from '#server/platform/dns/postures.ts'
import { loader as figuresLoader } from '#app/routes/reports/figures.tsx'
import { action as pulseAction, loader as pulseLoader } from '#app/routes/pulse.tsx'
import { action as subscriptionsAction } from '#app/routes/reports/subscriptions.ts'
import { defaultWidgets, PULSE_MAX } from '#common/pulse.ts'
import { printPql } from '#common/pql.ts'
import { activityFrom, DOMAIN_DIMENSIONS, domainFigureFilters, EXPIRY_BUCKETS, FIGURE_REPORTS, figureTarget, type FigureContext, type FigureReport } from '#common/reports.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import { portalAs, portalContext, portalSession } from '#tests/support/portal.ts'
import { startSmtpCapture } from '#tests/support/smtp.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { periodOf, runReportMail } from '#server/platform/reports/subscriptions.ts'

// Reports (issue 29): every figure equals the total of the list it links to, a client never sees
// another account's figures, each report is refused without its area's viewer, and the exports
// stream typed XLSX that exceljs reads back.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let globex: string
const tokens: Record<string, string> = {}
const NOW = new Date('2026-03-10T15:00:00Z')
/** The API's clock: NOW, except where a test reads what was written at the machine's time. */
let clock = NOW

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

const get = (path: string, token: string) => platform.call('GET', path, { token })
const listTotal = async (context: string, token: string, path: string, pql: string) => {
  const res = await get(`/groups/${context}/${path}?limit=1&pql=${encodeURIComponent(pql)}`, token)
  expect(res.status, pql).toBe(200)
  return res.json.meta.total as number
}

beforeAll(async () => {
  platform = await createTestPlatform({ now: () => clock }, { seed: { domainsPerAccount: [40, 20] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  tokens.viewer = await login('viewer@acme.example')
  tokens.admin = await login('admin@acme.example')
  tokens.globex = await login('admin@globex.example')
  tokens.staff = await login('staff@example.com')
  // A known spread over every bucket and dimension: expiry days from NOW, tags, locks and a registrar lock at the registry.
  const domains = await platform.db.selectFrom('domains').select(['id', 'account_id']).where('status', '<>', 'deleted').orderBy('name').execute()
  const days = [-3, 0, 5, 30, 31, 45, 60, 61, 80, 90, 91, 200, 365, 366, 500]
  for (const [i, d] of domains.filter((x) => x.account_id === acme).entries()) {
    await platform.db
      .updateTable('domains')
      .set({
        expires_at: new Date(NOW.getTime() + days[i % days.length]! * 86_400_000),
        tags: i % 3 === 0 ? ['marketing'] : i % 3 === 1 ? ['marketing', 'eu'] : [],
        registry_statuses: i % 4 === 0 ? ['clientTransferProhibited'] : ['ok'],
        registry_lock: i % 5 === 0,
        dnssec: i % 2 === 0,
        auto_renew: i % 6 !== 0,
      })
      .where('id', '=', d.id)
      .execute()
  }
  await platform.db
    .updateTable('domains')
    .set({ tags: ['globex-only'] })
    .where('account_id', '=', globex)
    .execute()
  // Zones with records in both accounts: 203.0.113.7 in three of Acme's and one of Globex's.
  await platform.db.deleteFrom('dns_records').execute()
  await platform.db.deleteFrom('dns_zones').execute()
  const hosted = domains
    .filter((x) => x.account_id === acme)
    .slice(0, 4)
    .concat(domains.filter((x) => x.account_id === globex).slice(0, 1))
  for (const [i, d] of hosted.entries()) {
    const name = (await platform.db.selectFrom('domains').select('name').where('id', '=', d.id).executeTakeFirstOrThrow()).name
    const zone = await platform.db
      .insertInto('dns_zones')
      .values({ account_id: d.account_id, domain_id: d.id, name, serial: 1 } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    await platform.db
      .insertInto('dns_records')
      .values([
        { zone_id: zone.id, account_id: d.account_id, name, type: 'A', ttl: 300, content: i === 3 ? '198.51.100.1' : '203.0.113.7' },
        { zone_id: zone.id, account_id: d.account_id, name: `www.${name}`, type: 'CNAME', ttl: 300, content: `${name}.` },
        { zone_id: zone.id, account_id: d.account_id, name, type: 'TXT', ttl: 3600, content: '"v=spf1 -all"' },
      ])
      .execute()
  }
})
afterAll(() => platform?.close())

describe('GET /groups/{context}/reports/domains', () => {
  it('counts every dimension so that each figure equals the total of the domain list its pql selects', async () => {
    for (const filters of [{ tag: null }, { tag: 'marketing' }]) {
      const res = await get(`/groups/${acme}/reports/domains${filters.tag ? `?tag=${filters.tag}` : ''}`, tokens.viewer!)
      expect(res.status).toBe(200)
      const report = res.json
      expect(report.filters).toEqual(filters)
      expect(report.total).toBe(await listTotal(acme, tokens.viewer!, 'domains', filters.tag ? `tags equals '${filters.tag}'` : ''))
      let checked = 0
      for (const dimension of DOMAIN_DIMENSIONS) {
        for (const figure of report.by[dimension] as { key: string; count: number }[]) {
          expect(figure.count, `${dimension} ${figure.key}`).toBe(await listTotal(acme, tokens.viewer!, 'domains', printPql(domainFigureFilters(dimension, figure.key, report.today, filters))))
          checked++
        }
      }
      expect(checked).toBeGreaterThan(20)
      // Every bucket is there for this spread, in order, and the buckets add up to the domains with an expiry date.
      expect(report.by.expiry.map((f: { key: string }) => f.key)).toEqual([...EXPIRY_BUCKETS])
      for (const dimension of ['status', 'auto_renew', 'dnssec', 'registry_lock', 'registrar_lock', 'expiry']) {
        expect(
          report.by[dimension].reduce((n: number, f: { count: number }) => n + f.count, 0),
          dimension,
        ).toBe(report.total)
      }
    }
  })

  it('answers staff in their own group for every account, and a client only for its own (another account is 404)', async () => {
    const staffHome = (await get('/me', tokens.staff!)).json.group_id as string
    const all = (await get(`/groups/${staffHome}/reports/domains`, tokens.staff!)).json
    const acmeOnly = (await get(`/groups/${acme}/reports/domains`, tokens.admin!)).json
    const globexOnly = (await get(`/groups/${globex}/reports/domains`, tokens.globex!)).json
    expect(all.total).toBe(acmeOnly.total + globexOnly.total)
    expect(all.by.tag.map((f: { key: string }) => f.key)).toContain('globex-only')
    expect(acmeOnly.by.tag.map((f: { key: string }) => f.key)).not.toContain('globex-only')
    expect((await get(`/groups/${globex}/reports/domains`, tokens.admin!)).status).toBe(404)
    expect((await get(`/groups/${acme}/reports`, tokens.globex!)).status).toBe(404)
    // Staff choosing an account see that account's figures.
    expect((await get(`/groups/${globex}/reports/domains`, tokens.staff!)).json.total).toBe(globexOnly.total)
  })

  it('refuses a caller without domain-viewer, and the index needs a viewer of some area', async () => {
    const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['dns-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const dnsOnly = await login('viewer@acme.example')
    expect((await get(`/groups/${acme}/reports/domains`, dnsOnly)).status).toBe(403)
    const index = await get(`/groups/${acme}/reports`, dnsOnly)
    expect(index.status).toBe(200)
    expect(index.json.domains).toBeNull()
    expect(index.json.dns_records.total).toBe(await listTotal(acme, dnsOnly, 'dns-records', ''))
    await platform.db
      .updateTable('users')
      .set({ roles: ['contact-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const none = await login('viewer@acme.example')
    expect((await get(`/groups/${acme}/reports`, none)).status).toBe(403)
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'] })
      .where('id', '=', user.id)
      .execute()
  })

  it('gives the index each report’s headline: the total of its list for the filters', async () => {
    const index = (await get(`/groups/${acme}/reports?tag=eu`, tokens.admin!)).json
    expect(index.domains.total).toBe(await listTotal(acme, tokens.admin!, 'domains', "tags equals 'eu'"))
    expect(index.dns_records.total).toBe(await listTotal(acme, tokens.admin!, 'dns-records', ''))
  })
})

const statusOf = async (run: () => Promise<unknown>) => {
  try {
    await run()
    return 200
  } catch (thrown) {
    return (thrown as { init?: { status?: number }; status?: number }).init?.status ?? (thrown as Response).status
  }
}

describe('the portal’s report routes', () => {
  it('refuses every report route to a user without the area’s viewer', async () => {
    const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['contact-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const as = await portalAs(platform, 'viewer@acme.example')
    expect(await statusOf(() => as(indexLoader, '/reports'))).toBe(403)
    expect(await statusOf(() => as(domainsLoader, '/reports/domains'))).toBe(403)
    expect(await statusOf(() => as(recordsLoader, '/reports/dns-records'))).toBe(403)
    expect(await statusOf(() => as(printLoader, '/reports/domains/print'))).toBe(403)
    expect(await statusOf(() => as(printLoader, '/reports/dns-records/print'))).toBe(403)
    expect(await statusOf(() => as(exportLoader, '/reports/domains/export/xlsx', { report: 'domains', format: 'xlsx' }))).toBe(403)
    expect(await statusOf(() => as(exportLoader, '/reports/dns-records/export/csv', { report: 'dns-records', format: 'csv' }))).toBe(403)
    // dns-viewer alone: the records report, not the domains one.
    await platform.db
      .updateTable('users')
      .set({ roles: ['dns-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const dns = await portalAs(platform, 'viewer@acme.example')
    expect(await statusOf(() => dns(domainsLoader, '/reports/domains'))).toBe(403)
    expect(await statusOf(() => dns(printLoader, '/reports/domains/print'))).toBe(403)
    expect(await statusOf(() => dns(exportLoader, '/reports/domains/export/csv', { report: 'domains', format: 'csv' }))).toBe(403)
    expect(await statusOf(() => dns(printLoader, '/reports/dns-records/print'))).toBe(200)
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'] })
      .where('id', '=', user.id)
      .execute()
  })

  it('exports the domains report as XLSX: its figures and the domains behind them, typed, the header frozen and filtered', async () => {
    const as = await portalAs(platform, 'admin@acme.example')
    const response = (await as(exportLoader, '/reports/domains/export/xlsx?tag=marketing', { report: 'domains', format: 'xlsx' })) as Response
    expect(response.headers.get('content-type')).toContain('spreadsheetml')
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await response.arrayBuffer())
    const [figures, domains] = workbook.worksheets
    const report = (await get(`/groups/${acme}/reports/domains?tag=marketing`, tokens.admin!)).json
    expect(domains!.rowCount - 1).toBe(report.total)
    expect(figures!.rowCount - 1).toBe(DOMAIN_DIMENSIONS.reduce((n, d) => n + report.by[d].length, 0))
    expect(figures!.getRow(1).getCell(4).value).toBe('Count')
    expect(typeof figures!.getRow(2).getCell(4).value).toBe('number')
    for (const sheet of [figures!, domains!]) {
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      expect(sheet.autoFilter).toBeTruthy()
    }
    const header = (domains!.getRow(1).values as unknown[]).slice(1)
    const expires = header.indexOf('Expires') + 1
    const autoRenew = header.indexOf('Auto-renew') + 1
    expect(expires).toBeGreaterThan(0)
    expect(domains!.getRow(2).getCell(expires).value).toBeInstanceOf(Date)
    expect(typeof domains!.getRow(2).getCell(autoRenew).value).toBe('boolean')
  })

  it('exports the record report as CSV and XLSX with every row of the filtered list', async () => {
    const as = await portalAs(platform, 'admin@acme.example')
    const pql = "type equals 'A' and content equals '203.0.113.7'"
    const total = await listTotal(acme, tokens.admin!, 'dns-records', pql)
    expect(total).toBe(3)
    const query = `?pql=${encodeURIComponent(pql)}`
    const csv = (await as(exportLoader, `/reports/dns-records/export/csv${query}`, { report: 'dns-records', format: 'csv' })) as Response
    const lines = (await csv.text()).trim().split('\r\n')
    expect(lines.length - 1).toBe(total)
    expect(lines.slice(1).every((l) => l.includes(',A,') && l.includes('203.0.113.7'))).toBe(true)
    const xlsx = (await as(exportLoader, `/reports/dns-records/export/xlsx${query}`, { report: 'dns-records', format: 'xlsx' })) as Response
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await xlsx.arrayBuffer())
    expect(workbook.worksheets[0]!.rowCount - 1).toBe(total)
  })

  it('pages an export past the list engine’s page (1000 rows) until the last row, no row twice', async () => {
    const zone = await platform.db.selectFrom('dns_zones').select(['id', 'name']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    await platform.db
      .insertInto('dns_records')
      .values(Array.from({ length: 1234 }, (_, i) => ({ zone_id: zone.id, account_id: acme, name: `h${String(i).padStart(4, '0')}.${zone.name}`, type: 'TXT', ttl: 300, content: `"row ${i}"` })))
      .execute()
    const pql = "type equals 'TXT'"
    const total = await listTotal(acme, tokens.admin!, 'dns-records', pql)
    expect(total).toBeGreaterThan(1234)
    const as = await portalAs(platform, 'admin@acme.example')
    const csv = (await as(exportLoader, `/reports/dns-records/export/csv?sort=name&pql=${encodeURIComponent(pql)}`, { report: 'dns-records', format: 'csv' })) as Response
    const lines = (await csv.text()).trim().split('\r\n').slice(1)
    expect(lines.length).toBe(total)
    expect(new Set(lines).size).toBe(total)
    const xlsx = (await as(exportLoader, `/reports/dns-records/export/xlsx?sort=name&pql=${encodeURIComponent(pql)}`, { report: 'dns-records', format: 'xlsx' })) as Response
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.load(await xlsx.arrayBuffer())
    expect(workbook.worksheets[0]!.rowCount - 1).toBe(total)
  })

  it('lets staff choose the account: the report is that account’s, its filters line names it; in their own group every account', async () => {
    const as = await portalAs(platform, 'staff@example.com')
    const chosen = (await as(domainsLoader, `/reports/domains?context=${globex}`)) as { report: { total: number }; accounts: { acting: string | null; accounts: { id: string }[] } }
    expect(chosen.report.total).toBe((await get(`/groups/${globex}/reports/domains`, tokens.globex!)).json.total)
    expect(chosen.accounts.acting).toBe('Globex')
    expect(chosen.accounts.accounts.map((a) => a.id)).toEqual(expect.arrayContaining([acme, globex]))
    const all = (await as(domainsLoader, '/reports/domains')) as { accounts: { acting: string | null } }
    expect(all.accounts.acting).toBeNull()
    // A client gets no account choice.
    const client = await portalAs(platform, 'admin@acme.example')
    expect(((await client(domainsLoader, '/reports/domains')) as { accounts: unknown }).accounts).toBeNull()
  })
})

describe('the figure reports: DNS, SSL, renewals forecast, portfolio activity', () => {
  type Sections = {
    today: string
    filters: FigureContext['filters']
    total: number
    sections: { key: string; figures: { key: string; count: number; amounts?: { currency: string; minor: number }[] }[] }[]
  }
  /** The API list behind a portal path a figure links to. */
  const API_LIST: Record<string, string> = {
    '/reports/dns': 'reports/dns/zones',
    '/reports/dns-records': 'reports/dns-records',
    '/ssls': 'ssls',
    '/domains': 'domains',
    '/reports/portfolio-activity': 'reports/portfolio-activity/entries',
    '/domains/orders': 'orders',
    '/domains/reconciliation': 'domains/reconciliation-differences',
    '/invoicing/transactions': 'transactions',
    '/reports/operations/failed-jobs': 'jobs/failed',
  }
  /** Every figure of a report is the total of the list it links to, filtered by its pql. */
  async function checkFigures(kind: FigureReport, report: Sections, context: string, token: string) {
    let checked = 0
    for (const section of report.sections) {
      for (const figure of section.figures) {
        const target = figureTarget(kind, section.key, figure.key, { today: report.today, filters: report.filters })
        if (!target) continue
        expect(figure.count, `${kind} ${section.key} ${figure.key}`).toBe(await listTotal(context, token, API_LIST[target.path]!, printPql(target.filters)))
        checked++
      }
    }
    return checked
  }

  it('counts zones by posture and records by type and TTL, each figure the total of the list it links to; staff in their own group see every account', async () => {
    // Acme's first zone gains DMARC, CAA naming a CA, and an MX; its SPF ends -all (hard), as every zone's here.
    const zone = await platform.db.selectFrom('dns_zones').select(['id', 'name']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    await platform.db
      .insertInto('dns_records')
      .values([
        { zone_id: zone.id, account_id: acme, name: `_dmarc.${zone.name}`, type: 'TXT', ttl: 3600, content: '"v=DMARC1; p=reject; sp=none"' },
        { zone_id: zone.id, account_id: acme, name: zone.name, type: 'CAA', ttl: 86_400, content: '0 issue "letsencrypt.org"' },
        { zone_id: zone.id, account_id: acme, name: zone.name, type: 'MX', ttl: 100_000, content: `mail.${zone.name}.`, priority: 10 },
      ])
      .execute()
    const res = await get(`/groups/${acme}/reports/dns`, tokens.admin!)
    expect(res.status).toBe(200)
    const report = res.json as Sections
    const section = (key: string) => Object.fromEntries(report.sections.find((s) => s.key === key)!.figures.map((f) => [f.key, f.count]))
    expect(report.total).toBe(4)
    expect(section('spf')).toMatchObject({ hard: 4 })
    expect(section('dmarc')).toMatchObject({ reject: 1, missing: 3 })
    expect(section('caa_issuer')).toEqual({ 'letsencrypt.org': 1 })
    expect(section('mx')).toMatchObject({ true: 1, false: 3 })
    expect(section('ttl')).toMatchObject({ gt86400: 1 })
    expect(await checkFigures('dns', report, acme, tokens.admin!)).toBeGreaterThan(15)
    const staffHome = (await get('/me', tokens.staff!)).json.group_id as string
    const all = (await get(`/groups/${staffHome}/reports/dns`, tokens.staff!)).json as Sections
    expect(all.total).toBe(5)
    await checkFigures('dns', all, staffHome, tokens.staff!)
    // The record report and the index count every account's records for staff in their own group.
    expect((await get(`/groups/${staffHome}/reports`, tokens.staff!)).json.dns_records.total).toBe(await listTotal(staffHome, tokens.staff!, 'reports/dns-records', ''))
    expect(await listTotal(staffHome, tokens.staff!, 'reports/dns-records', "content equals '203.0.113.7'")).toBe(4)
    expect(await listTotal(acme, tokens.admin!, 'reports/dns-records', "content equals '203.0.113.7'")).toBe(3)
    // Each record names its account, so staff open another account's zone in that account (its zone link's context).
    const across = (await get(`/groups/${staffHome}/reports/dns-records?pql=${encodeURIComponent("content equals '203.0.113.7'")}`, tokens.staff!)).json.data as { zone_id: string; group_id: string }[]
    expect(new Set(across.map((r) => r.group_id)).size).toBe(2)
    for (const row of across) expect((await get(`/groups/${row.group_id}/zones/${row.zone_id}`, tokens.staff!)).status).toBe(200)
    expect((await get(`/groups/${acme}/reports/dns`, tokens.globex!)).status).toBe(404)

    // The posture rollup (dns_zone_postures): the job's values are read while current for the zone's version; a zone changed since is computed live.
    const spfOf = async () => ((await get(`/groups/${acme}/reports/dns`, tokens.admin!)).json as Sections).sections.find((s) => s.key === 'spf')!.figures
    const sectionsNow = async () => ((await get(`/groups/${acme}/reports/dns`, tokens.admin!)).json as Sections).sections
    const truth = await spfOf()
    const live = await sectionsNow()
    expect(await refreshZonePostures(platform.db)).toBe(5)
    expect(await refreshZonePostures(platform.db)).toBe(0)
    expect(await spfOf()).toEqual(truth)
    // Every figure, the records' by type and TTL included, the same from the rollups as live.
    expect(await sectionsNow()).toEqual(live)
    await platform.db
      .updateTable('dns_zone_postures')
      .set({ spf: 'open', record_types: [99], record_ttls: [99] })
      .execute()
    expect(await spfOf()).toEqual([{ key: 'open', count: 4 }])
    const rolled = await sectionsNow()
    expect(rolled.find((s) => s.key === 'record_type')!.figures).toEqual([{ key: 'A', count: 4 * 99 }])
    expect(rolled.find((s) => s.key === 'ttl')!.figures).toEqual([{ key: 'le300', count: 4 * 99 }])
    await platform.db
      .updateTable('dns_zones')
      .set({ version: sql`version + 1` })
      .execute()
    expect(await spfOf()).toEqual(truth)
    expect(await sectionsNow()).toEqual(live)
    expect(await listTotal(acme, tokens.admin!, 'reports/dns/zones', "spf equals 'hard'")).toBe(4)
  })

  it('operations (staff): orders by state, open registry differences and charges settled per month, each figure its list total, every account or one', async () => {
    const day = (offset: number) => new Date(NOW.getTime() + offset * 86_400_000)
    const order = (account_id: string, state: 'completed' | 'failed' | 'pending', created_at: Date) =>
      ({ account_id, created_by: 'admin@acme.example', state, totals: '[]', created_at, updated_at: created_at }) as const
    await platform.db
      .insertInto('orders')
      .values([order(acme, 'completed', day(-1)), order(acme, 'failed', day(-2)), order(globex, 'pending', day(0)), order(acme, 'completed', day(-45))])
      .execute()
    const [acmeDomain, globexDomain] = await Promise.all(
      [acme, globex].map(async (a) => (await platform.db.selectFrom('domains').select('id').where('account_id', '=', a).where('status', '<>', 'deleted').executeTakeFirstOrThrow()).id),
    )
    await platform.db
      .insertInto('domain_differences')
      .values([
        { domain_id: acmeDomain!, account_id: acme, field: 'expires_at', ours: '2027-01-01', registry: '2028-01-01' },
        { domain_id: globexDomain!, account_id: globex, field: 'nameservers', ours: 'ns1.example', registry: 'ns9.example' },
      ])
      .execute()
    // Every charge of the demo settled now (this month), one of Acme's two months ago: revenue in two months.
    await platform.db.updateTable('transactions').set({ state: 'settled', settled_at: NOW }).where('state', 'in', ['reserved', 'settled']).execute()
    const earlier = await platform.db.selectFrom('transactions').select('id').where('account_id', '=', acme).executeTakeFirst()
    if (earlier)
      await platform.db
        .updateTable('transactions')
        .set({ settled_at: day(-62) })
        .where('id', '=', earlier.id)
        .execute()

    const staffHome = (await get('/me', tokens.staff!)).json.group_id as string
    const all = (await get(`/groups/${staffHome}/reports/operations`, tokens.staff!)).json as Sections & { totals: { currency: string; minor: number }[] }
    const figures = (section: string) => Object.fromEntries(all.sections.find((s) => s.key === section)!.figures.map((f) => [f.key, f.count]))
    expect(figures('order_state')).toMatchObject({ completed: 1, failed: 1, pending: 1 })
    expect(all.total).toBeGreaterThanOrEqual(3)
    expect(figures('difference')).toMatchObject({ expires_at: 1, nameservers: 1 })
    const revenue = all.sections.find((s) => s.key === 'revenue_month')!.figures
    expect(revenue).toHaveLength(12)
    expect(revenue.at(-1)!.key).toBe('2026-03')
    const settled = await platform.db.selectFrom('transactions').select(['currency', 'amount_minor']).where('state', '=', 'settled').execute()
    expect(revenue.reduce((n, f) => n + f.count, 0)).toBe(settled.length)
    expect(all.totals.reduce((n, a) => n + a.minor, 0)).toBe(settled.reduce((n, t) => n + Number(t.amount_minor), 0))
    expect(await checkFigures('operations', all, staffHome, tokens.staff!)).toBeGreaterThanOrEqual(6)
    // In Acme's context: Acme's alone, each figure still its list's total.
    const acmeOnly = (await get(`/groups/${acme}/reports/operations`, tokens.staff!)).json as Sections
    expect(acmeOnly.sections.find((s) => s.key === 'difference')!.figures).toEqual([{ key: 'expires_at', count: 1 }])
    await checkFigures('operations', acmeOnly, acme, tokens.staff!)
    // Staff's alone: a client admin is refused, and the index names the report only for staff.
    expect((await get(`/groups/${acme}/reports/operations`, tokens.admin!)).status).toBe(403)
    expect((await get(`/groups/${acme}/reports`, tokens.admin!)).json.operations).toBeNull()
    expect((await get(`/groups/${staffHome}/reports`, tokens.staff!)).json.operations).toEqual({ total: all.total })
  })

  it('counts certificates by state, CA, key and expiry month, and names the hosted names no valid certificate covers', async () => {
    await platform.db.updateTable('dns_zones').set({ verified_at: NOW }).execute()
    const res = await get(`/groups/${acme}/reports/ssls`, tokens.admin!)
    expect(res.status).toBe(200)
    const report = res.json as Sections & { gap: { count: number; named: string[] } }
    expect(report.total).toBe(await listTotal(acme, tokens.admin!, 'ssls', ''))
    await checkFigures('ssls', report, acme, tokens.admin!)
    // Every A record of Acme's three verified zones answers an address; none is covered here unless a certificate names it.
    expect(report.gap.count).toBeGreaterThan(0)
    expect(report.gap.named.length).toBeLessThanOrEqual(50)
    // A name a valid certificate of ours names is covered, never in the gap.
    const valid = await platform.db.selectFrom('ssl_certificates').select('names').where('account_id', '=', acme).where('status', 'in', ['issued', 'expiring']).execute()
    for (const name of valid.flatMap((c) => c.names)) expect(report.gap.named).not.toContain(name)
    // A wildcard covers the names one label below it: a valid certificate of *.<zone> takes that zone's hosts out of the gap.
    const zone = await platform.db.selectFrom('dns_zones').select(['id', 'name']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const www = await platform.db
      .insertInto('dns_records')
      .values({ zone_id: zone.id, account_id: acme, name: `www.${zone.name}`, type: 'A', ttl: 300, content: '203.0.113.9' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const before = (await get(`/groups/${acme}/reports/ssls`, tokens.admin!)).json as typeof report
    expect(before.gap.count).toBe(report.gap.count + 1)
    const term = await platform.db
      .insertInto('ssl_terms')
      .values({ account_id: acme, product: 'dv-single', period_months: 12, ends_at: new Date(Date.now() + 365 * 86_400_000) })
      .returning('id')
      .executeTakeFirstOrThrow()
    const cert = await platform.db
      .insertInto('ssl_certificates')
      .values({
        account_id: acme,
        term_id: term.id,
        status: 'issued',
        product: 'dv-single',
        common_name: `*.${zone.name}`,
        names: [`*.${zone.name}`],
        key_type: 'ecdsa-p256',
        key_source: 'csr',
        csr_pem: '-',
        ca: 'Demo Trust Services',
        directory_url: 'https://ca.example/directory',
        not_after: new Date(Date.now() + 30 * 86_400_000),
        origin: 'order',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    // The gap is exactly the addressed names of live zones that no valid certificate names, by itself or a wildcard one label up.
    const hosts = await platform.db
      .selectFrom('dns_records')
      .innerJoin('dns_zones', 'dns_zones.id', 'dns_records.zone_id')
      .select('dns_records.name')
      .distinct()
      .where('dns_records.account_id', '=', acme)
      .where('dns_zones.verified_at', 'is not', null)
      .where('dns_records.type', 'in', ['A', 'AAAA'])
      .execute()
    const covering = await platform.db
      .selectFrom('ssl_certificates')
      .select('names')
      .where('account_id', '=', acme)
      .where('status', 'in', ['issued', 'expiring'])
      .where('not_after', '>', new Date())
      .execute()
    const covered = new Set(covering.flatMap((c) => c.names))
    const expected = hosts.map((h) => h.name).filter((name) => !covered.has(name) && !covered.has(`*.${name.slice(name.indexOf('.') + 1)}`))
    expect(hosts.filter((h) => h.name.endsWith(`.${zone.name}`)).length).toBeGreaterThan(0)
    expect(expected.some((name) => name.endsWith(`.${zone.name}`))).toBe(false)
    const after = (await get(`/groups/${acme}/reports/ssls`, tokens.admin!)).json as typeof report
    expect(after.gap.count).toBe(expected.length)
    expect(after.gap.named).toHaveLength(Math.min(50, expected.length))
    for (const name of after.gap.named) expect(expected).toContain(name)
    await platform.db.deleteFrom('ssl_certificates').where('id', '=', cert.id).execute()
    await platform.db.deleteFrom('ssl_terms').where('id', '=', term.id).execute()
    await platform.db.deleteFrom('dns_records').where('id', '=', www.id).execute()
  })

  it('forecasts renewals per month priced as the pricing engine quotes a renewal on that month’s day, each figure the total of the domain list', async () => {
    const res = await get(`/groups/${acme}/reports/renewals-forecast?months=24`, tokens.admin!)
    expect(res.status).toBe(200)
    const report = res.json as Sections & { totals: { currency: string; minor: number }[]; unpriced: number }
    expect(report.sections[0]!.figures).toHaveLength(24)
    expect(await checkFigures('renewals-forecast', report, acme, tokens.admin!)).toBeGreaterThan(24)
    // Who pays: Acme's billing entity, by name, for every renewal of the window (its figure the domain list's total, above).
    const payers = (report.sections.find((s) => s.key === 'billing_entity')!.figures as { key: string; count: number; label?: string }[]).map(({ key, count, label }) => ({ key, count, label }))
    const payer = await platform.db
      .selectFrom('accounts')
      .innerJoin('billing_entities', 'billing_entities.id', 'accounts.billing_entity_id')
      .select(['billing_entities.id', 'billing_entities.name'])
      .where('accounts.id', '=', acme)
      .executeTakeFirstOrThrow()
    expect(payers).toEqual([{ key: payer.id, count: report.total, label: payer.name }])
    // Staff across every account: one figure per payer, together every renewal, each its list's total.
    const staffHome = (await get('/me', tokens.staff!)).json.group_id as string
    const all = (await get(`/groups/${staffHome}/reports/renewals-forecast?months=24`, tokens.staff!)).json as Sections
    const allPayers = all.sections.find((s) => s.key === 'billing_entity')!.figures
    expect(allPayers.length).toBeGreaterThan(1)
    expect(allPayers.reduce((n, f) => n + f.count, 0)).toBe(all.total)
    expect(await checkFigures('renewals-forecast', { ...all, sections: all.sections.filter((s) => s.key === 'billing_entity') }, staffHome, tokens.staff!)).toBe(
      allPayers.filter((f) => f.key !== 'none').length,
    )
    // One month's amount is the engine's renewal quote on its first day for each domain renewing in it.
    const month = report.sections[0]!.figures.find((f) => f.count > 0 && f.key > report.today.slice(0, 7))!
    const due = await platform.db
      .selectFrom('domains')
      .select(['tld'])
      .where('account_id', '=', acme)
      .where('status', '<>', 'deleted')
      .where('expires_at', '>=', new Date(`${month.key}-01T00:00:00Z`))
      .where('expires_at', '<', new Date(Date.UTC(Number(month.key.slice(0, 4)), Number(month.key.slice(5, 7)), 1)))
      .execute()
    const quoter = await accountQuoter(platform.db, acme, NOW)
    let expected = 0
    for (const d of due) expected += (await quoter.quote([{ tld: d.tld, action: 'renew', period: 1 }], new Date(`${month.key}-01T00:00:00Z`)))[0]!.total_minor
    expect(month.amounts!.reduce((n, a) => n + a.minor, 0)).toBe(expected)
    expect(report.totals.length).toBeGreaterThan(0)
    expect((await get(`/groups/${acme}/reports/renewals-forecast?months=7`, tokens.admin!)).status).toBe(400)
  })

  it('counts the audit trail per week, kind and actor, each figure the total of the entries list', async () => {
    // The demo's trail was written at the machine's time (append-only): the report is asked for then.
    clock = new Date()
    const admin = await login('admin@acme.example')
    const res = await get(`/groups/${acme}/reports/portfolio-activity?days=365`, admin)
    expect(res.status).toBe(200)
    const report = res.json as Sections
    expect(report.total).toBe(await listTotal(acme, admin, 'reports/portfolio-activity/entries', `created_at between '${activityFrom(report.today, 365)},${report.today}'`))
    expect(report.total).toBeGreaterThan(0)
    await checkFigures('portfolio-activity', report, acme, admin)
    clock = NOW
  })

  it('serves each report’s screen, print view and exports through the portal, refused without the area’s viewer', async () => {
    const admin = await portalAs(platform, 'admin@acme.example')
    const staff = await portalAs(platform, 'staff@example.com')
    for (const kind of FIGURE_REPORTS) {
      // The operations report is staff's; a client admin is refused it.
      const as = kind === 'operations' ? staff : admin
      if (kind === 'operations') expect(await statusOf(() => admin(figuresLoader, `/reports/${kind}`))).toBe(403)
      const screen = (await as(figuresLoader, `/reports/${kind}`)) as { report: Sections }
      expect(screen.report.total, kind).toBeGreaterThanOrEqual(0)
      expect(await statusOf(() => as(printLoader, `/reports/${kind}/print`))).toBe(200)
      const xlsx = (await as(exportLoader, `/reports/${kind}/export/xlsx`, { report: kind, format: 'xlsx' })) as Response
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(await xlsx.arrayBuffer())
      const figures = screen.report.sections.reduce((n, s) => n + s.figures.length, 0)
      expect(workbook.worksheets[0]!.rowCount - 1, kind).toBe(figures)
    }
    const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['contact-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const viewer = await portalAs(platform, 'viewer@acme.example')
    for (const kind of ['dns', 'ssls', 'renewals-forecast'] as const) {
      expect(await statusOf(() => viewer(figuresLoader, `/reports/${kind}`)), kind).toBe(403)
      expect(await statusOf(() => viewer(exportLoader, `/reports/${kind}/export/csv`, { report: kind, format: 'csv' })), kind).toBe(403)
    }
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'] })
      .where('id', '=', user.id)
      .execute()
  })
})

describe('pulse: a person’s dashboard kept on the server', () => {
  it('starts from the role’s defaults, saves an arrangement with its version, refuses a stale or unknown one, and goes back to the defaults', async () => {
    const first = await get('/me/pulse', tokens.admin!)
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({ customised: false, version: 0, widgets: defaultWidgets(false) })
    expect((await get('/me/pulse', tokens.staff!)).json.widgets).toEqual(defaultWidgets(true))
    const widgets = [
      { report: 'dns', section: 'spf', size: 2, tag: null },
      { report: 'domains', section: null, size: 1, tag: 'marketing' },
    ]
    const saved = await platform.call('PUT', '/me/pulse', { token: tokens.admin!, body: { widgets, version: 0 } })
    expect(saved.status).toBe(200)
    expect(saved.json).toEqual({ widgets, customised: true, version: 1 })
    expect((await get('/me/pulse', tokens.admin!)).json.widgets).toEqual(widgets)
    // Another person's dashboard is their own.
    expect((await get('/me/pulse', tokens.viewer!)).json.customised).toBe(false)
    expect((await platform.call('PUT', '/me/pulse', { token: tokens.admin!, body: { widgets, version: 0 } })).status).toBe(409)
    const unknown = await platform.call('PUT', '/me/pulse', { token: tokens.admin!, body: { widgets: [{ report: 'dns', section: 'nope', size: 1, tag: null }], version: 1 } })
    expect(unknown.status).toBe(400)
    expect((await platform.call('PUT', '/me/pulse', { token: tokens.admin!, body: { widgets: Array(PULSE_MAX + 1).fill(widgets[0]), version: 1 } })).status).toBe(400)
    const reset = await platform.call('PUT', '/me/pulse', { token: tokens.admin!, body: { widgets: null, version: 1 } })
    expect(reset.json).toMatchObject({ customised: false, version: 0 })
    const trail = await platform.db.selectFrom('audit_entries').select('action').where('entity_type', '=', 'pulse-configuration').orderBy('created_at').execute()
    expect(trail.map((e) => e.action)).toEqual(['update', 'reset'])
  })

  it('draws each widget from its report, read once, a report the person may not read said so; arranged with plain forms', async () => {
    const as = await portalAs(platform, 'admin@acme.example')
    const page = (await as(pulseLoader, '/pulse')) as { pulse: { widgets: { report: string; tag: string | null }[]; version: number }; answers: Record<string, { report: { total: number } } | null> }
    expect(page.pulse.widgets).toEqual(defaultWidgets(false))
    expect(page.answers['domains|']!.report.total).toBe((await get(`/groups/${acme}/reports/domains`, tokens.admin!)).json.total)
    // Add a widget through the form, then move it first.
    const post = async (fields: Record<string, string>) => {
      const body = new URLSearchParams(fields)
      const request = new Request('http://localhost/pulse', {
        method: 'POST',
        body,
        headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', cookie: await portalSession(platform, 'admin@acme.example') },
      })
      const context = portalContext(platform)
      let result: unknown
      await i18nextMiddleware({ request, context, params: {} } as never, async () => {
        result = await pulseAction({ request, context, params: {} } as never).catch((thrown: unknown) => thrown)
        return new Response()
      })
      return result as Response
    }
    expect((await post({ intent: 'add', widget: 'ssls|status', size: '2', tag: '', version: '0' })).status).toBe(302)
    const added = (await get('/me/pulse', tokens.admin!)).json
    expect(added.widgets.at(-1)).toEqual({ report: 'ssls', section: 'status', size: 2, tag: null })
    expect((await post({ intent: 'up', index: String(added.widgets.length - 1), version: String(added.version) })).status).toBe(302)
    const moved = (await get('/me/pulse', tokens.admin!)).json
    expect(moved.widgets.at(-2)).toEqual({ report: 'ssls', section: 'status', size: 2, tag: null })
    // A viewer without ssl-viewer sees the widget say so.
    const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer', 'dns-viewer'] })
      .where('id', '=', user.id)
      .execute()
    const viewer = await portalAs(platform, 'viewer@acme.example')
    const viewerPage = (await viewer(pulseLoader, '/pulse')) as { answers: Record<string, unknown> }
    expect(viewerPage.answers['ssls|']).toBeNull()
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'] })
      .where('id', '=', user.id)
      .execute()
  })
})

describe('scheduled report mail', () => {
  it('mails a subscribed report once per period, in the subscriber’s language with the figures as XLSX, until unsubscribed from the mail', async () => {
    const smtp = await startSmtpCapture()
    try {
      const deps = {
        db: platform.db,
        mailer: createMailer({ SMTP_URL: smtp.url, MAIL_FROM: 'reports@registrar.example', APP_ENV: 'test' }, createLogger('silent')),
        config: { ...TEST_CONFIG, PUBLIC_URL: 'http://portal.test' },
      }
      const created = await platform.call('POST', `/groups/${acme}/reports/subscriptions`, { token: tokens.admin!, body: { report: 'domains', frequency: 'weekly', tag: 'marketing' } })
      expect(created.status).toBe(201)
      expect(created.json.last_period).toBe(periodOf('weekly', NOW))
      expect((await get('/me/report-subscriptions', tokens.admin!)).json.data).toHaveLength(1)
      // A report the person may not read is refused.
      const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
      await platform.db
        .updateTable('users')
        .set({ roles: ['contact-viewer'] })
        .where('id', '=', user.id)
        .execute()
      expect((await platform.call('POST', `/groups/${acme}/reports/subscriptions`, { token: await login('viewer@acme.example'), body: { report: 'dns', frequency: 'monthly' } })).status).toBe(403)
      await platform.db
        .updateTable('users')
        .set({ roles: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'] })
        .where('id', '=', user.id)
        .execute()

      // Nothing in the period it was made in; once in the next, however often the job runs.
      expect(await runReportMail(deps, NOW)).toBe(0)
      const nextWeek = new Date(NOW.getTime() + 7 * 86_400_000)
      expect(await runReportMail(deps, nextWeek)).toBe(1)
      expect(await runReportMail(deps, new Date(nextWeek.getTime() + 3_600_000))).toBe(0)
      const mail = await smtp.waitFor((m) => m.envelopeTo.includes('admin@acme.example'))
      expect(mail.subject).toContain('Domains')
      expect(mail.text).toContain('/reports/domains/print?')
      expect(mail.text).toContain('tag=marketing')
      const workbook = new ExcelJS.Workbook()
      await workbook.xlsx.load(mail.attachments[0]!.content as ArrayBuffer)
      // The figures of the report (made a week after NOW: the expiry buckets may differ from today's), counts as numbers.
      const sheet = workbook.worksheets[0]!
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      const sections = new Set<string>()
      sheet.eachRow((row, n) => void (n > 1 && sections.add(String(row.getCell(1).value))))
      expect([...sections]).toEqual([...DOMAIN_DIMENSIONS])
      expect(typeof sheet.getRow(2).getCell(3).value).toBe('number')

      // The mail's link stops it: the next period mails nothing.
      const token = /\/reports\/unsubscribe\/([A-Za-z0-9_-]+)/.exec(mail.text!)![1]!
      expect((await platform.call('POST', '/report-subscriptions/unsubscribe', { body: { token } })).json).toEqual({ unsubscribed: true })
      expect(await runReportMail(deps, new Date(nextWeek.getTime() + 7 * 86_400_000))).toBe(0)
      expect((await get('/me/report-subscriptions', tokens.admin!)).json.data).toHaveLength(0)
    } finally {
      await smtp.close()
    }
  })
})

describe('the portal’s subscription forms', () => {
  it('subscribes from a report’s form and stops from the index, back where the form was', async () => {
    const cookie = await portalSession(platform, 'admin@acme.example')
    const post = async (fields: Record<string, string>) => {
      const request = new Request('http://localhost/reports/subscriptions', { method: 'POST', body: new URLSearchParams(fields), headers: { origin: 'http://localhost', cookie } })
      const context = portalContext(platform)
      let result: unknown
      await i18nextMiddleware({ request, context, params: {} } as never, async () => {
        result = await subscriptionsAction({ request, context, params: {} } as never)
        return new Response()
      })
      return result as Response
    }
    const made = await post({ report: 'renewals-forecast', frequency: 'monthly', months: '24', redirectTo: '/reports/renewals-forecast?months=24' })
    expect(made.status).toBe(302)
    expect(made.headers.get('location')).toBe('/reports/renewals-forecast?months=24')
    const [subscription] = (await get('/me/report-subscriptions', tokens.admin!)).json.data
    expect(subscription).toMatchObject({ report: 'renewals-forecast', frequency: 'monthly', filters: { months: 24 } })
    // Another site as the way back is refused: the portal's own index instead.
    expect((await post({ intent: 'delete', id: subscription.id, redirectTo: '//evil.example' })).headers.get('location')).toBe('/reports')
    expect((await get('/me/report-subscriptions', tokens.admin!)).json.data).toHaveLength(0)
  })
})

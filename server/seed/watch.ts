import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { sha256 } from '#server/platform/watch/capture.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createTemplate, createWatch, getWatch, openCase, recordDetections, stepCase, type ScoredCapture } from '#server/platform/watch/service.ts'
import { scoreDetection, scoreOwnName } from '#server/platform/watch/scoring.ts'
import { DEFAULT_NAMESERVERS } from '#server/platform/dns/zones.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { OWN_NAME } from '#common/watch.ts'

const DEMO_LOOKALIKES = [
  { name: 'acme-login.com', fuzzers: ['dictionary'], score: 80, keywords: ['login'], mx: true, web: true, ns: ['ns1.bulletproof.example', 'ns2.bulletproof.example'], a: '192.0.2.66' },
  { name: 'acrne.com', fuzzers: ['homoglyph'], score: 100, keywords: [], mx: true, web: false, ns: ['ns1.bulletproof.example', 'ns2.bulletproof.example'], a: '192.0.2.67' },
  { name: 'acmee.com', fuzzers: ['repetition'], score: 80, keywords: [], mx: false, web: true, ns: ['ns1.parking.example'], a: '198.51.100.7' },
  { name: 'secure-acme.net', fuzzers: ['dictionary', 'tld-swap'], score: 72, keywords: ['secure'], mx: false, web: false, ns: ['ns1.parking.example'], a: '198.51.100.7' },
]

/**
 * The demo's watch (issue 31), made through the watch area's services at the first start (not by
 * the tests' `seedDemo`): staff's template, Acme's watch over its brand `acme`, four detections of
 * lookalikes as a run would record them (the demo has no stranger's zones to find; their captures
 * say `demo: true`), clustered by their shared nameservers, one case over the mail-ready
 * cluster, triaged high, and the brand's own acme.com found delegated to a nameserver we do not
 * run (a hijack, as a run rates it from a registry answer that says so; the demo's registry does not). A real run ("Run now") asks the DNS and adds what it finds.
 */
export async function seedDemoWatch(db: Kysely<DB>, now = new Date()) {
  const acme = await db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirst()
  const brand = acme ? await db.selectFrom('brands').select('id').where('account_id', '=', acme.id).where('label', '=', 'acme').executeTakeFirst() : undefined
  if (!acme || !brand) return
  const staffGroup = await db.selectFrom('accounts').select('id').where('name', '=', 'Registrar Operations').executeTakeFirst()
  const staffScope = { ...systemScope('demo-seed', staffGroup?.id ?? null), actor: { ...systemScope('demo-seed').actor, homeAccountId: staffGroup?.id ?? null } }
  const template = await createTemplate({ db }, staffScope, {
    name: 'Standard brand watch',
    sources: ['lookalikes', 'certificates'],
    interval_hours: 24,
    min_similarity: 70,
    threshold_high: 50,
    threshold_critical: 80,
  })
  const scope = systemScope('demo-seed', acme.id)
  const watch = await createWatch({ db, now: () => now }, scope, { name: 'Acme brand', brand_id: brand.id, template_id: template.id })
  const found: ScoredCapture[] = DEMO_LOOKALIKES.map((l) => {
    const capture = {
      dns: { ns: l.ns, a: [l.a], aaaa: [], mx: l.mx ? [`10 mail.${l.name}`] : [], txt: [] },
      rdap: {
        server: 'demo',
        registrar: 'Rival Registrar',
        iana_id: '9998',
        abuse_email: 'abuse@rival-registrar.example',
        registrant: null,
        registered_at: null,
        expires_at: null,
        statuses: ['active'],
        nameservers: l.ns,
      },
      web: l.web ? { status: 200, url: `http://${l.name}/`, redirects: [], title: 'Acme — Sign in', sha256: sha256(`demo page of ${l.name}`) } : null,
    }
    const score = scoreDetection(
      { similarity: l.score, fuzzers: l.fuzzers, keywords: l.keywords, mx: l.mx, web: l.web, certificateAgeDays: null, registeredDaysAgo: null, registrar: 'Rival Registrar', ourRegistry: false },
      { high: 50, critical: 80 },
    )
    return {
      c: { name: l.name, unicode_name: l.name, tld: l.name.slice(l.name.indexOf('.') + 1), score: l.score, fuzzers: l.fuzzers },
      capture: { ...capture, dns: { ...capture.dns } },
      score,
      fingerprint: sha256(JSON.stringify({ demo: l.name })),
    }
  })
  const own = await liveDomainsNamed(db, acme.id, ['acme.com']).select(['domains.name', 'domains.status', 'domains.expires_at', 'domains.auto_renew']).executeTakeFirst()
  const nameservers = [DEFAULT_NAMESERVERS[0]!, 'ns1.takeover.example']
  const hijack = own
    ? scoreOwnName({ nameservers, ours: DEFAULT_NAMESERVERS, zoneHere: true, status: own.status, expiresAt: own.expires_at, autoRenew: own.auto_renew, now }, { high: 50, critical: 80 })
    : null
  if (own && hijack) {
    const rdap = {
      server: 'demo',
      registrar: 'Registrar Portal',
      iana_id: null,
      abuse_email: null,
      registrant: null,
      registered_at: null,
      expires_at: own.expires_at?.toISOString() ?? null,
      statuses: ['active'],
      nameservers,
    }
    found.push({
      c: { name: own.name, unicode_name: own.name, tld: 'com', score: 100, fuzzers: [OWN_NAME] },
      capture: { dns: { ns: nameservers, a: ['192.0.2.10'], aaaa: [], mx: [], txt: [] }, rdap, web: null },
      score: hijack,
      fingerprint: sha256(JSON.stringify({ demo: own.name })),
    })
  }
  await recordDetections({ db }, scope, await getWatch(db, scope, watch.id), found, now)
  const top = await db.selectFrom('watch_detections').select('id').where('watch_id', '=', watch.id).where('name', '=', 'acme-login.com').executeTakeFirstOrThrow()
  const opened = await openCase({ db, now: () => now }, scope, top.id, { cluster: true })
  await stepCase({ db, now: () => now, mailer: { send: async () => {} } }, scope, opened.id, {
    version: opened.version,
    to: 'triaged',
    triage: 'high',
    note: 'Mail-ready, same nameservers as acrne.com.',
  })
}

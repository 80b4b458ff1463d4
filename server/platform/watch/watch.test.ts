import { describe, expect, it } from 'vitest'
import { noticeLanguageOf, ursApplies } from '#common/watch.ts'
import { refusalOfStep } from './cases.ts'
import { addBusinessDays, businessDaysBetween, deadlinesOf } from './clocks.ts'
import { clusterDetections } from './cluster.ts'
import { pacedByServer } from './pacing.ts'
import { keywordsIn, scoreDetection, scoreOwnName } from './scoring.ts'

const base = { similarity: 90, fuzzers: ['omission'], keywords: [], mx: false, web: false, certificateAgeDays: null, registeredDaysAgo: null, registrar: null, ourRegistry: false }
const day = (iso: string) => new Date(`${iso}T00:00:00Z`)

describe('scoring', () => {
  it('rates by its reasons: similarity alone is low, mail-ready makes it high, mail and web and fresh make it critical', () => {
    expect(scoreDetection(base)).toMatchObject({ points: 36, risk: 'low', reasons: [{ code: 'similarity', points: 36, detail: 'omission' }] })
    expect(scoreDetection({ ...base, mx: true })).toMatchObject({ points: 61, risk: 'high' })
    const critical = scoreDetection({ ...base, mx: true, web: true, certificateAgeDays: 2, registrar: 'Rival Registrar' })
    expect(critical.risk).toBe('critical')
    expect(critical.reasons.map((r) => r.code)).toEqual(['similarity', 'mail-ready', 'web-ready', 'fresh-certificate', 'registrar'])
    // The registrar is said, not counted.
    expect(critical.reasons.find((r) => r.code === 'registrar')).toEqual({ code: 'registrar', points: 0, detail: 'Rival Registrar' })
  })
  it('follows the watch’s thresholds and caps at 100', () => {
    expect(scoreDetection({ ...base, mx: true }, { high: 70, critical: 90 }).risk).toBe('low')
    expect(scoreDetection({ ...base, similarity: 100, mx: true, web: true, keywords: ['login'], certificateAgeDays: 1, registeredDaysAgo: 1 }).points).toBe(100)
    // An old certificate or registration is no reason.
    expect(scoreDetection({ ...base, certificateAgeDays: 400, registeredDaysAgo: 900 }).reasons).toHaveLength(1)
  })
  it('rates our own name: delegated elsewhere while its zone is ours, lapsed, or expiring unrenewed; nothing when it is well', () => {
    const ours = ['ns1.registrar.example', 'ns2.registrar.example']
    const well = { nameservers: ['NS1.registrar.example.', 'ns2.registrar.example'], ours, zoneHere: true, status: 'active', expiresAt: day('2027-06-01'), autoRenew: false, now: day('2026-11-29') }
    expect(scoreOwnName(well)).toBeNull()
    // Outside nameservers on a name whose DNS is not ours: the customer's choice, not a hijack.
    expect(scoreOwnName({ ...well, nameservers: ['ns.elsewhere.example'], zoneHere: false })).toBeNull()
    expect(scoreOwnName({ ...well, nameservers: [...ours, 'ns.takeover.example'] })).toMatchObject({
      points: 100,
      risk: 'critical',
      reasons: [{ code: 'own-nameservers', detail: 'ns.takeover.example' }],
    })
    expect(scoreOwnName({ ...well, status: 'redemption' })).toMatchObject({ risk: 'critical', reasons: [{ code: 'own-lapsed', detail: '2027-06-01' }] })
    expect(scoreOwnName({ ...well, expiresAt: day('2026-12-20') })).toMatchObject({ risk: 'high', reasons: [{ code: 'own-expiring', detail: '2026-12-20' }] })
    expect(scoreOwnName({ ...well, expiresAt: day('2026-12-20'), autoRenew: true })).toBeNull()
  })
  it('finds the dictionary’s words beside the brand', () => {
    expect(keywordsIn('acme-login', ['login', 'pay', 'my'], 'acme')).toEqual(['login'])
    expect(keywordsIn('acmepay', ['login', 'pay'], 'acme')).toEqual(['pay'])
    expect(keywordsIn('acme', ['login'], 'acme')).toEqual([])
  })
})

describe('clustering', () => {
  it('joins names by nameservers, address or registrant, through chains, named by the smallest', () => {
    const c = clusterDetections([
      { name: 'b.com', nameservers: ['ns1.evil.net.', 'ns2.evil.net'] },
      { name: 'a.com', nameservers: ['NS2.evil.net', 'ns1.evil.net'], addresses: ['192.0.2.1'] },
      { name: 'c.org', addresses: ['192.0.2.1'] },
      { name: 'd.net', registrant: 'Mallory' },
      { name: 'e.net', registrant: 'mallory' },
      { name: 'f.com', nameservers: ['ns.other.net'] },
    ])
    expect(c.get('b.com')).toEqual({ cluster: 'a.com', size: 3, by: ['address', 'nameservers'] })
    expect(c.get('c.org')?.cluster).toBe('a.com')
    expect(c.get('e.net')).toEqual({ cluster: 'd.net', size: 2, by: ['registrant'] })
    expect(c.get('f.com')).toEqual({ cluster: 'f.com', size: 1, by: [] })
  })
})

describe('clocks', () => {
  it('counts business days Monday to Friday', () => {
    // Friday 2026-11-27 + 1 business day is Monday; + 5 is the next Friday.
    expect(addBusinessDays(day('2026-11-27'), 1)).toEqual(day('2026-11-30'))
    expect(addBusinessDays(day('2026-11-27'), 5)).toEqual(day('2026-12-04'))
    // From a Saturday, the first business day is Monday.
    expect(addBusinessDays(day('2026-11-28'), 1)).toEqual(day('2026-11-30'))
    expect(businessDaysBetween(day('2026-11-27'), day('2026-12-04'))).toBe(5)
    expect(businessDaysBetween(day('2026-12-04'), day('2026-11-27'))).toBe(0)
  })
  it('computes UDRP, URS and escalation deadlines', () => {
    const d = deadlinesOf({
      udrpCommencedAt: day('2026-11-02'),
      udrpPanelAt: day('2026-12-01'),
      udrpDecidedAt: day('2026-12-10'),
      ursNoticedAt: new Date('2026-11-03T10:00:00Z'),
      noticeSentAt: day('2026-11-27'),
    })
    const at = Object.fromEntries(d.map((x) => [x.key, x.due.toISOString()]))
    expect(at['udrp-response']).toBe('2026-11-22T00:00:00.000Z')
    expect(at['udrp-decision']).toBe('2026-12-15T00:00:00.000Z')
    // Thursday 10 December + 10 business days: Thursday 24 December.
    expect(at['udrp-transfer']).toBe('2026-12-24T00:00:00.000Z')
    expect(at['urs-lock']).toBe('2026-11-04T10:00:00.000Z')
    expect(at['urs-response']).toBe('2026-11-17T00:00:00.000Z')
    expect(at.escalation).toBe('2026-12-04T00:00:00.000Z')
    expect(d.map((x) => x.due.getTime())).toEqual([...d.map((x) => x.due.getTime())].sort((a, b) => a - b))
  })
})

describe('URS and notice language', () => {
  it('applies URS to new and adopting gTLDs only', () => {
    expect(ursApplies('com')).toBe(false)
    expect(ursApplies('net')).toBe(false)
    expect(ursApplies('de')).toBe(false)
    expect(ursApplies('co.uk')).toBe(false)
    expect(ursApplies('shop')).toBe(true)
    expect(ursApplies('org')).toBe(true)
  })
  it('offers the notice in the TLD’s language', () => {
    expect(noticeLanguageOf('jp')).toBe('ja')
    expect(noticeLanguageOf('es')).toBe('es')
    expect(noticeLanguageOf('com')).toBe('en')
  })
})

describe('case states', () => {
  it('goes new → triaged → action → resolved, a false positive straight to resolved', () => {
    expect(refusalOfStep({ state: 'new', triage: null }, { to: 'action', action: 'notice-sent' })).toBe('watch.triage-first')
    expect(refusalOfStep({ state: 'new', triage: null }, { to: 'triaged', triage: 'high' })).toBeNull()
    expect(refusalOfStep({ state: 'triaged', triage: 'high' }, { to: 'action', action: 'udrp' })).toBeNull()
    expect(refusalOfStep({ state: 'action', triage: 'high' }, { to: 'action', action: 'udrp' })).toBeNull()
    expect(refusalOfStep({ state: 'triaged', triage: 'false-positive' }, { to: 'action', action: 'notice-sent' })).toBe('watch.false-positive')
    expect(refusalOfStep({ state: 'triaged', triage: 'false-positive' }, { to: 'resolved', resolution: 'dismissed' })).toBeNull()
    expect(refusalOfStep({ state: 'new', triage: null }, { to: 'resolved', resolution: 'taken-down' })).toBe('watch.triage-first')
    expect(refusalOfStep({ state: 'action', triage: 'high' }, { to: 'triaged', triage: 'low' })).toBe('watch.step-order')
    expect(refusalOfStep({ state: 'resolved', triage: 'high' }, { to: 'triaged', triage: 'low' })).toBe('watch.case-resolved')
  })
})

describe('pacing', () => {
  it('asks each server one name at a time with its interval between, servers side by side', async () => {
    const order: string[] = []
    const waits: number[] = []
    const names = ['a.com', 'b.com', 'c.org', 'd.com', 'e.org']
    const out = await pacedByServer(
      names,
      (n) => n.split('.')[1]!,
      1000,
      async (n) => {
        order.push(n)
        return n.toUpperCase()
      },
      async (ms) => void waits.push(ms),
    )
    expect(out).toEqual(names.map((n) => n.toUpperCase()))
    // com: 3 names, 2 pauses; org: 2 names, 1 pause.
    expect(waits).toEqual([1000, 1000, 1000])
    expect(order.filter((n) => n.endsWith('.com'))).toEqual(['a.com', 'b.com', 'd.com'])
  })
})

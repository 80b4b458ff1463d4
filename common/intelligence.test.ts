import { describe, expect, it } from 'vitest'
import { cellState, gapTotals, MEASURE_WEIGHTS, MEASURES, measuresOf, scoreOf, zoneFixRecord, type CellFacts, type DomainPosture } from './intelligence.ts'

const facts = (over: Partial<CellFacts> = {}): CellFacts => ({
  offered: true,
  ours: false,
  known: false,
  block: null,
  registry: { available: true },
  dns: null,
  price: { minor: 1200, currency: 'EUR' },
  localPresence: false,
  ...over,
})

describe('a gap cell’s state', () => {
  it('puts what we hold, then what a block covers, before anything the registry says', () => {
    expect(cellState(facts({ ours: true, registry: { available: false, reason: 'In use' } }))).toBe('ours')
    expect(cellState(facts({ block: { id: 'b', product: 'dpml' }, registry: { available: false } }))).toBe('blocked')
    expect(cellState(facts({ ours: true, block: { id: 'b', product: 'dpml' } }))).toBe('ours')
  })
  it('says not offered for a TLD we do not sell, unless the brand holds the name elsewhere', () => {
    expect(cellState(facts({ offered: false, registry: null }))).toBe('not-offered')
    expect(cellState(facts({ offered: false, registry: null, known: true }))).toBe('ours-elsewhere')
  })
  it('says unknown when the registry did not answer', () => {
    expect(cellState(facts({ registry: null }))).toBe('unknown')
  })
  it('reads available, premium and restricted (local presence) from a free name', () => {
    expect(cellState(facts())).toBe('available')
    expect(cellState(facts({ registry: { available: true, reason: 'Premium name' } }))).toBe('premium')
    expect(cellState(facts({ localPresence: true }))).toBe('restricted')
    expect(cellState(facts({ registry: { available: false, reason: 'Reserved: local presence required' } }))).toBe('restricted')
  })
  it('tells a third party’s taken name by its DNS: parked, mail-ready, live, or just registered', () => {
    const taken = { registry: { available: false, reason: 'In use' } }
    expect(cellState(facts({ ...taken, known: true }))).toBe('ours-elsewhere')
    expect(cellState(facts({ ...taken, dns: { ns: ['ns1.sedoparking.com.'], a: ['192.0.2.1'], mx: [] } }))).toBe('third-party-parked')
    expect(cellState(facts({ ...taken, dns: { ns: ['ns1.example.net'], a: ['192.0.2.1'], mx: ['mx.example.net'] } }))).toBe('third-party-mail')
    expect(cellState(facts({ ...taken, dns: { ns: ['ns1.example.net'], a: ['192.0.2.1'], mx: [] } }))).toBe('third-party-live')
    expect(cellState(facts({ ...taken, dns: null }))).toBe('third-party')
  })
  it('totals covered and exposed cells and the cost to close the gap per currency', () => {
    const totals = gapTotals([
      { state: 'ours', price_minor: null, currency: null },
      { state: 'blocked', price_minor: null, currency: null },
      { state: 'available', price_minor: 1200, currency: 'EUR' },
      { state: 'available', price_minor: 800, currency: 'EUR' },
      { state: 'third-party-live', price_minor: null, currency: null },
      { state: 'unknown', price_minor: null, currency: null },
    ])
    expect(totals).toEqual({ cells: 6, covered: 2, exposed: 3, unknown: 1, closable: 2, cost: [{ currency: 'EUR', minor: 2000 }] })
  })
})

const posture = (over: Partial<DomainPosture> = {}): DomainPosture => ({
  registry_lock: true,
  dnssec: true,
  nameservers: 2,
  held_here: true,
  zone: { caa: true, spf: true, dmarc: true, dkim: true, mta_sts: true, mx: true },
  ...over,
})

describe('the security score', () => {
  it('publishes weights that add up to 100, one per measure', () => {
    expect(MEASURES.reduce((sum, m) => sum + MEASURE_WEIGHTS[m], 0)).toBe(100)
  })
  it('is 100 with every measure passed and loses each failing measure’s weight', () => {
    expect(scoreOf(measuresOf(posture()))).toBe(100)
    expect(scoreOf(measuresOf(posture({ registry_lock: false })))).toBe(80)
    expect(scoreOf(measuresOf(posture({ registry_lock: false, dnssec: false, nameservers: 1 })))).toBe(55)
  })
  it('leaves out what it cannot see: a zone hosted elsewhere, MTA-STS of a name without mail', () => {
    const elsewhere = measuresOf(posture({ zone: null }))
    expect(elsewhere.caa).toBe('unseen')
    expect(elsewhere['mta-sts']).toBe('unseen')
    // Lock 20 + DNSSEC 15 + NS 10 + registrar 5 seen, lock failing: 30 of 50.
    expect(scoreOf(measuresOf(posture({ zone: null, registry_lock: false })))).toBe(60)
    expect(measuresOf(posture({ zone: { caa: true, spf: true, dmarc: true, dkim: true, mta_sts: false, mx: false } }))['mta-sts']).toBe('unseen')
  })
  it('fixes with records that keep mail flowing where there is mail', () => {
    expect(zoneFixRecord('spf', { mx: true, caIdentity: 'x' })).toEqual({ name: '@', type: 'TXT', content: '"v=spf1 mx -all"' })
    expect(zoneFixRecord('dmarc', { mx: false, caIdentity: 'x' })?.content).toBe('"v=DMARC1; p=reject"')
    expect(zoneFixRecord('dkim', { mx: true, caIdentity: 'x' })).toBeNull()
    expect(zoneFixRecord('caa', { mx: false, caIdentity: 'letsencrypt.org' })?.content).toBe('0 issue "letsencrypt.org"')
  })
})

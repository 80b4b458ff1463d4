import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LocalRegistry, type PreloadDomain } from './local-registry.ts'
import { parseXml } from './xml.ts'

const now = () => new Date('2026-06-01T00:00:00.000Z')
const base: PreloadDomain = { name: 'pre.test', clientId: 'portal', createdAt: '2024-03-01T00:00:00.000Z', expiresAt: '2027-03-01T00:00:00.000Z', authInfo: 'secret-A1' }
const info = (registry: LocalRegistry, name: string, clID = 'portal') =>
  registry.domainInfo(parseXml(`<domain:info xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>${name}</domain:name></domain:info>`), clID)

describe('LocalRegistry.preload', () => {
  it('stores registrations as the registry’s own data: given dates, no add grace, hosts made, one snapshot', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'preload-'))
    const registry = new LocalRegistry({ now, dataDir })
    const [held] = registry.preload([{ ...base, statuses: ['serverUpdateProhibited'], nameservers: ['NS1.Elsewhere.net'], ds: [{ keyTag: 1, alg: 13, digestType: 2, digest: 'ab'.repeat(32) }] }])
    expect(held).toMatchObject({ name: 'pre.test', clientId: 'portal', statuses: ['serverUpdateProhibited'], nameservers: ['ns1.elsewhere.net'] })
    expect(held!.expiresAt.toISOString()).toBe(base.expiresAt)
    expect(held!.ds[0]!.digest).toBe('AB'.repeat(32))
    expect(registry.state.hosts['ns1.elsewhere.net']?.clID).toBe('portal')
    expect(registry.state.queues).toEqual({})
    const answer = info(registry, 'pre.test')
    const extension = (answer.extension ?? []).map(String).join('')
    expect(extension).toContain('secDNS:infData')
    expect(extension).not.toContain('rgp') // no addPeriod: it was never created over EPP
    const saved = JSON.parse(readFileSync(path.join(dataDir, 'registry', 'state.json'), 'utf8'))
    expect(saved.domains['pre.test'].exDate).toBe(base.expiresAt)
    // A fresh registry over the same folder has it.
    expect(new LocalRegistry({ now, dataDir }).state.domains['pre.test']?.roid).toBe(held!.roid)
  })

  it('computes the derived statuses as info does: inactive without name servers, ok otherwise', () => {
    const registry = new LocalRegistry({ now })
    const [bare, served] = registry.preload([base, { ...base, name: 'served.test', nameservers: ['ns.elsewhere.net'] }])
    expect(bare!.statuses).toEqual(['inactive'])
    expect(served!.statuses).toEqual(['ok'])
  })

  it('refuses the whole list when one record is wrong, and names every problem', () => {
    const registry = new LocalRegistry({ now })
    expect(() =>
      registry.preload([
        base,
        { ...base, name: 'unserved.org' },
        { ...base, name: 'backwards.test', expiresAt: '2020-01-01' },
        { ...base, name: 'derived.test', statuses: ['pendingDelete'] },
        { ...base, name: 'orphan.test', nameservers: ['ns1.missing.test'] },
        { ...base, name: 'nobody.test', registrant: 'C-404' },
        { ...base },
      ]),
    ).toThrow(
      /6 problems.*unserved\.org: TLD not served.*backwards\.test: expiry must be after creation.*derived\.test: status pendingDelete.*orphan\.test: subordinate name server.*nobody\.test: contact C-404.*pre\.test: listed twice/,
    )
    expect(registry.state.domains).toEqual({})
    expect(registry.state.hosts).toEqual({})
  })

  it('replaces a name it already holds (a demo reset), with a new roid and the new dates', () => {
    const registry = new LocalRegistry({ now })
    const [first] = registry.preload([base])
    const [second] = registry.preload([{ ...base, expiresAt: '2029-03-01T00:00:00.000Z', clientId: 'other' }])
    expect(second!.roid).not.toBe(first!.roid)
    expect(Object.keys(registry.state.domains)).toEqual(['pre.test'])
    expect(registry.state.domains['pre.test']).toMatchObject({ clID: 'other', exDate: '2029-03-01T00:00:00.000Z' })
  })
})

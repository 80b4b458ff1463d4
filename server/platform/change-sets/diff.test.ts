import { describe, expect, it } from 'vitest'
import { RECORD_TEMPLATES, stageEnds, stagesProblem } from '#common/change-sets.ts'
import { baselineOf, changesOf, restoreDiff, zoneDiff, type CurrentRecord } from './diff.ts'

const zone = 'example.com'
let n = 0
const rec = (name: string, type: string, content: string, ttl = 3600): CurrentRecord => ({ id: `r${++n}`, name, type, ttl, content })

describe('a change set over one zone', () => {
  it('replaces the MX set and only the SPF among the TXT records (the Google Workspace template)', () => {
    const current = [rec(zone, 'MX', '10 mx.old.example.'), rec(zone, 'TXT', '"v=spf1 a -all"'), rec(zone, 'TXT', '"site-verification=1"'), rec(zone, 'NS', 'ns1.example.net.')]
    const diff = zoneDiff(zone, RECORD_TEMPLATES['google-workspace']!, current, 60)
    expect(diff.conflict).toBeNull()
    expect(diff.removes.map((r) => r.content).sort()).toEqual(['"v=spf1 a -all"', '10 mx.old.example.'])
    expect(diff.adds).toHaveLength(6)
    expect(diff.touched.sort()).toEqual([`${zone}\tMX`, `${zone}\tTXT`])
    // Applied, the same operations find nothing left to do.
    const after = [...current.filter((r) => !diff.removes.includes(r)), ...diff.adds.map((a) => rec(a.name, a.type, a.content))]
    expect(zoneDiff(zone, RECORD_TEMPLATES['google-workspace']!, after, 60).touched).toEqual([])
    // The baseline puts it back exactly.
    const back = restoreDiff(baselineOf(diff, current), after)
    expect(back.adds.map((a) => a.content).sort()).toEqual(['"v=spf1 a -all"', '10 mx.old.example.'])
    expect(back.removes).toHaveLength(6)
    expect(changesOf(back).filter((c) => c.action === 'add')[0]).toMatchObject({ name: `${zone}.`, ttl: 3600 })
  })

  it('finds a CNAME beside other data, a CNAME at the apex and a bad content as conflicts', () => {
    expect(zoneDiff(zone, [{ op: 'add', name: 'www', type: 'A', content: '192.0.2.1' }], [rec(`www.${zone}`, 'CNAME', 'x.example.')], 60).conflict).toContain(
      'a CNAME beside other data at www.example.com (A)',
    )
    expect(zoneDiff(zone, [{ op: 'add', name: '@', type: 'CNAME', content: 'x.example.' }], [], 60).conflict).toBeTruthy()
    expect(zoneDiff(zone, [{ op: 'add', name: 'www', type: 'A', content: 'not an address' }], [], 60).conflict).toBeTruthy()
    // removing the CNAME and adding the address together is no conflict
    const swap = zoneDiff(
      zone,
      [
        { op: 'remove', name: 'www', type: 'CNAME' },
        { op: 'add', name: 'www', type: 'A', content: '192.0.2.1' },
      ],
      [rec(`www.${zone}`, 'CNAME', 'x.example.')],
      60,
    )
    expect(swap.conflict).toBeNull()
    expect(changesOf(swap).map((c) => c.action)).toEqual(['delete', 'add'])
  })

  it('cuts the objects into stages: the canary first, every stage at least one', () => {
    expect(stageEnds(10_000, [1, 10, 100])).toEqual([100, 1000, 10_000])
    expect(stageEnds(3, [1, 10, 100])).toEqual([1, 2, 3])
    expect(stageEnds(1, [1, 10, 100])).toEqual([1, 1, 1])
    expect(stagesProblem([1, 10, 100])).toBeNull()
    expect(stagesProblem([10, 5, 100])).toBeTruthy()
    expect(stagesProblem([10, 50])).toBeTruthy()
  })
})

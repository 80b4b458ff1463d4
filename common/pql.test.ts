import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { filterFromParam, filterToParam, OPERATORS, parsePql, printPql, type Filter } from './pql.ts'

const field = fc.stringMatching(/^[a-z_][a-z0-9_]{0,12}(\.[a-z_][a-z0-9_]{0,8})?$/)
const value = fc.string({ maxLength: 20 })
const filter: fc.Arbitrary<Filter> = fc.record({
  field,
  operator: fc.constantFrom(...OPERATORS),
  values: fc.array(value, { minLength: 1, maxLength: 3 }),
})

describe('pql', () => {
  it('gives back the same filters after printing and parsing', () => {
    fc.assert(
      fc.property(fc.array(filter, { maxLength: 5 }), (filters) => {
        const parsed = parsePql(printPql(filters))
        expect(parsed).toEqual({ ok: true, filters })
      }),
      { numRuns: 500 },
    )
  })

  it('reads the text form of spec §5', () => {
    expect(parsePql("name contains 'acme' and expires_at between '2026-01-01,2026-02-01'")).toEqual({
      ok: true,
      filters: [
        { field: 'name', operator: 'contains', values: ['acme'] },
        { field: 'expires_at', operator: 'between', values: ['2026-01-01', '2026-02-01'] },
      ],
    })
    expect(parsePql("tld equals 'com,net'")).toEqual({ ok: true, filters: [{ field: 'tld', operator: 'equals', values: ['com', 'net'] }] })
    expect(parsePql("name equals 'o\\'neil\\, inc'")).toEqual({ ok: true, filters: [{ field: 'name', operator: 'equals', values: ["o'neil, inc"] }] })
    expect(parsePql('   ')).toEqual({ ok: true, filters: [] })
  })

  it('reports the position and the choices of a syntax error', () => {
    expect(parsePql("name like 'x'")).toMatchObject({ ok: false, error: { code: 'operator', position: 5, expected: [...OPERATORS] } })
    expect(parsePql('name equals x')).toMatchObject({ ok: false, error: { position: 12 } })
    expect(parsePql("name equals 'x")).toMatchObject({ ok: false, error: { message: 'Unterminated quoted value' } })
    expect(parsePql("name equals 'x' or tld equals 'com'")).toMatchObject({ ok: false, error: { code: 'and', position: 16, expected: ['and'] } })
    expect(parsePql("'x'")).toMatchObject({ ok: false, error: { position: 0 } })
  })
})

describe('legacy filter parameters', () => {
  it('maps wildcards, lists and date suffixes', () => {
    expect(filterFromParam('name', '*acme*')).toEqual({ field: 'name', operator: 'contains', values: ['acme'] })
    expect(filterFromParam('name', 'acme*')).toEqual({ field: 'name', operator: 'starts_with', values: ['acme'] })
    expect(filterFromParam('name', '*.com')).toEqual({ field: 'name', operator: 'ends_with', values: ['.com'] })
    expect(filterFromParam('tld', 'com,net')).toEqual({ field: 'tld', operator: 'equals', values: ['com', 'net'] })
    expect(filterFromParam('expires_at_before', '2026-01-01')).toEqual({ field: 'expires_at', operator: 'less_than', values: ['2026-01-01'] })
    expect(filterFromParam('expires_at_after', '2026-01-01')).toEqual({ field: 'expires_at', operator: 'greater_than', values: ['2026-01-01'] })
    expect(filterFromParam('expires_at_between', '2026-01-01,2026-12-31')).toEqual({ field: 'expires_at', operator: 'between', values: ['2026-01-01', '2026-12-31'] })
  })

  it('writes wildcard filters back to the same parameter', () => {
    for (const f of [
      { field: 'name', operator: 'contains', values: ['acme'] },
      { field: 'name', operator: 'starts_with', values: ['acme'] },
      { field: 'name', operator: 'ends_with', values: ['.com'] },
      { field: 'expires_at', operator: 'between', values: ['2026-01-01', '2026-12-31'] },
    ] as Filter[]) {
      const [key, raw] = filterToParam(f)
      expect(filterFromParam(key, raw)).toEqual(f)
    }
  })
})

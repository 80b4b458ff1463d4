import { describe, expect, it } from 'vitest'
import { csvCell } from './csv.ts'

describe('csv cell', () => {
  it('quotes separators and quotes, defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)")
    expect(csvCell(null)).toBe('')
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"')
  })

  it('writes flags as yes/no and lists joined, as a person reads them', () => {
    expect(csvCell(true)).toBe('yes')
    expect(csvCell(false)).toBe('no')
    expect(csvCell(['brand', 'campaign'])).toBe('brand; campaign')
    expect(csvCell([])).toBe('')
    expect(csvCell([{ a: 1 }])).toBe('"[{""a"":1}]"')
  })
})

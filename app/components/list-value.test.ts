import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { createElement, Fragment } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { listValue } from './data-table.tsx'

/** What a list cell reads as: listValue's answer rendered to text. */
const cell = (row: Record<string, unknown>, key: string, lng = 'en', type: 'text' | 'integer' | 'timestamp' | 'boolean' = 'text') =>
  renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      listValue(row, { key, type }, lng, (k) => (k.endsWith('yes') ? 'Yes' : 'No')),
    ),
  ).replace(/<[^>]+>/g, '')

describe('a list shows money and dates one way (issue 28, item 6)', () => {
  it("shows an amount in minor units in the row's currency, grouped, in the user's language", () => {
    expect(cell({ amount_minor: 6398, currency: 'USD' }, 'amount_minor', 'en', 'integer')).toBe('$63.98')
    expect(cell({ total_minor: 174804, currency: 'EUR' }, 'total_minor', 'en', 'integer')).toBe('€1,748.04')
    expect(cell({ total_minor: 174804, currency: 'EUR' }, 'total_minor', 'es', 'integer')).toMatch(/^1\.748,04\s€$/)
  })
  it('shows the API\'s money texts as the formatter writes them, never "USD 63.98"', () => {
    expect(cell({ amount_text: 'USD 63.98' }, 'amount_text')).toBe('$63.98')
    expect(cell({ balance_text: 'EUR 1748.04; USD 0.00' }, 'balance_text')).toBe('€1,748.04 · $0.00')
  })
  it('shows a time as its day, never the raw ISO timestamp', () => {
    const text = cell({ updated_at: '2026-03-05T10:20:30.123Z' }, 'updated_at', 'en', 'timestamp')
    expect(text).toBe('5 Mar 2026')
    expect(cell({ updated_at: '2026-03-05T10:20:30.123Z' }, 'updated_at', 'ja', 'timestamp')).toBe('2026年3月5日')
  })
  it('shows yes or no, lists joined and joined fields', () => {
    expect(cell({ is_default: true }, 'is_default', 'en', 'boolean')).toBe('Yes')
    expect(cell({ tags: ['a', 'b'] }, 'tags')).toBe('a, b')
    expect(cell({ account: { name: 'Acme' } }, 'account.name')).toBe('Acme')
    expect(cell({ name: null }, 'name')).toBe('')
  })
})

const filesUnder = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]))

describe('screens format money through common/money.ts', () => {
  it('no screen writes an amount with toFixed except as the value of a money field', () => {
    // The two form helpers turn minor units into the text a money field takes (spec §5), not a shown amount.
    const allowed = new Set(['app/routes/invoicing/shared.tsx', 'app/routes/tlds/detail.tsx'])
    const offenders = filesUnder('app/routes').filter((f) => f.endsWith('.tsx') && !allowed.has(f) && /\.toFixed\(/.test(readFileSync(f, 'utf8')))
    expect(offenders).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import en from '../../../locales/en/directory.json' with { type: 'json' }
import es from '../../../locales/es/directory.json' with { type: 'json' }
import ja from '../../../locales/ja/directory.json' with { type: 'json' }

/** Every leaf key of a nested messages object, with plural suffixes reduced to their base. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(one|other)$/, '')]
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

describe('directory texts', () => {
  it('has every text in en, es and ja', () => {
    const english = new Set(keys(en))
    expect(new Set(keys(es))).toEqual(english)
    expect(new Set(keys(ja))).toEqual(english)
  })
})

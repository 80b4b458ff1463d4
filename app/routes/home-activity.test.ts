import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import en from '../../locales/en/activity.json' with { type: 'json' }
import es from '../../locales/es/activity.json' with { type: 'json' }
import ja from '../../locales/ja/activity.json' with { type: 'json' }

/** Every audit action code the platform writes as a literal (`action: 'renew'` in change() calls). */
function auditActionCodes(): string[] {
  const codes = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) for (const m of readFileSync(file, 'utf8').matchAll(/\baction: '([a-z0-9_-]+)'/g)) codes.add(m[1]!)
    }
  }
  walk(path.resolve(import.meta.dirname, '../../server/platform'))
  return [...codes].sort()
}

describe('the home page activity phrases (issue 16)', () => {
  it('say every action the platform audits, in en, es and ja alike', () => {
    // The codes of today have their own phrase; one added later reads as "made a change to …" (actions.other) until it gets one.
    const missing = auditActionCodes().filter((code) => !(code in en.actions))
    expect(missing.length, `audit actions without a phrase: ${missing.join(', ')}`).toBeLessThanOrEqual(5)
    expect(en.actions.other).toContain('{{entity}}')
    for (const other of [es, ja]) {
      expect(Object.keys(other.actions).sort()).toEqual(Object.keys(en.actions).sort())
      expect(Object.keys(other.entities).sort()).toEqual(Object.keys(en.entities).sort())
      // A phrase about an entity names it in every language; one about the actor alone in none.
      for (const [code, phrase] of Object.entries(en.actions)) expect(other.actions[code as keyof typeof other.actions].includes('{{entity}}'), code).toBe(phrase.includes('{{entity}}'))
    }
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import en from '../../locales/en/activity.json' with { type: 'json' }
import es from '../../locales/es/activity.json' with { type: 'json' }
import ja from '../../locales/ja/activity.json' with { type: 'json' }
import { groupActivity } from './home-activity.ts'

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

describe('the home page activity folds repeats (issue 28)', () => {
  const entry = (id: number, action: string, entity_id = 'u1', actor_label = 'Ana') => ({
    id: String(id),
    created_at: `2026-11-28T10:${String(60 - id).padStart(2, '0')}:00Z`,
    area: 'users',
    entity_type: 'user',
    entity_id,
    action,
    actor_label,
  })

  it('one actor doing one thing to one entity in a row is one line with its count', () => {
    const entries = [entry(1, 'update'), entry(2, 'update'), entry(3, 'update'), entry(4, 'update'), entry(5, 'update'), entry(6, 'create', 'u2'), entry(7, 'update')]
    const groups = groupActivity(entries, 8)
    expect(groups.map((g) => [g.action, g.entity_id, g.count])).toEqual([
      ['update', 'u1', 5],
      ['create', 'u2', 1],
      ['update', 'u1', 1],
    ])
    expect(groups[0]!.created_at).toBe(entries[0]!.created_at)
    expect(groups[0]!.earliest).toBe(entries[4]!.created_at)
  })

  it('another actor or entity breaks a run, and the lines stop at the limit', () => {
    const entries = [entry(1, 'update'), entry(2, 'update', 'u1', 'Bo'), entry(3, 'update', 'u9'), entry(4, 'update', 'u9'), entry(5, 'renew', 'd1')]
    expect(groupActivity(entries, 8).map((g) => g.count)).toEqual([1, 1, 2, 1])
    expect(groupActivity(entries, 2).map((g) => g.id)).toEqual(['1', '2'])
  })
})

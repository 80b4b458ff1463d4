import { describe, expect, it } from 'vitest'
import { changesText } from './audit-changes.ts'

describe('changesText', () => {
  const changes = { before: { name: 'a', version: 1, note: 'same' }, after: { name: 'b', version: 2, note: 'same', tags: ['x'] } }

  it('says before → after of each field', () => {
    expect(changesText(changes)).toBe('name: "a" → "b"; version: 1 → 2; note: "same" → "same"; tags: null → ["x"]')
  })

  it('leaves out the skipped fields and, when asked, the unchanged ones, up to max', () => {
    expect(changesText(changes, { skip: ['version'], changedOnly: true })).toBe('name: "a" → "b"; tags: null → ["x"]')
    expect(changesText(changes, { max: 1 })).toBe('name: "a" → "b"')
    expect(changesText(null)).toBe('')
  })

  it('shows a field the entity did not have before by its new value alone, when asked', () => {
    expect(changesText(changes, { skip: ['version', 'note'], addedAsValue: true })).toBe('name: "a" → "b"; tags: ["x"]')
  })
})

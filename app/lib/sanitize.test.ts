import { describe, expect, it } from 'vitest'
import { sanitizeRecord, sanitizeText } from './sanitize.ts'

describe('text sanitising', () => {
  it('keeps ordinary text', () => {
    expect(sanitizeText('Acme Corp, 5 rue de la Paix')).toBe('Acme Corp, 5 rue de la Paix')
  })
  it('drops angle brackets, script, img and onerror', () => {
    for (const bad of ['a < b', 'x>y', '<b>bold</b>', 'javascript', 'SCRIPT', 'img src=x', 'onerror=alert(1)', '<img src=x onerror=alert(1)>']) expect(sanitizeText(bad), bad).toBeNull()
  })
  it('drops unsafe fields of a record only', () => {
    expect(sanitizeRecord({ name: 'ok', note: '<script>', n: 3 })).toEqual({ name: 'ok', n: 3 })
  })
})

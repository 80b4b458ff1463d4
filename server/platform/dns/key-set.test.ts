import { describe, expect, it } from 'vitest'
import { KeySet } from './key-set.ts'

describe('KeySet', () => {
  it('answers true for a key it has not had and false for one it has, through several growths', () => {
    const set = new KeySet(16)
    const keys = Array.from({ length: 200_000 }, (_, i) => `h${i}.example\tA\t10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
    expect(keys.every((k) => set.add(k))).toBe(true)
    expect(set.size).toBe(keys.length)
    expect(keys.filter((k) => set.add(k))).toEqual([])
    expect(set.size).toBe(keys.length)
  })

  it('tells apart keys that differ only in order, length or a character beyond the first', () => {
    const set = new KeySet()
    for (const k of ['ab', 'ba', 'a', 'ab\0', 'www\tA\t192.0.2.1', 'www\tA\t192.0.2.2', 'wwW\tA\t192.0.2.1', '']) expect(set.add(k)).toBe(true)
    expect(set.add('ab')).toBe(false)
    expect(set.add('')).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { commonPasswordCount, isCommonPassword } from './common-passwords.ts'

describe('common password list', () => {
  it('holds the 3,000 most common passwords and matches regardless of case', () => {
    expect(commonPasswordCount()).toBe(3000)
    expect(isCommonPassword('123456')).toBe(true)
    expect(isCommonPassword('QWERTY123456')).toBe(true)
    expect(isCommonPassword('correct horse battery staple')).toBe(false)
  })
})

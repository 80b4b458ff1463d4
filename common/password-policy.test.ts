import { describe, expect, it } from 'vitest'
import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy.ts'

const codes = (password: string, context?: Parameters<typeof checkPassword>[1]) => checkPassword(password, context).map((i) => i.code)

describe('password policy', () => {
  it('accepts a long passphrase without composition rules', () => {
    expect(codes('correct horse battery staple')).toEqual([])
    expect(codes('a'.repeat(PASSWORD_MIN_LENGTH))).toEqual([])
  })

  it('refuses empty, short and overlong passwords, counting code points', () => {
    expect(codes('')).toEqual(['password.required'])
    expect(codes('a'.repeat(PASSWORD_MIN_LENGTH - 1))).toEqual(['password.too_short'])
    // 12 emoji are 12 characters though 24 UTF-16 units.
    expect(codes('🔑'.repeat(PASSWORD_MIN_LENGTH))).toEqual([])
    expect(codes('🔑'.repeat(PASSWORD_MIN_LENGTH - 1))).toEqual(['password.too_short'])
    expect(codes('x'.repeat(64))).toEqual([])
    expect(codes('x'.repeat(PASSWORD_MAX_LENGTH + 1))).toEqual(['password.too_long'])
  })

  it('refuses the username, the email or its local part, in any case', () => {
    const identities = ['Long.Username.Here@example.com']
    expect(codes('long.username.here@EXAMPLE.com', { identities })).toEqual(['password.matches_identity'])
    expect(codes('LONG.USERNAME.HERE', { identities })).toEqual(['password.matches_identity'])
    expect(codes('long.username.here!', { identities })).toEqual([])
  })

  it('refuses common passwords through the given check and carries the limits as params', () => {
    expect(codes('qwerty123456', { isCommon: (p) => p === 'qwerty123456' })).toEqual(['password.common'])
    expect(checkPassword('short').at(0)).toMatchObject({ code: 'password.too_short', params: { min: 12 } })
  })
})

/**
 * The password policy of issue 3 (OWASP ASVS 5.0 §6.2): at least 12 characters, at least 64
 * allowed (we allow 128), no composition rules, not the username or email, not among the 3,000
 * most common passwords. Shared by the portal (instant feedback) and the Platform API (the
 * authority). The common-password list lives on the server only, so it is passed in as a check.
 *
 * Each issue carries a stable `code` (`password.too_short`, …) that the portal translates; the
 * English message is the fallback the API sends.
 */
export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 128

export type PasswordIssueCode = 'password.required' | 'password.too_short' | 'password.too_long' | 'password.matches_identity' | 'password.common'

export type PasswordIssue = { code: PasswordIssueCode; message: string; params?: Record<string, number> }

export type PasswordContext = {
  /** Names the user signs in with (username, email); the password may not equal any of them. */
  identities?: readonly (string | null | undefined)[]
  /** True when the password is among the most common ones (the server's list). */
  isCommon?: (password: string) => boolean
}

/** Length in Unicode code points, as ASVS counts characters (an emoji is one). */
export const passwordLength = (password: string) => [...password.normalize('NFKC')].length

/** The issues of a password under the policy; an empty list means it is acceptable. */
export function checkPassword(password: string, context: PasswordContext = {}): PasswordIssue[] {
  if (!password) return [{ code: 'password.required', message: 'Enter a password' }]
  const issues: PasswordIssue[] = []
  const length = passwordLength(password)
  if (length < PASSWORD_MIN_LENGTH) {
    issues.push({ code: 'password.too_short', message: `Use at least ${PASSWORD_MIN_LENGTH} characters`, params: { min: PASSWORD_MIN_LENGTH } })
  }
  if (length > PASSWORD_MAX_LENGTH) {
    issues.push({ code: 'password.too_long', message: `Use at most ${PASSWORD_MAX_LENGTH} characters`, params: { max: PASSWORD_MAX_LENGTH } })
  }
  const folded = fold(password)
  const identities = (context.identities ?? []).filter((v): v is string => !!v).flatMap((v) => [v, v.split('@')[0] ?? ''])
  if (identities.some((identity) => identity.length > 0 && fold(identity) === folded)) {
    issues.push({ code: 'password.matches_identity', message: 'The password may not be your username or email address' })
  }
  if (context.isCommon?.(password)) {
    issues.push({ code: 'password.common', message: 'This password is too common; choose another one' })
  }
  return issues
}

const fold = (value: string) => value.normalize('NFKC').trim().toLowerCase()

import { checkPassword } from '#common/password-policy.ts'
import type { User } from '#server/db/schema.ts'
import { badRequest, type FieldError } from '#server/platform/core/errors.ts'
import { isCommonPassword } from './common-passwords.ts'

/** Field errors of the policy, each with its code for the portal to translate. */
export function assertPasswordPolicy(password: string, user: Pick<User, 'email'>, field = 'password') {
  const issues = checkPassword(password, { identities: [user.email], isCommon: isCommonPassword })
  if (issues.length) {
    const errors = issues.map((i) => ({ field, message: i.message, code: i.code, ...(i.params ? { params: i.params } : {}) }))
    throw badRequest(issues[0]!.message, errors as FieldError[])
  }
}

import { expandPermissions, type Permission } from '#common/permissions.ts'
import type { TFunction } from '#common/translator.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * Mails an account's active users who hold `permission`, each in their own language
 * (`mailTexts`): the expiry notices of domains, certificates and blocks go to the ones who may
 * renew. `write` makes the mail from the user's texts. Returns how many mails were sent.
 */
export async function mailAccountUsers(
  deps: Pick<PlatformDeps, 'db' | 'mailer'>,
  accountId: string,
  permission: Permission,
  write: (t: TFunction) => { subject: string; text: string },
): Promise<number> {
  const users = await deps.db.selectFrom('users').select(['email', 'roles', 'abilities', 'language']).where('account_id', '=', accountId).where('status', '=', 'active').execute()
  let sent = 0
  for (const user of users) {
    if (!expandPermissions(user.roles, user.abilities).has(permission)) continue
    await deps.mailer.send({ to: user.email, ...write(mailTexts(user.language)) })
    sent++
  }
  return sent
}

/** A notice listing things, from its texts under `key` (`locales/*\/mail.json`): `subject` counted by the lines, `intro`, the lines, `outro`. */
export const listMail = (t: TFunction, key: string, lines: string[]) => ({
  subject: t(`${key}.subject`, { count: lines.length }),
  text: `${t(`${key}.intro`)}\n\n${lines.join('\n')}\n\n${t(`${key}.outro`)}`,
})

import en from '../../../locales/en/auth.json' with { type: 'json' }

/** The texts of the sign-in screens (locales/<lng>/auth.json), handed by loaders to their screens. */
export type AuthMessages = typeof en

/** Replaces {{name}} placeholders. */
export const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''))

/** The localised text of a password policy code such as `password.too_short`. */
export function passwordMessage(messages: AuthMessages, code: string): string {
  const key = code.replace(/^password\./, '') as keyof AuthMessages['password']
  return messages.password[key] ?? messages.password.invalid
}

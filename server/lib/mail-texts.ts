import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { Translator, type Resources, type TFunction } from '#common/translator.ts'

/**
 * The texts of the mails the platform sends, in the recipient's language: `locales/<lng>/mail.json`
 * (the `mail` namespace; the portal's screens never load it), read once at start and resolved by
 * the same Translator as the screens — a language without the file, or a key it lacks, falls back
 * along pt-BR → pt → en.
 */
const LOCALES = new URL('../../locales/', import.meta.url)
const resources: Resources = {}
for (const lng of readdirSync(LOCALES)) {
  const file = new URL(`${lng}/mail.json`, LOCALES)
  if (existsSync(file)) resources[lng] = { mail: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> }
}
const translator = new Translator('en', resources, { defaultNS: 'mail', fallbackLng: 'en' })

/** The mail texts in `language` (a user's, an account's or a billing entity's); English when unknown. */
export const mailTexts = (language: string | null | undefined): TFunction => translator.getFixedT(language || 'en', 'mail')

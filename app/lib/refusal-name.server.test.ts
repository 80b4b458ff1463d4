import i18next from 'i18next'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { refusalErrors } from './refusal.server.ts'

// Issue 26 item 11: a name the API refuses by an IDN rule of its own (its `name_error`) is said
// beside the name in the user's language, not as "not a valid domain name".

const NAMESPACES = ['domains', 'orders'] as const
const messages = (lng: string) => Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(new URL(`../../locales/${lng}/${ns}.json`, import.meta.url), 'utf8'))]))

async function translator(lng: string) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng, fallbackLng: 'en', resources: { en: messages('en'), es: messages('es'), ja: messages('ja') }, interpolation: { escapeValue: false } })
  return i18n.t
}

const refused = (nameError: string) => ({ code: 'invalid-request', reason: 'invalid-name', name_error: nameError, errors: [{ field: 'name', message: 'Invalid domain name' }] })

describe('an IDN refusal beside the name', () => {
  it.each([
    ['en', 'label-invisible', /invisible character/],
    ['es', 'label-invisible', /carácter invisible/],
    ['ja', 'label-invisible', /見えない文字/],
    ['en', 'label-mixed-scripts', /mixes scripts/],
    ['es', 'label-script', /no admite etiquetas en esta escritura/],
    ['ja', 'label-context', /使えない位置/],
  ])('%s: %s', async (lng, code, text) => {
    const { fieldErrors } = refusalErrors(await translator(lng), refused(code), ['name'])
    expect(fieldErrors.name?.[0]).toMatch(text)
  })
  it('an unknown name error says the reason as before', async () => {
    const { fieldErrors } = refusalErrors(await translator('en'), refused('label-something-new'), ['name'])
    expect(fieldErrors.name?.[0]).toBe('This is not a valid domain name.')
  })
})

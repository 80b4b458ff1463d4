import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en/directory.json' with { type: 'json' }
import es from '../../../locales/es/directory.json' with { type: 'json' }
import ja from '../../../locales/ja/directory.json' with { type: 'json' }
import { problemErrors } from './directory.tsx'

async function translator(lng: string) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng, fallbackLng: 'en', resources: { en: { directory: en }, es: { directory: es }, ja: { directory: ja } }, interpolation: { escapeValue: false } })
  return i18n.t
}

/** Every leaf key of a nested messages object, with plural suffixes reduced to their base. */
function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(one|other)$/, '')]
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

describe('directory API errors as form messages', () => {
  it('puts each coded field error beside its field, in the user language', async () => {
    const t = await translator('es')
    const body = { code: 'invalid-request', errors: [{ field: 'phone', code: 'phone.invalid', message: 'Not E.164' }, { field: 'country_code', code: 'country.invalid', message: 'Bad' }] }
    expect(problemErrors(body, t, ['phone', 'country_code'])).toEqual({
      fieldErrors: { phone: ['Introduzca el número en formato internacional, p. ej. +34 600 123 456'], country_code: ['Elija un país de la lista'] },
      formErrors: [],
    })
  })

  it('maps array items to their field and unknown fields to the form', async () => {
    const t = await translator('ja')
    const body = { code: 'user.own_roles', errors: [{ field: 'roles.2', code: 'permission.invalid', message: 'x' }, { field: 'version', code: 'version.conflict', message: 'y' }] }
    const out = problemErrors(body, t, ['roles'])
    expect(out.fieldErrors).toEqual({ roles: ['ロールまたは権限の名前として無効です'] })
    expect(out.formErrors).toEqual(['この間に他の人がこのレコードを変更しました。ページを再読み込みして変更を確認してから、もう一度お試しください。'])
  })

  it('uses the problem code when no field errors come, and the English message for a new code', async () => {
    const t = await translator('en')
    expect(problemErrors({ code: 'contact.in_use', detail: 'used' }, t, []).formErrors).toEqual(['This contact is used by domains and cannot be deleted. Replace it on those domains first.'])
    expect(problemErrors({ code: 'brand.new_rule', detail: 'A rule the portal does not know yet' }, t, []).formErrors).toEqual(['A rule the portal does not know yet'])
  })

  it('has every text in en, es and ja', () => {
    const english = new Set(keys(en))
    expect(new Set(keys(es))).toEqual(english)
    expect(new Set(keys(ja))).toEqual(english)
  })
})

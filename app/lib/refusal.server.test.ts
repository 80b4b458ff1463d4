import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { PlatformError } from './platform-client.ts'
import { attempt, refusalErrors, refusalOf, refusalText } from './refusal.server.ts'
import { addTextFormats, Translator } from '#common/translator.ts'

const NAMESPACES = ['directory', 'domains', 'orders', 'billing'] as const
const messages = (lng: string) => Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(readFileSync(new URL(`../../locales/${lng}/${ns}.json`, import.meta.url), 'utf8'))]))

async function translator(lng: string) {
  const i18n = i18next.createInstance()
  await i18n.init({ lng, fallbackLng: 'en', resources: { en: messages('en'), es: messages('es'), ja: messages('ja') }, interpolation: { escapeValue: false } })
  addTextFormats(i18n)
  return i18n.t
}

describe('a refusal as form errors', () => {
  it('puts each coded field error beside its field, in the user language', async () => {
    const t = await translator('es')
    const body = {
      code: 'invalid-request',
      errors: [
        { field: 'phone', code: 'phone.invalid', message: 'Not E.164' },
        { field: 'country_code', code: 'country.invalid', message: 'Bad' },
      ],
    }
    expect(refusalErrors(t, body, ['phone', 'country_code'])).toEqual({
      fieldErrors: { phone: ['Introduzca el número en formato internacional, p. ej. +34 600 123 456'], country_code: ['Elija un país de la lista'] },
      formErrors: [],
    })
  })

  it('maps array items to their field and unknown fields to the form', async () => {
    const t = await translator('ja')
    const body = {
      code: 'user.own_roles',
      errors: [
        { field: 'roles.2', code: 'permission.invalid', message: 'x' },
        { field: 'version', code: 'version.conflict', message: 'y' },
      ],
    }
    const out = refusalErrors(t, body, ['roles'])
    expect(out.fieldErrors).toEqual({ roles: ['ロールまたは権限の名前として無効です'] })
    expect(out.formErrors).toEqual(['この間に他の人がこのレコードを変更しました。ページを再読み込みして変更を確認してから、もう一度お試しください。'])
  })

  it('uses the problem code when no field errors come, and the English message for a new code', async () => {
    const t = await translator('en')
    expect(refusalErrors(t, { code: 'contact.in_use', detail: 'used' }, []).formErrors).toEqual(['This contact is used by domains and cannot be deleted. Replace it on those domains first.'])
    expect(refusalErrors(t, { code: 'brand.new_rule', detail: 'A rule the portal does not know yet' }, []).formErrors).toEqual(['A rule the portal does not know yet'])
  })
})

describe('a refusal as one sentence', () => {
  it('says an order reason, a domain code and an unknown refusal with its fields', async () => {
    const t = await translator('en')
    expect(refusalText(t, { reason: 'period-not-allowed', allowed_periods: [1, 2] })).toContain('1 year')
    expect(refusalText(t, { code: 'domain.registry_locked', detail: 'locked' })).toMatch(/^The registry lock is on/)
    // A domain delete the registry refuses for its host objects (EPP 2305), naming them, in each language.
    const hosts = { code: 'domain.subordinate_hosts', detail: 'refused', domain: 'example.com', hosts: 'ns1.example.com, ns2.example.com' }
    expect(refusalText(t, hosts)).toBe(
      'example.com cannot be deleted: the registry holds name servers under it (ns1.example.com, ns2.example.com), which other domains may use. Delete those name servers or rename them out of example.com first, then delete it. Nothing was deleted.',
    )
    expect(refusalText(await translator('es'), hosts)).toMatch(/^No se puede eliminar example\.com: .*\(ns1\.example\.com, ns2\.example\.com\)/)
    expect(refusalText(await translator('ja'), hosts)).toMatch(/^example\.com は削除できません。.*（ns1\.example\.com, ns2\.example\.com）/)
    expect(refusalText(t, { code: 'new.code', detail: 'Nope', errors: [{ field: 'name', message: 'Too long' }] })).toBe('Nope — Too long')
    expect(refusalText(t, { code: 'new.code', detail: 'Nope', errors: [{ field: 'name', message: 'Too long' }] }, { withFields: false })).toBe('Nope')
    // A class of refusal says less than the detail: the detail first, the class's words without one.
    expect(refusalText(t, { code: 'invalid-request', detail: 'The replacement must be an IPv4 address' }, { withFields: false })).toBe('The replacement must be an IPv4 address')
    expect(refusalText(t, { code: 'conflict' })).toBe('This conflicts with an existing record')
  })

  it("writes a shortfall's sums in the user's language, on the server and in the browser alike", async () => {
    // The API says the sums as text ("USD 9.99"); the words write them as the screens' amounts do.
    const funds = { code: 'billing.insufficient_funds', detail: 'Short', shortfall: 'USD 1234.5', available: 'USD 5.00; JPY 3900' }
    expect(refusalText(await translator('en'), funds)).toMatch(/^The order goes past the balance or credit limit by \$1,234\.50 \(available: \$5\.00 · ¥3,900\)/)
    expect(refusalText(await translator('es'), funds)).toMatch(/^El pedido supera el saldo o el límite de crédito en 1\.234,50\sUS\$ \(disponible: 5,00\sUS\$ · 3\.900\sJPY\)/)
    expect(refusalText(await translator('ja'), funds)).toMatch(/^注文が残高または与信限度額を \$1,234\.50 超えています（利用可能額：\$5\.00 · ￥3,900）/)
    const browser = new Translator('es', { es: messages('es'), en: messages('en') }).getFixedT(null)
    expect(browser('billing:errors.billing.insufficient_funds', funds)).toBe(refusalText(await translator('es'), funds))
  })
})

describe('which failures are refusals', () => {
  it('takes a 4xx, throws a 5xx, anything else and the statuses shown as screens', async () => {
    const refused = new PlatformError(409, { code: 'version.conflict', detail: 'changed' }, 'Conflict')
    expect(refusalOf(refused)).toEqual({ ok: false, status: 409, problem: { code: 'version.conflict', detail: 'changed' } })
    expect(() => refusalOf(new PlatformError(502, null, 'Bad gateway'))).toThrow()
    expect(() => refusalOf(new Error('bug'))).toThrow('bug')
    expect(() => refusalOf(new PlatformError(404, { detail: 'gone' }, 'Not found'), { screens: [403, 404] })).toThrow()
    expect(await attempt(async () => 1)).toEqual({ ok: true, value: 1 })
    expect(await attempt(() => Promise.reject(refused))).toMatchObject({ ok: false, status: 409 })
  })
})

import { describe, expect, it } from 'vitest'
import { mailTexts } from './mail-texts.ts'

// Every mail the platform sends is written from these texts: each is there in every language with
// screens (a missing one would fall back to English in the middle of a Japanese mail).
const KEYS: [string, Record<string, unknown>?][] = [
  ['reset.subject'],
  ['reset.body', { name: 'Ada', link: 'https://portal.test/reset?token=t' }],
  ['invite.subject'],
  ['invite.body', { link: 'https://portal.test/invitations/t' }],
  ['expiry.subject', { count: 1 }],
  ['expiry.subject', { count: 3 }],
  ['expiry.line', { name: 'example.com', date: '2026-12-01', count: 5, renewal: '…' }],
  ['expiry.autoRenewOn'],
  ['expiry.autoRenewOff'],
  ['expiry.outro'],
  ['approval.subject', { domain: 'example.com' }],
  ['approval.intro', { who: 'Ada', domain: 'example.com' }],
  ['approval.link', { until: '2026-12-01 10:00' }],
  ['priceRise.subject', { date: '2026-12-01', account: 'Acme' }],
  ['priceRise.intro', { date: '2026-12-01', account: 'Acme' }],
  ['priceRise.outro', { date: '2026-12-01' }],
  ['lowBalance.subject', { entity: 'Acme', currency: 'EUR' }],
  ['lowBalance.body', { entity: 'Acme', currency: 'EUR', balance: '€10.00', threshold: '€50.00', available: '€60.00' }],
  ['invoice.subject_invoice', { number: 'ACME-2026-1' }],
  ['invoice.subject_credit', { number: 'ACME-2026-2' }],
  ['invoice.body', { document: 'Invoice ACME-2026-1', seller: 'Registrar', amount: '€12.00', due: '2026-12-31', entity: 'Acme' }],
  ['invoice.body_credit', { document: 'Credit note CN-2026-000001', seller: 'Registrar', amount: '-€12.00', entity: 'Acme' }],
  ['sslExpiry.subject', { count: 3 }],
  ['sslExpiry.line', { name: 'www.example.com', date: '2026-12-01', count: 7 }],
  ['sslExpiry.intro'],
  ['sslExpiry.outro'],
  ['blockExpiry.subject', { count: 3 }],
  ['blockExpiry.line', { label: 'acmeshield', product: 'block:dpml:order', date: '2026-12-01', count: 7 }],
  ['blockExpiry.intro'],
  ['blockExpiry.outro'],
  ['webhookDisabled.subject'],
  ['webhookDisabled.body', { url: 'https://hooks.example/in', reason: '410 Gone' }],
]

describe('mail texts', () => {
  it('are written in en, es and ja, each its own, with every value in place', () => {
    for (const [key, values] of KEYS) {
      const texts = ['en', 'es', 'ja'].map((lng) => mailTexts(lng)(key, values))
      for (const text of texts) {
        expect(text, key).not.toBe(key)
        expect(text, key).not.toMatch(/\{\{/)
        for (const value of Object.values(values ?? {})) if (key !== 'expiry.subject' || value !== 1) expect(text, key).toContain(String(value))
      }
      expect(new Set(texts).size, key).toBe(3)
    }
  })

  it('fall back to English for a language without its own mails, and for none', () => {
    expect(mailTexts('de')('invite.subject')).toBe(mailTexts('en')('invite.subject'))
    expect(mailTexts(null)('expiry.subject', { count: 2 })).toBe('2 domains expiring soon')
    expect(mailTexts('ja')('expiry.subject', { count: 1 })).toContain('1 件')
  })
})

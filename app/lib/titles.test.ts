import type { RouteConfigEntry } from '@react-router/dev/routes'
import { describe, expect, it } from 'vitest'
import en from '../../locales/en/common.json' with { type: 'json' }
import es from '../../locales/es/common.json' with { type: 'json' }
import ja from '../../locales/ja/common.json' with { type: 'json' }
import routes from '../routes.ts'
import { pageTitle } from './titles.ts'

const labelsOf = (labels: Record<string, string>) => (segment: string) => labels[segment] ?? null
const title = (pathname: string, pageName?: string | null, labels: Record<string, string> = en.segments) =>
  pageTitle({ pathname, pageName, productShortName: 'Registrar', segmentLabel: labelsOf(labels) })
const ID = '0b4f3c7e-6a5d-4c1b-9f2e-8d7a6b5c4d3e'

describe('page title (spec §2: page name, the path segments reversed, the product short name)', () => {
  it('names a screen reached by words after its last word, whatever name the screen gives itself', () => {
    expect(title('/domains/dns-log', 'Every DNS change')).toBe('DNS log - Domains - Registrar')
    expect(title('/reports/dns-records', 'Reports')).toBe('DNS records - Reports - Registrar')
    expect(title('/accounts/log')).toBe('Log - Accounts - Registrar')
    expect(title('/domains')).toBe('Domains - Registrar')
    expect(title('/login')).toBe('Sign in - Registrar')
    expect(title('/reset')).toBe('Reset password - Registrar')
    expect(title('/api/reference')).toBe('API reference - API documentation - Registrar')
  })

  it('names a screen about one thing after the thing, and leaves the parameters out', () => {
    expect(title(`/domains/${ID}`, 'example.com')).toBe('example.com - Domains - Registrar')
    expect(title(`/domains/${ID}/dnssec`, 'example.com')).toBe('example.com - DNSSEC - Domains - Registrar')
    expect(title(`/domains/${ID}/dns-statistics`, 'example.com')).toBe('example.com - DNS statistics - Domains - Registrar')
    // An invitation token is a parameter too: never shown in a tab title.
    expect(title('/invitations/Zm9vYmFyLXRva2VuLXRoYXQtaXMtc2VjcmV0', 'Accept your invitation')).toBe('Accept your invitation - Invitation - Registrar')
  })

  it('falls back to Portal, and does not repeat an entry equal to the one before it', () => {
    expect(title('/')).toBe('Portal - Registrar')
    expect(title(`/watch/${ID}/cases`)).toBe('Portal - Cases - Watch - Registrar')
    expect(title(`/approvals/${ID}`, 'Material change approval')).toBe('Material change approval - Registrar')
  })

  it('reads the labels of the language', () => {
    expect(title('/domains/dns-log', null, es.segments)).toBe('Registro DNS - Dominios - Registrar') // (the short name is the caller's: Registrador in es)
    expect(title(`/domains/${ID}/dnssec`, 'example.com', ja.segments)).toBe('example.com - DNSSEC - ドメイン - Registrar')
  })

  it('knows every word of every route in en, es and ja (an unknown one would be taken for a parameter)', () => {
    const words = new Set<string>()
    const visit = (entries: RouteConfigEntry[]) => {
      for (const entry of entries) {
        for (const segment of entry.path?.split('/') ?? []) if (segment && !segment.startsWith(':') && segment !== '*') words.add(segment)
        visit(entry.children ?? [])
      }
    }
    visit(routes)
    // Resource routes (no page, no title) are left out.
    for (const resource of ['preferences', 'theme', 'language', 'permission-view', 'items', 'export']) words.delete(resource)
    expect(words.size).toBeGreaterThan(40)
    for (const labels of [en.segments, es.segments, ja.segments]) {
      expect([...words].filter((word) => !(word in labels))).toEqual([])
    }
  })
})

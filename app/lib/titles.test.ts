import { describe, expect, it } from 'vitest'
import { humanizeSegment, pageTitle } from './titles.ts'

describe('page title', () => {
  it('is page name, reversed path segments, product short name', () => {
    expect(pageTitle({ pageName: 'Audit log', pathname: '/accounts/log', productShortName: 'Registrar' })).toBe('Audit log - Log - Accounts - Registrar')
  })

  it('falls back to Portal and skips ids', () => {
    expect(pageTitle({ pathname: '/domains/0b4f3c7e-6a5d-4c1b-9f2e-8d7a6b5c4d3e/dns-log', productShortName: 'Registrar' })).toBe(
      'Portal - Dns log - Domains - Registrar',
    )
    expect(pageTitle({ pageName: '  ', pathname: '/', productShortName: 'Registrar' })).toBe('Portal - Registrar')
  })

  it('does not repeat a segment that equals the page name', () => {
    expect(pageTitle({ pageName: 'Domains', pathname: '/domains', productShortName: 'Registrar' })).toBe('Domains - Registrar')
  })

  it('uses the translated segment labels', () => {
    const labels: Record<string, string> = { accounts: 'Cuentas', log: 'Registro' }
    expect(pageTitle({ pageName: 'Registro', pathname: '/accounts/log', productShortName: 'Registrar', segmentLabel: (s) => labels[s] ?? s })).toBe(
      'Registro - Cuentas - Registrar',
    )
  })

  it('humanizes segments', () => {
    expect(humanizeSegment('registrar-templates')).toBe('Registrar templates')
    expect(humanizeSegment('')).toBe('')
  })
})

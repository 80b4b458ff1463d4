import { describe, expect, it } from 'vitest'
import { areaForPath, isProspectOnly, visibleAreas } from './navigation.ts'

describe('area navigation', () => {
  it('shows areas by viewer role; admin roles expand to viewer', () => {
    const keys = visibleAreas({ roles: ['domain-admin', 'invoice-viewer'], abilities: [] }).map((a) => a.key)
    expect(keys).toEqual(['pulse', 'domains', 'blocks', 'tlds', 'changeSets', 'invoicing', 'reports'])
  })

  it('shows every area to staff, and hides what the view settings hide', () => {
    expect(visibleAreas({ roles: ['staff'], abilities: [] })).toHaveLength(16)
    expect(visibleAreas({ roles: ['staff'], abilities: [] }, { hiddenPermissions: { staff: true }, highlightColors: {} })).toHaveLength(0)
  })

  it('shows watch and brand protection to brand-viewer, intelligence to prospect-viewer, reports to a reader of the portfolio (decision 025)', () => {
    const keys = (roles: string[]) => visibleAreas({ roles, abilities: [] }).map((a) => a.key)
    expect(keys(['brand-manager'])).toEqual(['watch', 'brandProtection'])
    expect(keys(['prospect-viewer'])).toEqual(['intelligence'])
    expect(keys(['ssl-viewer'])).toEqual(['ssl', 'reports'])
    expect(keys(['watch-viewer', 'report-viewer', 'intelligence-viewer'])).toEqual([])
  })

  it('finds the area of a path by its longest prefix', () => {
    expect(areaForPath('/domains/search/records')?.key).toBe('dns')
    expect(areaForPath('/domains/abc/log')?.key).toBe('domains')
    expect(areaForPath('/my-profile')).toBeNull()
  })

  it('sends prospect viewers without brand-viewer or staff to intelligence', () => {
    expect(isProspectOnly({ roles: ['prospect-viewer'], abilities: [] })).toBe(true)
    expect(isProspectOnly({ roles: ['prospect-viewer', 'brand-viewer'], abilities: [] })).toBe(false)
    expect(isProspectOnly({ roles: ['prospect-viewer', 'staff'], abilities: [] })).toBe(false)
  })
})

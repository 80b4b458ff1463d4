import { describe, expect, it } from 'vitest'
import {
  ABILITIES,
  ABILITY_NAMES,
  expandAbilities,
  expandPermissions,
  expandRoles,
  GRANTABLE_ROLES,
  hasPermission,
  isPermission,
  isStaffInContext,
  KNOWN_ROLES,
  onlyStaffGrants,
  PERMISSION_NAMES,
  permissionLabel,
  ROLE_AREAS,
  ROLE_LEVELS,
  ROLE_NAMES,
  ROLES,
  rolesGrantableBy,
  type Permission,
} from './permissions.ts'

describe('the permission registry', () => {
  it('names every role of an area at its three levels, with its area, level and label', () => {
    for (const area of ROLE_AREAS) for (const level of ROLE_LEVELS) expect(ROLES[`${area}-${level}`]).toEqual({ area, level, grantedBy: expect.any(String), label: `status.role.${area}-${level}` })
    expect(ROLE_NAMES).toHaveLength(1 + ROLE_AREAS.length * ROLE_LEVELS.length)
    expect(ROLES.staff).toMatchObject({ grantedBy: 'staff', label: 'status.role.staff' })
  })

  it('holds the names spec §6 saw, watch and intelligence under them, and none of the names we decided against (decision 025)', () => {
    for (const name of ['prospect-viewer', 'brand-viewer', 'staff']) expect(isPermission(name)).toBe(true)
    for (const name of ['watch-viewer', 'report-viewer', 'intelligence-viewer', 'wizard-admin', 'viewDomains', '']) expect(isPermission(name)).toBe(false)
    expect(isPermission('toString')).toBe(false)
    expect(KNOWN_ROLES.has('brand-manager')).toBe(true)
  })

  it("expands every role and ability only into the registry's own names", () => {
    for (const name of ROLE_NAMES) for (const granted of expandRoles([name])) expect(isPermission(granted), `${name} grants ${granted}`).toBe(true)
    for (const name of ABILITY_NAMES) for (const granted of expandAbilities([name])) expect(isPermission(granted), `${name} grants ${granted}`).toBe(true)
    // The API's name rule (lower case, users/service.ts) holds for every name; an ability is manage-… or view-….
    for (const name of ABILITY_NAMES) expect(name).toMatch(/^(manage|view)-[a-z][a-z0-9-]*$/)
    for (const name of ROLE_NAMES) expect(name).toMatch(/^(staff|[a-z]+-(admin|manager|viewer))$/)
    expect(Object.values(ABILITIES).map((a) => a.label)).toEqual(ABILITY_NAMES.map((name) => `status.ability.${name}`))
    expect(PERMISSION_NAMES).toEqual([...ROLE_NAMES, ...ABILITY_NAMES])
    expect(PERMISSION_NAMES.map(permissionLabel)).toEqual([...Object.values(ROLES), ...Object.values(ABILITIES)].map((entry) => entry.label))
  })

  it('lets an account admin grant every role but staff and the prospect roles; staff grant them all', () => {
    expect(GRANTABLE_ROLES).toEqual(ROLE_NAMES.filter((name) => name !== 'staff' && !name.startsWith('prospect-')))
    expect(GRANTABLE_ROLES).toEqual(expect.arrayContaining(['brand-admin', 'brand-manager', 'brand-viewer', 'invoice-admin']))
    expect(rolesGrantableBy(false)).toBe(GRANTABLE_ROLES)
    expect(rolesGrantableBy(true)).toEqual(ROLE_NAMES)
    expect(['staff', 'prospect-admin', 'prospect-viewer'].map(onlyStaffGrants)).toEqual([true, true, true])
    expect(['brand-viewer', 'domain-admin', 'manage-report-schedules', 'wizard-admin'].map(onlyStaffGrants)).toEqual([false, false, false, false])
  })
})

describe('the expansion of spec §6', () => {
  it('grants -manager and -viewer from -admin, -viewer from -manager, view… from manage…', () => {
    expect(expandRoles(['brand-admin']).sort()).toEqual(['brand-admin', 'brand-manager', 'brand-viewer'])
    expect(expandRoles(['dns-manager']).sort()).toEqual(['dns-manager', 'dns-viewer'])
    expect(expandRoles(['ssl-viewer', 'staff'])).toEqual(['ssl-viewer', 'staff'])
    expect(expandAbilities(['manage-report-schedules'])).toEqual(['manage-report-schedules', 'view-report-schedules'])
    expect(expandAbilities(['view-report-schedules'])).toEqual(['view-report-schedules'])
  })

  it('checks a name against the expanded roles and abilities, and hiding unless ignored', () => {
    const user = { roles: ['domain-admin'], abilities: ['manage-report-schedules'] }
    expect(expandPermissions(user.roles, user.abilities)).toBe(expandPermissions(user.roles, user.abilities))
    const yes: Permission[] = ['domain-admin', 'domain-manager', 'domain-viewer', 'manage-report-schedules', 'view-report-schedules']
    const no: Permission[] = ['dns-viewer', 'staff', 'brand-viewer']
    for (const name of yes) expect(hasPermission(user, name)).toBe(true)
    for (const name of no) expect(hasPermission(user, name)).toBe(false)
    const view = { hiddenPermissions: { 'domain-viewer': true }, highlightColors: {} }
    expect(hasPermission(user, 'domain-viewer', { view })).toBe(false)
    expect(hasPermission(user, 'domain-viewer', { view, ignoreHidden: true })).toBe(true)
  })

  it('makes staff staff in their own group only', () => {
    const staff = { roles: ['staff'], abilities: [], group_id: 'g1' }
    expect(isStaffInContext(staff, null)).toBe(true)
    expect(isStaffInContext(staff, 'g1')).toBe(true)
    expect(isStaffInContext(staff, 'g2')).toBe(false)
    expect(isStaffInContext({ ...staff, roles: ['domain-admin'] }, 'g1')).toBe(false)
  })
})

import { hasPermission, type Permission, type PermissionView } from '#common/permissions.ts'

export type AreaKey =
  'pulse' | 'domains' | 'dns' | 'ssl' | 'tlds' | 'contacts' | 'accounts' | 'users' | 'watch' | 'brandProtection' | 'blocks' | 'intelligence' | 'reports' | 'products' | 'invoicing' | 'changeSets'

/** The side navigation's sections, in order (issue 28: fifteen areas do not fit a top bar). */
export const AREA_GROUPS = ['overview', 'portfolio', 'protection', 'business', 'directory'] as const
export type AreaGroup = (typeof AREA_GROUPS)[number]

export type Area = {
  key: AreaKey
  /** The navigation section the area is listed in. */
  group: AreaGroup
  /** Where the navigation entry leads. */
  href: string
  /** Path prefixes that belong to the area (for the active mark and the area's permission check). */
  prefixes: string[]
  /** Any one of these permissions (names of the registry, common/permissions.ts) shows the area; "staff" alone marks a staff-only area. */
  anyOf: Permission[]
}

/**
 * THE map of which permission shows which area (spec §6 leaves per-route permissions open, so
 * this is our decision): a viewer role of the area (managers and admins expand to it), or staff.
 * Products is staff-only. The same map guards the area's routes, so hiding a permission in the
 * view settings hides the entry and closes the screens alike. Watch and brand protection are
 * brand-viewer's, intelligence prospect-viewer's (spec §6's names); pulse and reports add no role:
 * they show the portfolio's data to whoever reads it (decision 025).
 */
export const AREAS: readonly Area[] = [
  { key: 'pulse', group: 'overview', href: '/pulse', prefixes: ['/pulse'], anyOf: ['domain-viewer', 'staff'] },
  { key: 'domains', group: 'portfolio', href: '/domains', prefixes: ['/domains'], anyOf: ['domain-viewer', 'staff'] },
  { key: 'dns', group: 'portfolio', href: '/domains/search/records', prefixes: ['/domains/search/records', '/domains/dns-log'], anyOf: ['dns-viewer', 'staff'] },
  { key: 'ssl', group: 'portfolio', href: '/ssls', prefixes: ['/ssls'], anyOf: ['ssl-viewer', 'staff'] },
  { key: 'blocks', group: 'portfolio', href: '/blocks', prefixes: ['/blocks'], anyOf: ['domain-viewer', 'staff'] },
  { key: 'tlds', group: 'portfolio', href: '/tlds', prefixes: ['/tlds'], anyOf: ['domain-viewer', 'staff'] },
  // A change set is read with the viewer of what it changes: zones (dns-viewer) or domains (domain-viewer); decision 030.
  { key: 'changeSets', group: 'portfolio', href: '/change-sets', prefixes: ['/change-sets'], anyOf: ['dns-viewer', 'domain-viewer', 'staff'] },
  { key: 'watch', group: 'protection', href: '/watch', prefixes: ['/watch'], anyOf: ['brand-viewer', 'staff'] },
  { key: 'brandProtection', group: 'protection', href: '/brand-protection', prefixes: ['/brand-protection'], anyOf: ['brand-viewer', 'staff'] },
  { key: 'intelligence', group: 'protection', href: '/intelligence', prefixes: ['/intelligence'], anyOf: ['prospect-viewer', 'staff'] },
  { key: 'products', group: 'business', href: '/products', prefixes: ['/products'], anyOf: ['staff'] },
  { key: 'invoicing', group: 'business', href: '/invoicing', prefixes: ['/invoicing'], anyOf: ['invoice-viewer', 'staff'] },
  { key: 'reports', group: 'business', href: '/reports', prefixes: ['/reports'], anyOf: ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'staff'] },
  { key: 'accounts', group: 'directory', href: '/accounts', prefixes: ['/accounts'], anyOf: ['account-viewer', 'staff'] },
  { key: 'users', group: 'directory', href: '/users', prefixes: ['/users'], anyOf: ['user-viewer', 'staff'] },
  { key: 'contacts', group: 'directory', href: '/contacts', prefixes: ['/contacts'], anyOf: ['contact-viewer', 'staff'] },
]

type User = { roles: readonly string[]; abilities: readonly string[] }

export const canSeeArea = (user: User, area: Area, view?: PermissionView) => area.anyOf.some((p) => hasPermission(user, p, { view }))

/** The areas a user sees in the navigation, in menu order. */
export const visibleAreas = (user: User, view?: PermissionView) => AREAS.filter((a) => canSeeArea(user, a, view))

/** The area a path belongs to (longest prefix wins, so DNS paths under /domains are DNS). */
export function areaForPath(pathname: string): Area | null {
  let best: Area | null = null
  let bestLength = -1
  for (const area of AREAS) {
    for (const prefix of area.prefixes) {
      if ((pathname === prefix || pathname.startsWith(`${prefix}/`)) && prefix.length > bestLength) {
        best = area
        bestLength = prefix.length
      }
    }
  }
  return best
}

/** Spec §2: prospect-viewer without brand-viewer or staff lives in intelligence. */
export const isProspectOnly = (user: User, view?: PermissionView) =>
  hasPermission(user, 'prospect-viewer', { view }) && !hasPermission(user, 'brand-viewer', { view }) && !hasPermission(user, 'staff', { view })

/**
 * THE permission registry (decision 025): every role and ability the portal and the Platform API
 * check is named once here, with its area, its level and the i18n key of its label
 * (`common:status.role.<name>`, `common:status.ability.<name>`). `Role`, `Ability` and
 * `Permission` are typed from it, so a check of an unknown name is a type error, and
 * `npm run lint` refuses one too (the `permissions/known-name` rule, eslint.config.js).
 *
 * The rules of spec §6 on top of it:
 * - an ability starting with "manage" also grants the matching "view" ability;
 * - a role ending in "-admin" grants "-manager" and "-viewer" of the same prefix;
 * - a role ending in "-manager" grants "-viewer".
 */

/** The areas roles are about (the prefix of a role's name), in the roles screen's order. */
export const ROLE_AREAS = ['account', 'user', 'contact', 'domain', 'dns', 'ssl', 'invoice', 'brand', 'prospect'] as const
export type RoleArea = (typeof ROLE_AREAS)[number]
export const ROLE_LEVELS = ['admin', 'manager', 'viewer'] as const
export type RoleLevel = (typeof ROLE_LEVELS)[number]

/**
 * Who hands a role out: `admin`, an account's user admin (user-admin) to the account's people;
 * `staff`, staff only (the registrar's own roles).
 */
export type Grantor = 'admin' | 'staff'

type RoleEntry = { area: RoleArea | 'staff'; level: RoleLevel | 'staff'; grantedBy: Grantor; label: string }

const role = <A extends RoleArea, L extends RoleLevel>(area: A, level: L, grantedBy: Grantor = 'admin') => ({ area, level, grantedBy, label: `status.role.${area}-${level}` as const })

/**
 * Every role, in the roles screen's order. Watch and brand protection are read and changed under
 * `brand-*`, intelligence under `prospect-*` (spec §6 names brand-viewer and prospect-viewer);
 * reports, pulse and change sets add no role: they read with the viewer role of the area whose
 * data they show (decision 025).
 */
export const ROLES = {
  staff: { area: 'staff', level: 'staff', grantedBy: 'staff', label: 'status.role.staff' },
  'account-admin': role('account', 'admin'),
  'account-manager': role('account', 'manager'),
  'account-viewer': role('account', 'viewer'),
  'user-admin': role('user', 'admin'),
  'user-manager': role('user', 'manager'),
  'user-viewer': role('user', 'viewer'),
  'contact-admin': role('contact', 'admin'),
  'contact-manager': role('contact', 'manager'),
  'contact-viewer': role('contact', 'viewer'),
  'domain-admin': role('domain', 'admin'),
  'domain-manager': role('domain', 'manager'),
  'domain-viewer': role('domain', 'viewer'),
  'dns-admin': role('dns', 'admin'),
  'dns-manager': role('dns', 'manager'),
  'dns-viewer': role('dns', 'viewer'),
  'ssl-admin': role('ssl', 'admin'),
  'ssl-manager': role('ssl', 'manager'),
  'ssl-viewer': role('ssl', 'viewer'),
  'invoice-admin': role('invoice', 'admin'),
  'invoice-manager': role('invoice', 'manager'),
  'invoice-viewer': role('invoice', 'viewer'),
  'brand-admin': role('brand', 'admin'),
  'brand-manager': role('brand', 'manager'),
  'brand-viewer': role('brand', 'viewer'),
  'prospect-admin': role('prospect', 'admin', 'staff'),
  'prospect-manager': role('prospect', 'manager', 'staff'),
  'prospect-viewer': role('prospect', 'viewer', 'staff'),
} as const satisfies Record<string, RoleEntry>

export type Role = keyof typeof ROLES

type AbilityEntry = { area: 'report'; level: 'manage' | 'view'; label: string }

/**
 * Every ability: a grant finer than a role or across areas, held as its name (the users screen
 * types them), lower case like every permission name. A `manage-…` ability grants its `view-…`
 * twin, which is named here too.
 */
export const ABILITIES = {
  'manage-report-schedules': { area: 'report', level: 'manage', label: 'status.ability.manage-report-schedules' },
  'view-report-schedules': { area: 'report', level: 'view', label: 'status.ability.view-report-schedules' },
} as const satisfies Record<string, AbilityEntry>

export type Ability = keyof typeof ABILITIES

/** A name a check may ask for: a role or an ability. */
export type Permission = Role | Ability

/** Every role name, in order. */
export const ROLE_NAMES = Object.keys(ROLES) as Role[]
/** Every ability name, in order. */
export const ABILITY_NAMES = Object.keys(ABILITIES) as Ability[]
/** Every name of the registry: roles, then abilities. */
export const PERMISSION_NAMES: readonly Permission[] = [...ROLE_NAMES, ...ABILITY_NAMES]

const has = (record: object, name: string) => Object.prototype.hasOwnProperty.call(record, name)
export const isRole = (name: string): name is Role => has(ROLES, name)
export const isAbility = (name: string): name is Ability => has(ABILITIES, name)
export const isPermission = (name: string): name is Permission => isRole(name) || isAbility(name)

/** The i18n key (namespace common) of a role's or an ability's label. */
export const permissionLabel = (name: Permission): string => (isRole(name) ? ROLES[name].label : ABILITIES[name].label)

/** The roles an account's user admin hands out (the roles screen's checkboxes for a client admin). */
export const GRANTABLE_ROLES: readonly Role[] = ROLE_NAMES.filter((name) => ROLES[name].grantedBy === 'admin')
/** Every role the platform knows (an invitation grants only these). */
export const KNOWN_ROLES: ReadonlySet<string> = new Set<string>(ROLE_NAMES)
/** Every ability the platform knows (an invitation grants only these). */
export const KNOWN_ABILITIES: ReadonlySet<string> = new Set<string>(ABILITY_NAMES)

/** The roles an editor may hand out: a client admin the grantable ones, staff every role. */
export const rolesGrantableBy = (staff: boolean): readonly Role[] => (staff ? ROLE_NAMES : GRANTABLE_ROLES)

/** Whether only staff may hand the name out (staff and the registrar's own roles). */
export const onlyStaffGrants = (name: string): boolean => isRole(name) && ROLES[name].grantedBy === 'staff'

export function expandRoles(roles: readonly string[]): string[] {
  const out = new Set<string>()
  for (const role of roles) {
    out.add(role)
    if (role.endsWith('-admin')) {
      const prefix = role.slice(0, -'-admin'.length)
      out.add(`${prefix}-manager`)
      out.add(`${prefix}-viewer`)
    } else if (role.endsWith('-manager')) {
      out.add(`${role.slice(0, -'-manager'.length)}-viewer`)
    }
  }
  return [...out]
}

/** Expands "manage…" abilities into their "view…" twins. */
export function expandAbilities(abilities: readonly string[]): string[] {
  const out = new Set<string>()
  for (const ability of abilities) {
    out.add(ability)
    if (ability.startsWith('manage')) out.add(`view${ability.slice('manage'.length)}`)
  }
  return [...out]
}

/** Every permission name a user holds once roles and abilities are expanded. */
// Per pair of lists (a user's, unchanged for a request or a render): one shell checks a dozen permissions.
const expanded = new WeakMap<readonly string[], WeakMap<readonly string[], ReadonlySet<string>>>()

/** Everything the roles and abilities grant. The result is shared: do not change it. */
export function expandPermissions(roles: readonly string[], abilities: readonly string[]): ReadonlySet<string> {
  let byAbilities = expanded.get(roles)
  if (!byAbilities) expanded.set(roles, (byAbilities = new WeakMap()))
  let set = byAbilities.get(abilities)
  if (!set) byAbilities.set(abilities, (set = new Set([...expandRoles(roles), ...expandAbilities(abilities)])))
  return set
}

export type PermissionView = {
  hiddenPermissions: Record<string, boolean>
  highlightColors: Record<string, string>
}

/**
 * The check of spec §6: the name is in the expanded roles or abilities and, unless the check
 * ignores hiding, the permission is not hidden in the view settings.
 */
export function hasPermission(user: { roles: readonly string[]; abilities: readonly string[] }, name: Permission, options: { view?: PermissionView; ignoreHidden?: boolean } = {}): boolean {
  if (!expandPermissions(user.roles, user.abilities).has(name)) return false
  if (options.ignoreHidden) return true
  return !options.view?.hiddenPermissions[name]
}

/** Staff in all accounts: holds "staff" and acts in their own group (spec §6). */
export function isStaffInContext(user: { roles: readonly string[]; abilities: readonly string[]; group_id: string }, context: string | null, view?: PermissionView): boolean {
  return hasPermission(user, 'staff', { view }) && (context === null || context === user.group_id)
}

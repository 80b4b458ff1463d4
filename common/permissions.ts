/**
 * Permission rules of spec §6, shared by the portal and the Platform API.
 * - an ability starting with "manage" also grants the matching "view" ability;
 * - a role ending in "-admin" grants "-manager" and "-viewer" of the same prefix;
 * - a role ending in "-manager" grants "-viewer".
 */
/** The roles a client admin hands out: an -admin grants -manager and -viewer, a -manager -viewer. */
export const ROLE_PREFIXES = ['account', 'user', 'domain', 'dns', 'ssl', 'contact', 'invoice'] as const
export const ROLE_LEVELS = ['admin', 'manager', 'viewer'] as const
export const GRANTABLE_ROLES = ROLE_PREFIXES.flatMap((p) => ROLE_LEVELS.map((l) => `${p}-${l}`))
/** Every role the platform knows (an invitation grants only these): staff, the grantable ones, and the read-only views. */
export const KNOWN_ROLES: ReadonlySet<string> = new Set(['staff', ...GRANTABLE_ROLES, 'prospect-viewer', 'brand-viewer'])

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
export function hasPermission(user: { roles: readonly string[]; abilities: readonly string[] }, name: string, options: { view?: PermissionView; ignoreHidden?: boolean } = {}): boolean {
  if (!expandPermissions(user.roles, user.abilities).has(name)) return false
  if (options.ignoreHidden) return true
  return !options.view?.hiddenPermissions[name]
}

/** Staff in all accounts: holds "staff" and acts in their own group (spec §6). */
export function isStaffInContext(user: { roles: readonly string[]; abilities: readonly string[]; group_id: string }, context: string | null, view?: PermissionView): boolean {
  return hasPermission(user, 'staff', { view }) && (context === null || context === user.group_id)
}

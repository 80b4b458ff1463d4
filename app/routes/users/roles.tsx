import type { TFunction } from 'i18next'
import { z } from 'zod'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ErrorList } from '#app/components/forms.tsx'
import { useRoleLabel } from '#app/components/status-badge.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { sayCode } from '#app/lib/coded-words.ts'
import { cn } from '#app/lib/utils.ts'
import { ROLES, expandRoles, onlyStaffGrants, rolesGrantableBy } from '#common/permissions.ts'

export { GRANTABLE_ROLES } from '#common/permissions.ts'

const ROLE_NAME = /^[a-z][a-z0-9-]{0,63}$/
/** A form's repeated field as a list (one checked box arrives as one value). */
const asList = (value: unknown) => (value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value])

/**
 * The roles and abilities of a form: the checked role names (held roles outside the registry
 * stay possible; a role only staff grant — staff, prospect-* — only when the editor is staff:
 * the API keeps such a role held through anyone else's edit) and the abilities typed as a list.
 * The API checks the names again.
 */
export function grantsSchema(staffOffered: boolean) {
  return {
    roles: z.preprocess(asList, z.array(z.string())).transform((roles) => [...new Set(roles)].filter((r) => ROLE_NAME.test(r) && (staffOffered || !onlyStaffGrants(r)))),
    abilities: z
      .string()
      .optional()
      .transform((text) => [
        ...new Set(
          (text ?? '')
            .split(/[\s,]+/)
            .map((a) => a.trim())
            .filter(Boolean),
        ),
      ]),
  }
}

/** The invitation form: an email, an optional name and the grants. */
export const inviteSchema = (t: TFunction, staffOffered: boolean) => {
  const grants = grantsSchema(staffOffered)
  return z.object({
    email: formRules(t).email(),
    name: z.string().trim().max(200).optional().default(''),
    ...grants,
    // An invitation grants at least one role (the API refuses none as user.roles_required, on roles).
    roles: grants.roles.pipe(z.array(z.string()).min(1, sayCode(t, 'user.roles_required', 'Choose at least one role', {}, 'directory'))),
  })
}

/** The edit form of a user: the name and the grants. */
export const userSchema = (t: TFunction, staffOffered: boolean) =>
  z.object({
    intent: z.literal('update'),
    name: z
      .string({ error: t('validation:required') })
      .trim()
      .max(200)
      .optional()
      .default(''),
    ...grantsSchema(staffOffered),
  })

/** The roles and abilities a form was sent with (conform's initialValue after a refusal), else the user's. */
export const submittedGrants = (initial: Record<string, unknown> | null | undefined, fallback: { roles: string[]; abilities: string[] }) =>
  initial
    ? {
        roles: asList(initial.roles).map(String),
        abilities: String(initial.abilities ?? '')
          .split(/[\s,]+/)
          .filter(Boolean),
      }
    : fallback

/**
 * The roles editor: a checkbox per role the editor may grant (every role of the registry
 * for staff, the grantable ones for an account's admin, common/permissions.ts) by its name, each
 * showing what it grants besides itself, and the whole expansion of the current choice (what the
 * user will hold). A held role the editor may not grant shows checked, disabled: the API keeps it.
 */
export function RolesEditor({
  roles,
  abilities,
  staffOffered,
  errors,
  abilityErrors,
  readOnly = false,
}: {
  roles: string[]
  abilities: string[]
  staffOffered: boolean
  errors?: string[] | undefined
  abilityErrors?: string[] | undefined
  readOnly?: boolean
}) {
  const { t, i18n } = useTranslation('directory')
  const roleLabel = useRoleLabel()
  // "Account manager and Account viewer", 「アカウント担当者、アカウント閲覧者」: the language's own list.
  const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' })
  const held = new Set(roles)
  const expanded = new Set(expandRoles(roles))
  const offered: readonly string[] = rolesGrantableBy(staffOffered)
  const options = [...offered, ...roles.filter((r) => !offered.includes(r))]
  return (
    <fieldset className="space-y-3" aria-describedby={errors?.length ? 'roles-error' : undefined}>
      <legend className="text-sm font-medium">{t('users.fields.roles')}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
        {options.map((role) => {
          const grants = expandRoles([role]).filter((r) => r !== role)
          const implied = !held.has(role) && expanded.has(role)
          const kept = !staffOffered && onlyStaffGrants(role)
          // A role outside an area's admin, manager and viewer (staff) takes a row of its own, so each area's three stay in one row.
          const alone = (ROLES as Record<string, { level: string }>)[role]?.level === 'staff'
          return (
            <label key={role} className={cn('flex items-start gap-2 rounded border border-slate-200 p-2 text-sm dark:border-slate-800', alone && 'sm:col-span-3')} data-testid={`role-${role}`}>
              <input type="checkbox" name="roles" value={role} defaultChecked={held.has(role)} disabled={readOnly || kept} className="mt-1" />
              <span>
                <span title={role}>{roleLabel(role)}</span>
                {grants.length ? (
                  <span className="block text-xs text-slate-500" data-testid={`grants-${role}`}>
                    {t('users.grants', { list: list.format(grants.map(roleLabel)) })}
                  </span>
                ) : null}
                {implied ? <span className="block text-xs text-green-700 dark:text-green-400">{t('users.impliedBy')}</span> : null}
              </span>
            </label>
          )
        })}
      </div>
      <ErrorList id="roles-error" errors={errors} />
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">{t('users.fields.abilities')}</span>
        <input
          name="abilities"
          defaultValue={abilities.join(', ')}
          disabled={readOnly}
          className="h-9 rounded-md border border-slate-300 bg-white px-3 dark:border-slate-700 dark:bg-slate-950"
          aria-describedby={abilityErrors?.length ? 'abilities-error' : undefined}
        />
        <span className="text-xs text-slate-500">{t('users.abilitiesHint')}</span>
      </label>
      <ErrorList id="abilities-error" errors={abilityErrors} />
    </fieldset>
  )
}

import { z } from 'zod'
import { readJsonCookie, serializeJsonCookie, YEAR_SECONDS } from './cookies.server.ts'
import type { PermissionView } from '#common/permissions.ts'

const NAME = 'permission_view'
const PermissionViewSchema = z.object({
  hiddenPermissions: z.record(z.string().max(100), z.boolean()),
  highlightColors: z.record(z.string().max(100), z.string().regex(/^[a-z_]{2,20}$/)),
})

export { HIGHLIGHT_COLORS } from './permission-view.ts'

export const EMPTY_VIEW: PermissionView = { hiddenPermissions: {}, highlightColors: {} }

/** Staff-only display setting, so it lives in a cookie rather than the profile. */
export const readPermissionView = (request: Request): PermissionView =>
  readJsonCookie(request, NAME, (v) => {
    const parsed = PermissionViewSchema.safeParse(v)
    return parsed.success ? parsed.data : null
  }) ?? EMPTY_VIEW

export const permissionViewHeader = (view: PermissionView) => serializeJsonCookie(NAME, view, { maxAge: YEAR_SECONDS })

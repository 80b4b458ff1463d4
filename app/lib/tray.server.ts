import { z } from 'zod'
import { readJsonCookie, serializeJsonCookie, YEAR_SECONDS } from './cookies.server.ts'

const NAME = 'tray'
export const TRAY_LIMIT = 200
const TrayItem = z.object({ type: z.string().min(1).max(40), id: z.string().min(1).max(64), label: z.string().max(200) })
export type TrayItem = z.infer<typeof TrayItem>
const TraySchema = z.array(TrayItem).max(TRAY_LIMIT)

// TODO(bulk): the tray lives in a cookie (at most 200 references) until bulk operations get a
// server-side tray; the cookie holds references only, never entity data.
export const readTray = (request: Request): TrayItem[] =>
  readJsonCookie(request, NAME, (v) => {
    const parsed = TraySchema.safeParse(v)
    return parsed.success ? parsed.data : null
  }) ?? []

export function addToTray(current: TrayItem[], items: TrayItem[]): TrayItem[] {
  const seen = new Set(current.map((i) => `${i.type}:${i.id}`))
  const out = [...current]
  for (const item of items) {
    const key = `${item.type}:${item.id}`
    if (!seen.has(key)) {
      seen.add(key)
      out.push(item)
    }
  }
  return out.slice(0, TRAY_LIMIT)
}

export const trayHeader = (items: TrayItem[]) => serializeJsonCookie(NAME, items, { maxAge: YEAR_SECONDS })

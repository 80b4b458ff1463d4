import { redirect } from 'react-router'
import { z } from 'zod'
import { carryContext } from './context-param.ts'
import { requestUrl } from './request-url.ts'
import { clearCookie, readJsonCookie, serializeJsonCookie } from './cookies.server.ts'
import type { Snackbar, SnackbarInput } from './snackbar.ts'
import { SnackbarSchema } from './snackbar.server.ts'

const FLASH = 'flash'
const FlashSchema = z.array(SnackbarSchema).max(5)

/** Queues snackbars for the next page the browser shows (works without JavaScript). */
export function flashHeader(request: Request | null, ...messages: SnackbarInput[]): string {
  const pending = (request && readFlash(request)) || []
  return serializeJsonCookie(FLASH, [...pending, ...messages.map((m) => SnackbarSchema.parse(m))].slice(-5), { maxAge: 60 })
}

export const readFlash = (request: Request): Snackbar[] | null =>
  readJsonCookie(request, FLASH, (v) => {
    const parsed = FlashSchema.safeParse(v)
    return parsed.success ? parsed.data : null
  })

/** Reads and consumes the flash: the messages plus the header that clears the cookie. */
export function takeFlash(request: Request): { messages: Snackbar[]; header: string | null } {
  const messages = readFlash(request)
  return messages ? { messages, header: clearCookie(FLASH) } : { messages: [], header: null }
}

/** Back to a page (the account context carried) with a snackbar: the answer of a post that succeeded or was refused as a whole. */
export function backWith(request: Request, path: string, message: SnackbarInput) {
  return redirect(carryContext(path, requestUrl(request).searchParams), { headers: { 'Set-Cookie': flashHeader(request, message) } })
}

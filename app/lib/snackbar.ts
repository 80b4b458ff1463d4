/**
 * Snackbar message of spec §3 (rawContent is not carried: content is already plain text).
 * Plain types only: the toaster is in every page's root chunk, so the zod schema that checks
 * flashed messages lives in `snackbar.server.ts` and zod stays out of the browser's first load.
 */
export type SnackbarColor = 'success' | 'error' | 'info' | 'warning'
export type Snackbar = {
  content: string
  subtitle?: string | undefined
  color: SnackbarColor
  deepLink?: string | undefined
  deepLinkText?: string | undefined
  timeout: number
  loading?: boolean | undefined
  progress?: number | undefined
}
/** What a caller writes: colour and timeout have defaults. */
export type SnackbarInput = Omit<Snackbar, 'color' | 'timeout'> & { color?: SnackbarColor | undefined; timeout?: number | undefined }

export const SNACKBAR_DEFAULT_TIMEOUT = 5000

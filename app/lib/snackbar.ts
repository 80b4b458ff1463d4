import { z } from 'zod'

/** Snackbar message of spec §3 (rawContent is not carried: content is already plain text). */
export const SnackbarSchema = z.object({
  content: z.string().max(500),
  subtitle: z.string().max(500).optional(),
  color: z.enum(['success', 'error', 'info', 'warning']).default('info'),
  deepLink: z.string().startsWith('/').max(500).optional(),
  deepLinkText: z.string().max(100).optional(),
  timeout: z.number().int().min(0).max(60_000).default(5000),
  loading: z.boolean().optional(),
  progress: z.number().min(0).max(100).optional(),
})
export type Snackbar = z.infer<typeof SnackbarSchema>
export type SnackbarInput = z.input<typeof SnackbarSchema>

export const SNACKBAR_DEFAULT_TIMEOUT = 5000

import { z } from 'zod'
import { SNACKBAR_DEFAULT_TIMEOUT, type Snackbar, type SnackbarInput } from './snackbar.ts'

/** Checks a snackbar read back from the flash cookie (spec §3 limits); the types are in snackbar.ts. */
export const SnackbarSchema = z.object({
  content: z.string().max(500),
  subtitle: z.string().max(500).optional(),
  color: z.enum(['success', 'error', 'info', 'warning']).default('info'),
  deepLink: z.string().startsWith('/').max(500).optional(),
  deepLinkText: z.string().max(100).optional(),
  timeout: z.number().int().min(0).max(60_000).default(SNACKBAR_DEFAULT_TIMEOUT),
  loading: z.boolean().optional(),
  progress: z.number().min(0).max(100).optional(),
})

// The hand-written types must stay those of the schema (a compile error here says which drifted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const outputMatches: Same<z.infer<typeof SnackbarSchema>, Snackbar> = true
const inputMatches: Same<z.input<typeof SnackbarSchema>, SnackbarInput> = true
void outputMatches
void inputMatches

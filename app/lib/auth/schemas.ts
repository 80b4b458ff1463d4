import { z } from 'zod'
import { fill, type AuthMessages } from './messages.ts'

/** Form schemas of the sign-in screens, with the messages of the current locale (server and browser). */
export const LoginSchema = (m: AuthMessages) =>
  z.object({
    username: z.string({ error: m.validation.required }).trim().min(1, m.validation.required).max(320, fill(m.validation.max, { count: 320 })),
    password: z.string({ error: m.validation.required }).min(1, m.validation.required).max(1024, fill(m.validation.max, { count: 1024 })),
    redirectTo: z.string().optional(),
  })

export const TwoFactorSchema = (m: AuthMessages) =>
  z.object({
    // Six digits from the app, or a recovery code (letters, digits, dashes).
    code: z
      .string({ error: m.validation.required })
      .trim()
      .min(6, fill(m.validation.min, { count: 6 }))
      .max(32, fill(m.validation.max, { count: 32 }))
      .regex(/^[A-Za-z0-9-]+$/, m.twoFactor.failed),
  })

export const ResetRequestSchema = (m: AuthMessages) =>
  z.object({
    email: z.string({ error: m.validation.required }).trim().min(1, m.validation.required).pipe(z.email(m.validation.email)),
  })

export const NewPasswordSchema = (m: AuthMessages) =>
  z
    .object({
      token: z.string().min(1),
      password: z.string({ error: m.validation.required }).min(12, m.password.too_short).max(1024, m.password.too_long),
      confirm: z.string({ error: m.validation.required }),
    })
    .refine((v) => v.password === v.confirm, { message: m.reset.mismatch, path: ['confirm'] })

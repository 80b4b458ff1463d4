import { z } from 'zod'
import { fill, type AuthMessages } from './messages.ts'

/**
 * A schema per messages object, made once: the server's messages of a locale are one shared object
 * (authMessages), the browser's are one loader result — building a zod schema on every render was a
 * measurable part of the sign-in page's server time (issue 13).
 */
function perMessages<M extends Partial<AuthMessages>, S>(make: (m: M) => S): (m: M) => S {
  const made = new WeakMap<M, S>()
  return (m) => {
    let schema = made.get(m)
    if (schema === undefined) made.set(m, (schema = make(m)))
    return schema
  }
}

/** Form schemas of the sign-in screens, with the messages of the current locale (server and browser). */
export const LoginSchema = perMessages((m: Pick<AuthMessages, 'validation'>) =>
  z.object({
    username: z
      .string({ error: m.validation.required })
      .trim()
      .min(1, m.validation.required)
      .max(320, fill(m.validation.max, { count: 320 })),
    password: z
      .string({ error: m.validation.required })
      .min(1, m.validation.required)
      .max(1024, fill(m.validation.max, { count: 1024 })),
    redirectTo: z.string().optional(),
  }),
)

export const TwoFactorSchema = perMessages((m: Pick<AuthMessages, 'validation' | 'twoFactor'>) =>
  z.object({
    // Six digits from the app, or a recovery code (letters, digits, dashes).
    code: z
      .string({ error: m.validation.required })
      .trim()
      .min(6, fill(m.validation.min, { count: 6 }))
      .max(32, fill(m.validation.max, { count: 32 }))
      .regex(/^[A-Za-z0-9-]+$/, m.twoFactor.failed),
  }),
)

export const ResetRequestSchema = perMessages((m: AuthMessages) =>
  z.object({
    email: z.string({ error: m.validation.required }).trim().min(1, m.validation.required).pipe(z.email(m.validation.email)),
  }),
)

export const NewPasswordSchema = perMessages((m: AuthMessages) =>
  z
    .object({
      token: z.string().min(1),
      password: z.string({ error: m.validation.required }).min(12, m.password.too_short).max(1024, m.password.too_long),
      confirm: z.string({ error: m.validation.required }),
    })
    .refine((v) => v.password === v.confirm, { message: m.reset.mismatch, path: ['confirm'] }),
)

import type { TFunction } from 'i18next'
import { z } from 'zod'
import { formRules } from '#app/lib/form-messages.ts'
import { sayCodes } from '#app/lib/coded-words.ts'
import { REVOCATION_REASONS, SSL_KEY_TYPES, SSL_ORGANISATION_CHECKS, SSL_PERIODS } from '#common/ssl.ts'
import { organisationWords, sslCheckSchema } from '#common/ssl-organisation.ts'

/**
 * The SSL screens' forms (conform + zod, ARCHITECTURE.md): one schema per form, parsed by the
 * action and checked in the browser with the same words; the API checks again and its refusals
 * come back beside the field through the one refusal path.
 */

const choose = (t: TFunction) => ({ error: t('ssl:errors.choose') })

/** A certificate's protected download: PKCS#12 in a profile, or the key alone as encrypted PKCS#8. */
export const PKCS12_FORM_PROFILES = ['modern', 'legacy', 'pkcs8'] as const
export const pkcs12Schema = (t: TFunction) =>
  z.object({
    password: z
      .string({ error: t('validation:required') })
      .min(8, t('ssl:errors.ssl.pkcs12-password-short'))
      .max(200, t('validation:maxLength', { max: 200 })),
    profile: z.enum(PKCS12_FORM_PROFILES, choose(t)),
  })

/** Another period of the coverage term. */
export const renewSchema = (t: TFunction) =>
  z.object({
    intent: z.enum(['renew', 'renew-confirmed']),
    period_months: z.coerce.number().refine((n) => (SSL_PERIODS as readonly number[]).includes(n), t('ssl:errors.ssl.period-unknown')),
  })

/** A reissue: the names (one a line, or commas), a new key of a type, or a pasted CSR. */
export const reissueSchema = (t: TFunction) =>
  z.object({
    intent: z.literal('reissue'),
    names: formRules(t).requiredText(20_000),
    key_type: z.enum(SSL_KEY_TYPES, choose(t)),
    csr: z
      .string()
      .trim()
      .max(20_000, t('validation:maxLength', { max: 20_000 }))
      .optional(),
  })
export const namesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean)

/** Revocation with an RFC 5280 reason. */
export const revokeSchema = (t: TFunction) =>
  z.object({
    intent: z.literal('revoke'),
    reason: z.enum(Object.keys(REVOCATION_REASONS) as [keyof typeof REVOCATION_REASONS, ...(keyof typeof REVOCATION_REASONS)[]], choose(t)),
  })

/** "Check and validate" a name by its DNS record or its HTTP file. */
export const validateSchema = (t: TFunction) =>
  z.object({
    name: formRules(t).requiredText(300),
    method: z.enum(['dns-01', 'http-01'], choose(t)),
  })

/** Staff mark one check of an organisation: the API's own rules (common/ssl-organisation.ts), in the user's words. */
export const markCheckSchema = (t: TFunction) => sslCheckSchema(sayCodes(t, 'ssl', organisationWords), { intent: z.literal('check'), check: z.enum(SSL_ORGANISATION_CHECKS, choose(t)) })

/** A document for an organisation's "documents" check (its type and size are the API's to judge). */
export const uploadSchema = (t: TFunction) =>
  z.object({
    intent: z.literal('upload'),
    file: z.instanceof(File, { error: t('ssl:organisations.chooseFile') }).refine((f) => f.size > 0, t('ssl:organisations.chooseFile')),
  })

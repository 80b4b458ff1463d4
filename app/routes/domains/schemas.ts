import type { TFunction } from 'i18next'
import { z } from 'zod'
import { parseDomainName } from '#common/domain-name.ts'
import { formRules } from '#app/lib/form-messages.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'

/**
 * The forms of the domains screens. Each takes `t` so the messages are in the user's language;
 * the action parses with the same schema the browser validates with (conform).
 */
const domainName = (t: TFunction) =>
  formRules(t)
    .requiredText(253)
    .superRefine((value, ctx) => {
      const parsed = parseDomainName(value)
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: t('domains:nameErrors.' + parsed.error, { defaultValue: t('domains:nameErrors.invalid') }) })
    })

const period = (t: TFunction) => formRules(t).integer().min(1, t('validation:format')).max(10, t('validation:format'))

export const renewSchema = (t: TFunction) => z.object({ intent: z.literal('renew'), period: period(t) })

/** A confirmed charge (a renewal, a restore): the period and the price the confirmation showed (empty: no charge). */
export const confirmChargeSchema = z.object({
  intent: z.enum(['renew-confirmed', 'restore-confirmed']),
  period: z.coerce.number().int().min(1).max(10).default(1),
  amount_minor: z.string().regex(/^\d*$/),
  currency: z.string().max(3),
})

/** The registry lock confirmed at the fee shown (its quote's price; empty: no charge), on the version read. */
export const lockConfirmedSchema = z.object({
  intent: z.literal('registry-lock-confirmed'),
  version: z.coerce.number().int().min(0),
  amount_minor: z.string().regex(/^\d*$/),
  currency: z.string().max(3),
})

export const toggleSchema = z.object({
  intent: z.enum(['auto-renew', 'lock']),
  value: z.enum(['on', 'off']),
  version: z.coerce.number().int().min(0),
})

export const availabilitySchema = (t: TFunction) => z.object({ intent: z.literal('check'), names: formRules(t).requiredText(20_000) })

export const transferSchema = (t: TFunction) => z.object({ intent: z.literal('transfer'), name: domainName(t), auth_code: formRules(t).requiredText(255), period: period(t) })

export const importSchema = (t: TFunction) =>
  z
    .object({ intent: z.literal('import'), names: z.string().max(2_000_000).optional(), csv: z.instanceof(File).optional() })
    .refine((v) => Boolean(v.names?.trim()) || (v.csv !== undefined && v.csv.size > 0), { path: ['names'], message: t('domains:add.importEmpty') })

export const namesSchema = (t: TFunction) => z.object({ names: formRules(t).requiredText(2_000_000) })

export const contactsSchema = (t: TFunction) =>
  z
    .object({
      names: formRules(t).requiredText(2_000_000),
      registrant: z.string().uuid().optional(),
      admin: z.string().uuid().optional(),
      tech: z.string().uuid().optional(),
      billing: z.string().uuid().optional(),
    })
    .refine((v) => CONTACT_ROLES.some((r) => v[r]), { path: ['registrant'], message: t('domains:contacts.chooseOne') })

/** The overview's contacts: one contact of the account per role; a role left on "Not set" is not sent. */
export const domainContactsSchema = (t: TFunction) =>
  z
    .object({
      intent: z.literal('contacts'),
      version: z.coerce.number().int().min(0),
      registrant: z.guid().optional(),
      admin: z.guid().optional(),
      tech: z.guid().optional(),
      billing: z.guid().optional(),
    })
    .refine((v) => CONTACT_ROLES.some((r) => v[r]), { path: ['registrant'], message: t('domains:contacts.chooseOne') })

/** Most tags a domain has, and most characters in one (the API's rule, server/platform/domains/update.ts). */
export const MAX_TAGS = 50
export const MAX_TAG_LENGTH = 64

/** Tags as typed: comma-separated (or one per line), trimmed, each checked as the API checks it. */
export const splitTags = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
]

export const domainTagsSchema = (t: TFunction) =>
  z
    .object({
      intent: z.literal('tags'),
      version: z.coerce.number().int().min(0),
      tags: z
        .string()
        .max(10_000, t('validation:maxLength', { max: 10_000 }))
        .optional(),
    })
    .superRefine((v, ctx) => {
      const tags = splitTags(v.tags)
      const long = tags.find((tag) => tag.length > MAX_TAG_LENGTH)
      if (long) ctx.addIssue({ code: 'custom', path: ['tags'], message: t('domains:tags.tooLong', { tag: long.slice(0, 20), max: MAX_TAG_LENGTH }) })
      if (tags.length > MAX_TAGS) ctx.addIssue({ code: 'custom', path: ['tags'], message: t('domains:tags.tooMany', { max: MAX_TAGS }) })
    })

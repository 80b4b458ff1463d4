import type { TFunction } from 'i18next'
import { z } from 'zod'
import { FUZZERS } from '#common/brand.ts'

export const BRAND_FIELDS = ['label', 'domains', 'dictionary', 'fuzzers'] as const
export const words = (text: string | undefined) => (text ?? '').split(/[\s,;]+/).filter(Boolean)

/** A brand as typed: a label, its domains, dictionary and fuzzers, each a list of words (the API checks each again). */
export const brandSchema = (t: TFunction) =>
  z.object({
    label: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(63),
    domains: z.string().max(5000).optional(),
    dictionary: z.string().max(5000).optional(),
    fuzzers: z
      .string()
      .max(1000)
      .optional()
      .refine((text) => words(text).every((f) => (FUZZERS as readonly string[]).includes(f)), t('brand:errors.fuzzers.unknown')),
  })

/** Brands pasted one a line (the API reads the lines). */
export const importSchema = (t: TFunction) =>
  z.object({
    text: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(100_000),
  })

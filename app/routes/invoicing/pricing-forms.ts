import type { TFunction } from 'i18next'
import { z } from 'zod'

/**
 * The price lists' form (conform + zod, as the billing forms): a new list (name, currencies) and an
 * edited one (with its notice days and, once, "make default"). The currencies are typed as one text
 * ("EUR, USD") and sent as their list.
 */
export function pricingEntitySchema(t: TFunction) {
  const required = t('validation:required')
  const currencies = z
    .string({ error: t('pricing:errors.currency.invalid') })
    .transform((text) => [
      ...new Set(
        text
          .toUpperCase()
          .split(/[\s,]+/)
          .filter(Boolean),
      ),
    ])
    .refine((list) => list.length > 0 && list.every((c) => /^[A-Z]{3}$/.test(c)), t('pricing:errors.currency.invalid'))
  return z.object({
    name: z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(200, t('validation:maxLength', { max: 200 })),
    currencies,
  })
}

/** An edited price list: its notice days, "make default" (once), and the version it was read at. */
export function editPricingEntitySchema(t: TFunction) {
  const notice = t('pricing:errors.notice_days')
  return pricingEntitySchema(t).extend({
    notice_days: z.coerce.number({ error: notice }).int(notice).min(0, notice).max(365, notice),
    is_default: z.boolean().optional(),
    version: z.coerce.number().int(),
  })
}
export const PRICING_ENTITY_FIELDS = ['name', 'currencies', 'notice_days', 'is_default'] as const

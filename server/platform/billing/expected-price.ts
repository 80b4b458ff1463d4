import { z } from '@hono/zod-openapi'

/**
 * The price a person confirmed before a charge (issue 28), as every charging operation takes it:
 * the amount and currency the screen showed from the engine's quote (null: no charge). The charge
 * compares it with its own quote in its transaction and refuses a difference (409
 * billing.quote_changed, nothing charged) — a rule or rate changed between the two. Omitted: the
 * charge is taken at the quote of the moment, as before (scripts, the automatic renewals).
 */
export const ExpectedPriceSchema = z
  .object({ amount_minor: z.number().int().min(0), currency: z.string().length(3) })
  .strict()
  .nullable()
  .openapi('ExpectedPrice', {
    description:
      'The price the confirmation showed (null: no charge). When the charge’s own quote is now otherwise, nothing is charged (409 billing.quote_changed, the current price stated). Omitted: charged at the quote of the moment',
  })

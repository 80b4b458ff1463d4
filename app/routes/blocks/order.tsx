import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, Form, redirect, useLocation, useNavigation } from 'react-router'
import { z } from 'zod'
import { ChargeConfirmation, shownPriceOf, type ShownPrice } from '#app/components/charge-confirmation.tsx'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { PlatformError } from '#app/lib/platform-client.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { blockLabelCode, parseBlockLabel } from '#common/block-label.ts'
import { formatMoney } from '#common/money.ts'
import { isStaffInContext } from '#common/permissions.ts'
import type { BlockOffer } from './shared.tsx'
import type { Route } from './+types/order.ts'

const ORDER_FIELDS = ['label', 'product_code', 'period_years', 'trademark_ref'] as const

/** The order form's rules (the API checks them again): one DNS label, a product and period offered, a trademark reference. */
const orderSchema = (t: TFunction) =>
  z.object({
    label: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(300)
      .superRefine((value, ctx) => {
        const parsed = parseBlockLabel(value)
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: t(`blocks:errors.${blockLabelCode(parsed.error)}`, { defaultValue: t('blocks:errors.block.label-invalid') }) })
      }),
    product_code: z.string({ message: t('validation:required') }).min(1, t('validation:required')),
    period_years: z.coerce.number({ message: t('validation:required') }).int(),
    trademark_ref: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(255, t('blocks:errors.block.trademark-too-long')),
  })

/** A domain manager orders in an account: staff in their own group act for no account (they order in a client's context). */
async function requireOrdering(request: Request, context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'domain-manager')
  const groupContext = activeContext(requestUrl(request), user.group_id)
  if (isStaffInContext(user, groupContext)) throw data('Blocks are ordered in an account: choose one first', { status: 403 })
  return groupContext
}

/** /blocks/order: the block order's form, a sheet over the blocks list (a domain manager's, in an account). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const groupContext = await requireOrdering(request, context, params)
  const offers = await (await getPlatform(request, context)).get('/groups/{context}/block-products', { path: { context: groupContext } })
  return { offers: offers.data, meta: pageMeta(request, context, getInstance(context).t('blocks:order.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const groupContext = await requireOrdering(request, context, params)
  const t = getInstance(context).t
  const url = requestUrl(request)
  const form = await request.formData()
  const submission = parseWithZod(form, { schema: orderSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply(), confirm: undefined }, { status: 400 })
  const platform = await getPlatform(request, context)
  // An order charges: the first submit shows what is ordered and the engine's price for it (the
  // block products' quotes, the ones the charge takes) and orders nothing; the confirmation posts the
  // price shown, which the API holds the order to (issue 28).
  const quoteOf = async (): Promise<OrderConfirm> => {
    const offers = (await platform.get('/groups/{context}/block-products', { path: { context: groupContext } })).data
    const offer = offers.find((o) => o.code === submission.value.product_code)
    const row = offer?.prices.find((p) => p.period_years === submission.value.period_years)
    return { ...submission.value, product: offer?.name ?? submission.value.product_code, price: row ? { amount_minor: row.order_minor, currency: row.currency } : null }
  }
  if (form.get('intent') !== 'order-confirmed') return { result: submission.reply(), confirm: await quoteOf() }
  try {
    const created = await platform.post('/groups/{context}/blocks', { path: { context: groupContext }, body: { ...submission.value, expected: shownPriceOf(form) ?? null } })
    return redirect(carryContext(`/blocks/${created.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('blocks:done.order'), color: 'success' }) } })
  } catch (error) {
    // The price changed in between: nothing was ordered; the new price is asked again.
    const changed = error instanceof PlatformError && (error.data as { code?: string } | null)?.code === 'billing.quote_changed'
    return data({ result: submission.reply(formErrorsOf(t, error, ORDER_FIELDS, {}, 'blocks')), confirm: changed ? await quoteOf() : undefined }, { status: 400 })
  }
}

/** A block order as typed, with the engine's price for it, shown to confirm before it is charged. */
type OrderConfirm = { label: string; product_code: string; period_years: number; trademark_ref: string; product: string; price: ShownPrice }

export default function OrderBlock({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['blocks', 'common'])
  const { search } = useLocation()
  const closeTo = `/blocks${search}`
  const confirm = actionData?.confirm
  return (
    <Sheet
      title={t('order.title')}
      description={t('order.help')}
      closeTo={closeTo}
      testId="block-order-sheet"
      // Asked once: while the price is asked, the confirmation's own Confirm and Cancel are the sheet's buttons.
      footer={
        confirm ? undefined : (
          <SheetSubmit closeTo={closeTo} form="block-order" testId="block-order-submit">
            {t('order.submit')}
          </SheetSubmit>
        )
      }
    >
      {confirm ? <OrderConfirmation confirm={confirm} /> : null}
      {/* Kept while the price is asked, so that Cancel comes back to the form as it was typed. */}
      <div hidden={!!confirm}>
        <OrderForm offers={loaderData.offers} lastResult={actionData?.result} />
      </div>
    </Sheet>
  )
}

function OrderConfirmation({ confirm }: { confirm: OrderConfirm }) {
  const { t, i18n } = useTranslation('blocks')
  const navigation = useNavigation()
  return (
    <ChargeConfirmation
      question={t('order.confirm', {
        label: confirm.label,
        product: confirm.product,
        years: t('years', { count: confirm.period_years }),
        price: confirm.price ? formatMoney(confirm.price.amount_minor, confirm.price.currency, i18n.language) : t('renew.noCharge'),
      })}
      note={t('renew.chargeNote')}
      confirmLabel={t('renew.confirmCharge')}
      cancelLabel={t('renew.cancelCharge')}
      intent="order-confirmed"
      fields={{ label: confirm.label, product_code: confirm.product_code, period_years: confirm.period_years, trademark_ref: confirm.trademark_ref }}
      price={confirm.price}
      busy={navigation.state !== 'idle'}
      testId="block-order"
    />
  )
}

function OrderForm({ offers, lastResult }: { offers: BlockOffer[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t, i18n } = useTranslation('blocks')
  const first = offers[0]
  const [form, fields] = useZodForm(orderSchema(t), {
    id: 'block-order',
    lastResult,
    defaultValue: { product_code: first?.code ?? '', period_years: String(first?.prices[0]?.period_years ?? first?.periods[0] ?? 1) },
  })
  const offer = offers.find((o) => o.code === fields.product_code.value) ?? first
  const price = offer?.prices.find((p) => p.period_years === Number(fields.period_years.value ?? 1))
  return (
    <Form method="post" className="space-y-1" data-testid="block-order-form" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        labelProps={{ children: t('order.label') }}
        inputProps={{ ...getInputProps(fields.label, { type: 'text' }), placeholder: 'acme', autoComplete: 'off', className: 'font-mono' }}
        errors={fields.label.errors}
      />
      <Field
        labelProps={{ children: t('order.trademark') }}
        inputProps={{ ...getInputProps(fields.trademark_ref, { type: 'text' }), placeholder: 'TMCH-1234567', autoComplete: 'off' }}
        errors={fields.trademark_ref.errors}
      />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <SelectField label={t('order.product')} selectProps={{ ...getSelectProps(fields.product_code), id: fields.product_code.id }} errors={fields.product_code.errors}>
          {offers.map((o) => (
            <option key={o.code} value={o.code}>
              {o.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('order.period')} selectProps={{ ...getSelectProps(fields.period_years), id: fields.period_years.id }} errors={fields.period_years.errors}>
          {(offer?.periods ?? [1]).map((years) => {
            const row = offer?.prices.find((p) => p.period_years === years)
            return (
              <option key={years} value={years}>
                {t('years', { count: years })}
                {row ? ` — ${formatMoney(row.order_minor, row.currency, i18n.language)}` : ''}
              </option>
            )
          })}
        </SelectField>
      </div>
      <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-900" data-testid="block-quote">
        {price ? t('order.quote', { price: formatMoney(price.order_minor, price.currency, i18n.language), renew: formatMoney(price.renew_minor, price.currency, i18n.language) }) : t('order.noPrice')}
      </p>
    </Form>
  )
}

import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, Form, Link, redirect, useLocation, useNavigation } from 'react-router'
import { z } from 'zod'
import { ChargeConfirmation, shownPriceOf, type ShownPrice } from '#app/components/charge-confirmation.tsx'
import { getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { ErrorList, FormErrors } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { PlatformError } from '#app/lib/platform-client.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf, refusalOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import { DEFAULT_SSL_KEY_TYPE, SSL_KEY_TYPES, SSL_PERIODS, SSL_PRODUCT_IDS, SSL_PRODUCTS } from '#common/ssl.ts'
import type { SslOrganisationChoice, SslPriceRow } from './index.tsx'
import type { Route } from './+types/order.ts'

const ORDER_FIELDS = ['product', 'period_months', 'names', 'key_type', 'csr', 'organisation_id'] as const

const orderSchema = (t: TFunction) =>
  z.object({
    product: z.enum(SSL_PRODUCT_IDS as [string, ...string[]], { message: t('validation:required') }),
    period_months: z.coerce.number().int(),
    names: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(20_000),
    key_type: z.string().optional(),
    csr: z.string().max(20_000).optional(),
    organisation_id: z.string().optional(),
  })
type OrderValues = z.infer<ReturnType<typeof orderSchema>>

/** /ssls/order: a certificate order's form, a sheet over the certificates list (an SSL manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const settings = await (await getPlatform(request, context)).get('/groups/{context}/ssl-settings', { path: { context: activeContext(requestUrl(request), user.group_id) } })
  return { settings, meta: pageMeta(request, context, getInstance(context).t('ssl:order.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const form = await request.formData()
  const platform = await getPlatform(request, context)
  const submission = parseWithZod(form, { schema: orderSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const value = submission.value
  const names = value.names.split(/[\s,]+/).filter(Boolean)
  const groupContext = activeContext(url, user.group_id)
  // An order charges (issue 28, item 4): the first submit shows the product, term, names and the
  // engine's price for them (the order quote the charge takes) and orders nothing; Confirm posts the
  // price shown, which the API holds the order to (409 billing.quote_changed: asked again). The CAA
  // fix follows a confirmed order the CA refused, at the price confirmed.
  const quoteOf = async (): Promise<OrderConfirm> => {
    const { prices } = await platform.get('/groups/{context}/ssl-settings', { path: { context: groupContext } })
    const row = prices.find((p) => p.product === value.product && p.period_months === value.period_months && p.action === 'order')
    return {
      ...value,
      key_type: value.key_type ?? '',
      csr: value.csr ?? '',
      organisation_id: value.organisation_id ?? '',
      count: names.length,
      price: row ? { amount_minor: row.amount_minor, currency: row.currency } : null,
    }
  }
  const intent = form.get('intent')
  if (intent !== 'order-confirmed' && intent !== 'caa-allow') return { confirm: await quoteOf() }
  const expected = shownPriceOf(form)
  try {
    // "Allow our CA and order": the CAA record naming the CA first, for each name whose CAA forbade it.
    if (form.get('intent') === 'caa-allow')
      for (const name of form.getAll('caa_name')) await platform.post('/groups/{context}/ssl-caa', { path: { context: activeContext(url, user.group_id) }, body: { name: String(name) } })
    const created = await platform.post('/groups/{context}/ssls', {
      path: { context: activeContext(url, user.group_id) },
      body: {
        product: value.product,
        period_months: value.period_months,
        names,
        ...(value.csr?.trim() ? { csr: value.csr } : { key_type: value.key_type || DEFAULT_SSL_KEY_TYPE }),
        // OV and EV name an organisation; DV none.
        ...(SSL_PRODUCTS[value.product as keyof typeof SSL_PRODUCTS].level !== 'dv' ? { organisation_id: value.organisation_id || null } : {}),
        ...(expected !== undefined ? { expected } : {}),
      },
    })
    return redirect(carryContext(`/ssls/${created.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:ordered'), color: 'success' }) } })
  } catch (error) {
    const problem = error instanceof PlatformError && error.status === 400 ? refusalOf(error).problem : null
    const caaNames = (problem?.errors ?? [])
      .filter((e) => e.code === 'ssl.caa-forbids')
      .map((e) => names[Number(e.field?.split('.')[1])] ?? '')
      .filter(Boolean)
    // The price changed in between: nothing was ordered; the new price is asked again.
    const changed = error instanceof PlatformError && (error.data as { code?: string } | null)?.code === 'billing.quote_changed'
    return data({ result: submission.reply(formErrorsOf(t, error, ORDER_FIELDS, {}, 'ssl')), caaNames, expected: expected ?? null, confirm: changed ? await quoteOf() : undefined }, { status: 400 })
  }
}

export default function OrderSheet({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['ssl', 'common'])
  const { search } = useLocation()
  const closeTo = `/ssls${search}`
  const { settings } = loaderData
  const confirm = actionData && 'confirm' in actionData ? actionData.confirm : undefined
  return (
    <Sheet
      title={t('order.title')}
      description={settings.ca_configured ? t('issuedBy', { ca: settings.ca }) : undefined}
      closeTo={closeTo}
      testId="ssl-order-sheet"
      // Asked once: while the price is asked, the confirmation's own Confirm and Cancel are the sheet's buttons.
      footer={
        confirm || !settings.ca_configured ? undefined : (
          <SheetSubmit closeTo={closeTo} form="ssl-order" testId="ssl-order-submit">
            {t('order.submit')}
          </SheetSubmit>
        )
      }
    >
      {!settings.ca_configured ? <p className="text-sm text-slate-600 dark:text-slate-400">{t('noCa', { missing: settings.missing ?? '' })}</p> : null}
      {confirm ? <OrderConfirmation confirm={confirm} /> : null}
      {/* Kept while the price is asked, so that Cancel comes back to the form as it was typed. */}
      {settings.ca_configured ? (
        <div hidden={!!confirm}>
          <OrderCertificate
            lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
            caaNames={actionData && 'caaNames' in actionData ? (actionData.caaNames as string[]) : []}
            expected={actionData && 'expected' in actionData ? (actionData.expected as ShownPrice) : undefined}
            dvOnly={settings.dv_only}
            prices={settings.prices}
            organisations={settings.organisations}
          />
        </div>
      ) : null}
    </Sheet>
  )
}

/** A certificate order as typed, with the engine's price for it, shown to confirm before it is charged. */
type OrderConfirm = { product: string; period_months: number; names: string; key_type: string; csr: string; organisation_id: string; count: number; price: ShownPrice }

function OrderConfirmation({ confirm }: { confirm: OrderConfirm }) {
  const { t, i18n } = useTranslation('ssl')
  const navigation = useNavigation()
  const { count, price, ...fields } = confirm
  return (
    <ChargeConfirmation
      question={t('order.confirm', {
        product: t(`products.${confirm.product}`, { defaultValue: confirm.product }),
        names: t('order.nameCount', { count }),
        count: confirm.period_months,
        price: price ? formatMoney(price.amount_minor, price.currency, i18n.language) : t('renew.noCharge'),
      })}
      note={t('renew.chargeNote')}
      confirmLabel={t('renew.confirmCharge')}
      cancelLabel={t('renew.cancelCharge')}
      intent="order-confirmed"
      fields={fields}
      price={price}
      busy={navigation.state !== 'idle'}
      testId="ssl-order"
    />
  )
}

function OrderCertificate({
  lastResult,
  caaNames,
  expected,
  dvOnly,
  prices,
  organisations,
}: {
  lastResult: SubmissionResult<string[]> | undefined
  caaNames: string[]
  /** The price the person confirmed for the order the CA refused: the CAA fix orders at it. */
  expected: ShownPrice | undefined
  dvOnly: boolean
  prices: SslPriceRow[]
  organisations: SslOrganisationChoice[]
}) {
  const href = useContextHref()
  const { t, i18n } = useTranslation('ssl')
  const priceOf = (product: string, months: number) => {
    const row = prices.find((p) => p.product === product && p.period_months === months && p.action === 'order')
    return row ? formatMoney(row.amount_minor, row.currency, i18n.language) : null
  }
  const schema = orderSchema(t)
  const [form, fields] = useForm<OrderValues, OrderValues, string[]>({
    id: 'ssl-order',
    lastResult,
    constraint: getZodConstraint(schema),
    defaultValue: { product: 'dv-single', period_months: '12', key_type: DEFAULT_SSL_KEY_TYPE },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  return (
    <Form method="post" className="space-y-4" data-testid="ssl-order-form" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.product.id}>{t('order.product')}</Label>
        <Select {...getSelectProps(fields.product)} key={fields.product.key}>
          {SSL_PRODUCT_IDS.map((p) => (
            <option key={p} value={p}>
              {t(`products.${p}`)} — {t('order.productLimit', { count: SSL_PRODUCTS[p].maxNames })}
              {priceOf(p, SSL_PERIODS[0]) ? ` — ${t('order.perYear', { price: priceOf(p, SSL_PERIODS[0]) })}` : ''}
            </option>
          ))}
        </Select>
        <p className="text-xs text-slate-500 dark:text-slate-400">{prices.length ? t('order.charged') : t('order.noPrices')}</p>
        <ErrorList id={fields.product.errorId} errors={fields.product.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.period_months.id}>{t('order.period')}</Label>
        <Select {...getSelectProps(fields.period_months)} key={fields.period_months.key}>
          {SSL_PERIODS.map((m) => (
            <option key={m} value={m}>
              {t('order.months', { count: m })}
              {priceOf(String(fields.product.value ?? 'dv-single'), m) ? ` — ${priceOf(String(fields.product.value ?? 'dv-single'), m)}` : ''}
            </option>
          ))}
        </Select>
        <ErrorList id={fields.period_months.errorId} errors={fields.period_months.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.names.id}>{t('order.names')}</Label>
        <textarea
          {...getTextareaProps(fields.names)}
          key={fields.names.key}
          rows={3}
          placeholder="www.example.com"
          className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
        />
        <p className="text-xs text-slate-500 dark:text-slate-400">{t('order.namesHelp')}</p>
        <ErrorList id={fields.names.errorId} errors={fields.names.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.key_type.id}>{t('order.keyType')}</Label>
        <Select {...getSelectProps(fields.key_type)} key={fields.key_type.key}>
          {SSL_KEY_TYPES.map((k) => (
            <option key={k} value={k}>
              {t(`keyTypes.${k}`)}
            </option>
          ))}
        </Select>
        <ErrorList id={fields.key_type.errorId} errors={fields.key_type.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.csr.id}>{t('order.csr')}</Label>
        <textarea
          {...getTextareaProps(fields.csr)}
          key={fields.csr.key}
          rows={3}
          placeholder="-----BEGIN CERTIFICATE REQUEST-----"
          className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
        />
        <p className="text-xs text-slate-500 dark:text-slate-400">{t('order.csrHelp')}</p>
        <ErrorList id={fields.csr.errorId} errors={fields.csr.errors} />
      </div>
      {SSL_PRODUCTS[(fields.product.value ?? 'dv-single') as keyof typeof SSL_PRODUCTS]?.level !== 'dv' ? (
        <div className="flex flex-col gap-1.5" data-testid="ssl-order-organisation">
          <Label htmlFor={fields.organisation_id.id}>{t('order.organisation')}</Label>
          <Select {...getSelectProps(fields.organisation_id)} key={fields.organisation_id.key}>
            <option value="">{t('order.chooseOrganisation')}</option>
            {organisations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.legal_name} — {t(`organisations.states.${o.status}`)}
              </option>
            ))}
          </Select>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {t('order.organisationHelp')}{' '}
            <Link className="underline" to={href('/ssls/organisations')}>
              {t('organisations.title')}
            </Link>
          </p>
          <ErrorList id={fields.organisation_id.errorId} errors={fields.organisation_id.errors} />
        </div>
      ) : null}
      {dvOnly ? <p className="text-xs text-slate-500 dark:text-slate-400">{t('order.dvOnly')}</p> : null}
      {caaNames.length ? (
        <div
          className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          data-testid="ssl-caa-fix"
        >
          <span>{t('order.caaFix', { names: caaNames.join(', ') })}</span>
          {caaNames.map((n) => (
            <input key={n} type="hidden" name="caa_name" value={n} />
          ))}
          {expected !== undefined ? (
            <>
              <input type="hidden" name="amount_minor" value={expected?.amount_minor ?? ''} />
              <input type="hidden" name="currency" value={expected?.currency ?? ''} />
            </>
          ) : null}
          <Button type="submit" name="intent" value="caa-allow" size="sm" variant="outline" data-testid="ssl-caa-allow">
            {t('order.caaAllow')}
          </Button>
        </div>
      ) : null}
    </Form>
  )
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { Fragment } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, redirect, useActionData, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { z } from 'zod'
import { ErrorList, Field, useZodForm } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/order.ts'
import type { MoneyTotal } from './orders/shared.ts'
import { CONTACT_ROLES, type ContactRole } from '#common/vocabulary.ts'
import { attempt, refusalErrors, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen } from './shared.server.ts'
import { contactLabel } from './shared.tsx'
import { validate } from '#common/json-schema.ts'
import { TemplateFields, templateValuesOf, type TemplateSchema } from '../products/schema-editor.tsx'
import type { Row, Schema } from '#app/lib/platform-api.ts'

/** A cart item at what checkout charges now (`price_minor`), beside its price when added where that changed. */
type CartItem = Schema<'CartItem'>
type Cart = Schema<'Cart'>
type Contact = Pick<Row<'/groups/{context}/contacts'>, 'id' | 'name' | 'organisation'>

const hasRegistration = (cart: Cart) => cart.items.some((i) => i.type === 'register')

/** The totals the checkout form was shown with (its hidden field), or undefined when absent or not that shape. */
const ShownTotals = z.array(z.object({ currency: z.string().max(3), minor: z.number().int() }).strict()).max(50)
function shownTotals(value: FormDataEntryValue | null): MoneyTotal[] | undefined {
  if (typeof value !== 'string' || !value) return undefined
  try {
    const parsed = ShownTotals.safeParse(JSON.parse(value))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

const ALL_PERIODS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

/** The add form; the server decides the rest (TLD periods, availability, price). */
export const addSchema = (t: TFunction) =>
  z.object({
    intent: z.literal('add'),
    name: z
      .string({ error: t('orders:errors.required') })
      .trim()
      .min(1, t('orders:errors.required'))
      .max(300),
    type: z.enum(['register', 'transfer']).default('register'),
    period: z.coerce.number().int().min(1).max(10).default(1),
    auth_code: z.string().max(255).optional(),
  })

/** The checkout form: contact ids, the registrant required when the cart holds a registration. */
export const checkoutSchema = (t: TFunction, needsRegistrant: boolean) => {
  const contactId = z.guid(t('orders:checkout.unknownContact')).optional()
  return z.object({ intent: z.literal('checkout'), registrant: contactId, admin: contactId, tech: contactId, billing: contactId }).superRefine((value, ctx) => {
    if (needsRegistrant && !value.registrant) ctx.addIssue({ code: 'custom', path: ['registrant'], message: t('orders:checkout.registrantRequired') })
  })
}

/**
 * The API's refusals of `contacts.<role>`, placed under their select in the user's language: by
 * the refusal's reason (registrant-required, unknown-contact), else an empty role was missing and
 * a chosen one unknown (the request validator's refusals carry no reason).
 */
function contactRefusals(t: TFunction, body: unknown, sent: Partial<Record<ContactRole, string>>): Partial<Record<ContactRole, string[]>> | null {
  const refusal = body as { reason?: unknown; errors?: { field?: unknown }[] } | null
  if (!Array.isArray(refusal?.errors)) return null
  const found: Partial<Record<ContactRole, string[]>> = {}
  for (const error of refusal.errors) {
    const role = typeof error?.field === 'string' ? /^contacts\.(\w+)$/.exec(error.field)?.[1] : undefined
    if (!CONTACT_ROLES.includes(role as ContactRole)) continue
    const isMissing = refusal.reason === 'registrant-required' || (refusal.reason !== 'unknown-contact' && !sent[role as ContactRole])
    found[role as ContactRole] = [t(isMissing ? 'orders:checkout.registrantRequired' : 'orders:checkout.unknownContact')]
  }
  return Object.keys(found).length ? found : null
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const cart = await screen.platform.get('/groups/{context}/cart', { path: { context: screen.groupContext } })
  // Each row offers the periods its TLD allows (the catalogue's list).
  const periods: Record<string, number[]> = {}
  for (const tld of new Set(cart.items.map((i) => i.tld))) {
    const entry = await attempt(() => screen.platform.get('/tlds/{id}', { path: { id: tld } }))
    periods[tld] = entry.ok ? entry.value.periods : ALL_PERIODS
  }
  // A registration needs its contacts chosen at checkout; null when the user may not read them.
  let contacts: Contact[] | null = []
  if (screen.canManage && hasRegistration(cart)) {
    const listed = await attempt(() => screen.platform.get('/groups/{context}/contacts', { path: { context: screen.groupContext }, query: { limit: 250, sort: 'name' } }))
    contacts = listed.ok ? listed.value.data.map(({ id, name, organisation }) => ({ id, name, organisation })) : null
  }
  const t = getInstance(context).getFixedT(null, 'orders')
  return { cart, periods, contacts, templates: await cartTemplates(screen, cart), canManage: screen.canManage, meta: pageMeta(request, context, t('cart.title')) }
}

/** The registrar template of each cart item whose product has one (issue 17), by item id. */
async function cartTemplates(screen: Awaited<ReturnType<typeof domainScreen>>, cart: Cart): Promise<Record<string, TemplateSchema>> {
  if (!cart.items.length) return {}
  const codes = [...new Set(cart.items.map((i) => `domain:${i.tld}:${i.type}`))].join(',')
  const found = await attempt(() => screen.platform.get('/groups/{context}/registrar-templates/of-products', { path: { context: screen.groupContext }, query: { codes } }))
  if (!found.ok) return {}
  const byCode = new Map(found.value.data.map((d) => [d.product_code, d.schema]))
  return Object.fromEntries(
    cart.items.flatMap((i) => {
      const schema = byCode.get(`domain:${i.tld}:${i.type}`)
      return schema ? [[i.id, schema]] : []
    }),
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const t = getInstance(context).getFixedT(null, 'orders')
  const url = requestUrl(request)
  const here = carryContext('/domains/order', url.searchParams)
  const form = await request.formData()
  const intent = form.get('intent')
  const flash = (content: string, color: 'success' | 'error' = 'success') => ({ 'Set-Cookie': flashHeader(request, { content, color }) })

  if (intent === 'add') {
    const submission = parseWithZod(form, { schema: addSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields: ['auth_code'] }) }, { status: 400 })
    const { name, type, period } = submission.value
    // A registration has no auth code: one typed before switching to Register is not sent.
    const auth_code = type === 'transfer' ? submission.value.auth_code : undefined
    const added = await attempt(() =>
      screen.platform.post('/groups/{context}/cart/items', { path: { context: screen.groupContext }, body: { name, type, period, ...(auth_code ? { auth_code } : {}) } }),
    )
    if (!added.ok) {
      return data({ intent, result: submission.reply({ ...refusalErrors(t, added.problem, ['name', 'period', 'auth_code']), hideFields: ['auth_code'] }) }, { status: added.status })
    }
    return redirect(here, { headers: flash(t('cart.added', { name: added.value.unicode_name })) })
  }

  const id = String(form.get('id') ?? '')
  if (intent === 'update' || intent === 'remove') {
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw data('Unknown cart item', { status: 400 })
    const done =
      intent === 'update'
        ? await attempt(() => screen.platform.patch('/groups/{context}/cart/items/{id}', { path: { context: screen.groupContext, id }, body: { period: Number(form.get('period')) || 1 } }))
        : await attempt(() => screen.platform.delete('/groups/{context}/cart/items/{id}', { path: { context: screen.groupContext, id } }))
    if (!done.ok) return redirect(here, { headers: flash(refusalText(t, done.problem), 'error') })
    return redirect(here, { headers: flash(t(intent === 'update' ? 'cart.updated' : 'cart.removed')) })
  }

  if (intent === 'checkout') {
    const cart = await screen.platform.get('/groups/{context}/cart', { path: { context: screen.groupContext } })
    const needsContacts = hasRegistration(cart)
    const submission = parseWithZod(form, { schema: checkoutSchema(t, needsContacts) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { intent: _, ...chosen } = submission.value
    // The checkout schema requires a registrant whenever contacts are asked for.
    const contacts = Object.fromEntries(CONTACT_ROLES.flatMap((role) => (chosen[role] ? [[role, chosen[role]]] : []))) as Schema<'OrderContactsInput'>
    // The registrar template's fields of each item (issue 17): checked here in the user's language, again by the API.
    const templates = await cartTemplates(screen, cart)
    const lng = getInstance(context).language
    const templateValues: Record<string, Record<string, unknown>> = {}
    const templateTexts: Record<string, Record<string, string>> = {}
    const templateErrors: Record<string, Record<string, string[]>> = {}
    for (const [itemId, schema] of Object.entries(templates)) {
      const { values, texts } = templateValuesOf(schema, (key) => (form.get(`template.${itemId}.${key}`) as string | null) ?? null)
      templateValues[itemId] = values
      templateTexts[itemId] = texts
      // A required field left empty says so in the portal's words; anything else in ajv's, localised.
      const missing = new Set((schema.required ?? []).filter((key) => values[key] === undefined))
      for (const key of missing) (templateErrors[itemId] ??= {})[key] = [getInstance(context).t('validation:required')]
      for (const e of validate(schema as Record<string, unknown>, values, lng)) {
        const key = e.path.replace(/^\//, '').split('/')[0] || '(item)'
        if (missing.has(key)) continue
        ;((templateErrors[itemId] ??= {})[key] ??= []).push(e.allowed ? `${e.message}: ${e.allowed}` : e.message)
      }
    }
    if (Object.keys(templateErrors).length) return data({ intent, result: submission.reply(), templateErrors, templateTexts }, { status: 400 })
    // The totals the page showed: the API refuses the order when the cart totals otherwise now (a price changed since).
    const shown = shownTotals(form.get('expected_totals'))
    const body = {
      ...(needsContacts ? { contacts } : {}),
      ...(Object.keys(templateValues).length ? { template_values: templateValues } : {}),
      ...(shown ? { expected_totals: shown } : {}),
    }
    // Transfers and renewals need no contacts: without a registration the body stays empty, as before.
    const ordered = await attempt(() => screen.platform.post('/groups/{context}/cart/checkout', { path: { context: screen.groupContext }, body: Object.keys(body).length ? body : undefined }))
    if (!ordered.ok) {
      const refusedTemplates: Record<string, Record<string, string[]>> = {}
      for (const e of ordered.problem.errors ?? []) {
        const m = /^template_values\.([0-9a-f-]{36})\.(.+)$/.exec(e.field ?? '')
        if (m) ((refusedTemplates[m[1]!] ??= {})[m[2]!] ??= []).push(e.message ?? t('cart.templateInvalid'))
      }
      if (Object.keys(refusedTemplates).length) return data({ intent, result: submission.reply(), templateErrors: refusedTemplates, templateTexts }, { status: ordered.status })
      // The form comes back with the refusal and the user's choices, under the select it is about.
      const fieldErrors = contactRefusals(t, ordered.problem, chosen)
      const reply = fieldErrors ? submission.reply({ fieldErrors }) : submission.reply({ formErrors: [refusalText(t, ordered.problem)] })
      return data({ intent, result: reply, priceChanged: ordered.problem.reason === 'price-changed' }, { status: ordered.status })
    }
    return redirect(carryContext(`/domains/orders/${ordered.value.id}`, url.searchParams), { headers: flash(t('cart.ordered')) })
  }
  throw data('Unknown action', { status: 400 })
}

/** A checkout refused because a price changed since the page was shown reads the cart again (a refusal otherwise keeps the page's data). */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (actionResult as { priceChanged?: boolean } | undefined)?.priceChanged === true || defaultShouldRevalidate
}

export default function OrderCart({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('orders')
  const { t: tDomains } = useTranslation('domains')
  const actionData = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const { cart, periods, contacts, canManage } = loaderData
  const [form, fields] = useZodForm(addSchema(t), {
    id: 'cart-add',
    lastResult: actionData?.intent === 'add' ? actionData.result : undefined,
    shouldValidate: 'onBlur',
  })
  const money = (minor: number, currency: string) => formatMoney(minor, currency, i18n.language)
  const totals = (
    <dl className="flex flex-wrap gap-4" data-testid="cart-totals">
      {cart.totals.map((total) => (
        <div key={total.currency} className="flex gap-2">
          <dt className="font-medium">{t('cart.total')}</dt>
          <dd className="tabular-nums">{money(total.minor, total.currency)}</dd>
        </div>
      ))}
    </dl>
  )
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={[{ label: tDomains('list.title'), to: '/domains' }]}
        title={t('cart.title')}
        description={t('cart.intro')}
        actions={<HeaderAction to="/domains/orders">{t('cart.viewOrders')}</HeaderAction>}
      />
      {!canManage ? <Alert>{t('cart.readOnly')}</Alert> : null}

      {canManage ? (
        <Card>
          <CardTitle>{t('cart.add')}</CardTitle>
          {/* A new key once a name is in the cart (the cart's newest item changes): the form starts empty for the next name. */}
          <Form key={cart.items.at(-1)?.id ?? 'empty'} method="post" {...getFormProps(form)} className="group/add grid gap-3 sm:grid-cols-[2fr_1fr_1fr_1.5fr_auto] sm:items-start">
            <input type="hidden" name="intent" value="add" />
            <Field
              labelProps={{ children: t('cart.name') }}
              inputProps={{ ...getInputProps(fields.name, { type: 'text' }), placeholder: 'example.com', autoComplete: 'off' }}
              errors={fields.name.errors}
            />
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={fields.type.id}>{t('cart.type')}</Label>
              <Select {...getSelectProps(fields.type)}>
                <option value="register">{t('cart.register')}</option>
                <option value="transfer">{t('cart.transfer')}</option>
              </Select>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={fields.period.id}>{t('cart.period')}</Label>
              <Select {...getSelectProps(fields.period)}>
                {ALL_PERIODS.map((y) => (
                  <option key={y} value={y}>
                    {t('cart.years', { count: y })}
                  </option>
                ))}
              </Select>
              <ErrorList id={`${fields.period.id}-error`} errors={fields.period.errors} />
            </div>
            {/* A transfer's auth code only (issue 28): hidden while Register is chosen, by CSS, so without JavaScript too. */}
            <div data-auth-code className="group-has-[option[value=register]:checked]/add:hidden">
              <Field
                labelProps={{ children: t('cart.authCode') }}
                inputProps={{ ...getInputProps(fields.auth_code, { type: 'password' }), autoComplete: 'off', title: t('cart.authCodeHint') }}
                errors={fields.auth_code.errors}
              />
            </div>
            <Button type="submit" className="sm:mt-6 sm:justify-self-start" disabled={busy}>
              {t('cart.add')}
            </Button>
            <div className="sm:col-span-5">
              <ErrorList id={form.errorId} errors={form.errors} />
            </div>
          </Form>
        </Card>
      ) : null}

      {cart.items.some((item) => item.price_changed) ? <Alert data-testid="cart-prices-changed">{t('cart.pricesChanged')}</Alert> : null}
      {cart.items.length === 0 ? (
        <p data-testid="cart-empty">{t('cart.empty')}</p>
      ) : (
        <>
          <Table aria-label={t('cart.itemsLabel')}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('cart.name')}</TableHead>
                {/* On a phone the type goes under the name, so the price stays on the first screen. */}
                <TableHead className="hidden sm:table-cell">{t('cart.type')}</TableHead>
                <TableHead>{t('cart.period')}</TableHead>
                <TableHead className="text-right">{t('cart.price')}</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {cart.items.map((item) => (
                <TableRow key={item.id} data-testid="cart-row">
                  <TableCell className="font-medium [overflow-wrap:anywhere]">
                    {/* A narrow screen breaks a long name after a dot before it breaks inside a label. */}
                    {item.unicode_name.split('.').map((label, i) => (
                      <Fragment key={i}>
                        {i ? '.' : ''}
                        {i ? <wbr /> : null}
                        {label}
                      </Fragment>
                    ))}
                    <span className="block text-xs font-normal text-slate-500 sm:hidden dark:text-slate-400">{t(`cart.${item.type}`)}</span>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">{t(`cart.${item.type}`)}</TableCell>
                  <TableCell>
                    {canManage ? (
                      <Form method="post" className="flex flex-col items-start gap-1 sm:flex-row sm:items-center sm:gap-2">
                        <input type="hidden" name="id" value={item.id} />
                        <Select name="period" defaultValue={String(item.period)} aria-label={t('cart.period')} className="w-28 sm:w-32">
                          {(periods[item.tld] ?? [item.period]).map((y) => (
                            <option key={y} value={y}>
                              {t('cart.years', { count: y })}
                            </option>
                          ))}
                        </Select>
                        <Button type="submit" name="intent" value="update" variant="outline" size="sm" disabled={busy}>
                          {t('cart.update')}
                        </Button>
                      </Form>
                    ) : (
                      t('cart.years', { count: item.period })
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {money(item.price_minor, item.currency)}
                    {item.price_changed ? (
                      <span className="block text-xs text-amber-700 dark:text-amber-400" data-testid="cart-price-changed">
                        {t('cart.priceChanged', { price: money(item.added_price_minor, item.added_currency) })}
                      </span>
                    ) : null}
                  </TableCell>
                  <TableCell className="text-right">
                    {canManage ? (
                      <Form method="post">
                        <input type="hidden" name="id" value={item.id} />
                        <Button type="submit" name="intent" value="remove" variant="ghost" size="sm" disabled={busy}>
                          {t('cart.remove')}
                        </Button>
                      </Form>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {canManage ? (
            <Checkout
              totals={cart.totals}
              needsContacts={hasRegistration(cart)}
              contacts={contacts}
              lastResult={actionData?.intent === 'checkout' ? actionData.result : undefined}
              busy={busy}
              templates={cart.items.flatMap((item) => (loaderData.templates[item.id] ? [{ item, schema: loaderData.templates[item.id]! }] : []))}
              templateErrors={(actionData as { templateErrors?: Record<string, Record<string, string[]>> } | undefined)?.templateErrors}
              templateTexts={(actionData as { templateTexts?: Record<string, Record<string, string>> } | undefined)?.templateTexts}
            >
              {totals}
            </Checkout>
          ) : (
            totals
          )}
        </>
      )}
    </div>
  )
}

type CheckoutProps = {
  totals: MoneyTotal[]
  needsContacts: boolean
  contacts: Contact[] | null
  lastResult: SubmissionResult<string[]> | undefined
  busy: boolean
  children: React.ReactNode
  templates: { item: CartItem; schema: TemplateSchema }[]
  templateErrors: Record<string, Record<string, string[]>> | undefined
  templateTexts: Record<string, Record<string, string>> | undefined
}

/** Places the order; with a registration in the cart, its contacts are chosen here first. */
function Checkout({ totals, needsContacts, contacts, lastResult, busy, children, templates, templateErrors, templateTexts }: CheckoutProps) {
  const { t, i18n } = useTranslation('orders')
  const href = useContextHref()
  const schema = checkoutSchema(t, needsContacts)
  const [form, fields] = useZodForm(schema, {
    id: 'cart-checkout',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  // Without a contact to choose, a registration cannot be ordered: say why instead of failing later.
  const isBlocked = needsContacts && !contacts?.length
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <input type="hidden" name="intent" value="checkout" />
      <input type="hidden" name="expected_totals" value={JSON.stringify(totals)} />
      {needsContacts ? (
        <Card>
          <fieldset data-testid="checkout-contacts" className="space-y-3">
            <legend className="text-lg font-semibold">{t('checkout.contacts')}</legend>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('checkout.intro')}</p>
            {contacts === null ? (
              <Alert variant="error" data-testid="checkout-no-contacts">
                {t('checkout.contactsUnreadable')}
              </Alert>
            ) : contacts.length === 0 ? (
              <Alert variant="error" data-testid="checkout-no-contacts">
                {t('checkout.noContacts')}{' '}
                <Link className="underline" to={href('/contacts')}>
                  {t('checkout.createContact')}
                </Link>
              </Alert>
            ) : (
              <div className="grid gap-3 sm:grid-cols-2">
                {CONTACT_ROLES.map((role) => {
                  const field = fields[role]
                  const errorId = `${field.id}-error`
                  return (
                    <div key={role} className="flex flex-col gap-1.5">
                      <Label htmlFor={field.id}>{t(`checkout.roles.${role}`)}</Label>
                      <Select
                        {...getSelectProps(field)}
                        required={role === 'registrant' ? true : undefined}
                        aria-invalid={field.errors ? true : undefined}
                        aria-describedby={field.errors ? errorId : undefined}
                      >
                        <option value="">{role === 'registrant' ? t('checkout.choose') : t('checkout.sameAsRegistrant')}</option>
                        {contacts.map((c) => (
                          <option key={c.id} value={c.id}>
                            {contactLabel(c)}
                          </option>
                        ))}
                      </Select>
                      <ErrorList id={errorId} errors={field.errors} />
                    </div>
                  )
                })}
              </div>
            )}
          </fieldset>
        </Card>
      ) : null}
      {templates.map(({ item, schema }) => (
        <Card key={item.id}>
          <fieldset data-testid="checkout-template" data-item={item.unicode_name} className="space-y-3">
            <legend className="text-lg font-semibold">{t('cart.templateTitle', { name: item.unicode_name })}</legend>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('cart.templateIntro', { tld: item.tld })}</p>
            <TemplateFields schema={schema} lng={i18n.language} prefix={`template.${item.id}.`} values={templateTexts?.[item.id]} errors={templateErrors?.[item.id]} />
          </fieldset>
        </Card>
      ))}
      <div className="flex flex-wrap items-center justify-between gap-4">
        {children}
        <div className="flex flex-col items-end gap-1.5">
          <Button type="submit" disabled={busy || isBlocked}>
            {t('cart.submit')}
          </Button>
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      </div>
    </Form>
  )
}

import { useTranslation } from '#app/lib/use-translation.ts'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { ErrorList, Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { convertMinor, currencyDecimals, formatMoney, parseMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { DetailList, yesNo } from '#app/components/screen-parts.tsx'
import { canChange, requireChange } from '../accounts/directory.server.ts'
import type { Route } from './+types/detail.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { RATE_FIELDS, rateSchema } from '../invoicing/pricing-forms.ts'

const KINDS = ['generic', 'country-code', 'sponsored', 'new-generic'] as const
const GRACE = ['add_grace_days', 'renew_grace_days', 'auto_renew_grace_days', 'transfer_grace_days', 'redemption_days'] as const
const FLAGS = ['is_offered', 'dnssec', 'idn', 'registry_lock'] as const
const PERIODS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const

type Tld = {
  id: string
  name: string
  unicode_name: string
  kind: (typeof KINDS)[number]
  registry_operator: string
  periods: number[]
  required_contacts: string[]
  list_price_minor: number | null
  currency: string
  version: number
} & Record<(typeof GRACE)[number], number> &
  Record<(typeof FLAGS)[number], boolean>

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const platform = await getPlatform(request, context)
  const tld = await platform.get<Tld>(`/tlds/${params.id}`)
  const canEdit = canChange(request, user, 'staff')
  // Staff keep the rates that price this TLD for accounts billed in another currency (decision 103).
  const rates = canEdit ? (await platform.get<{ data: Rate[] }>('/currency_rates')).data.filter((r) => r.from_currency === tld.currency) : []
  return { tld, canEdit, rates, meta: pageMeta(request, context, `.${tld.unicode_name || tld.name}`) }
}

type Rate = { from_currency: string; to_currency: string; rate: number; updated_at: string }
type RateAnswer = { intent: 'rate'; result: SubmissionResult<string[]> }

/** Sets the rate of one unit of the TLD's currency in another (staff; conform + zod, `rateSchema`). */
async function setRate(request: Request, context: Route.ActionArgs['context'], params: Route.ActionArgs['params'], formData: FormData) {
  const t = getInstance(context).t
  const platform = await getPlatform(request, context)
  const tld = await platform.get<Tld>(`/tlds/${params.id}`)
  const submission = parseWithZod(formData, { schema: rateSchema(t, tld.currency) })
  if (submission.status !== 'success') return data({ intent: 'rate', result: submission.reply() } satisfies RateAnswer, { status: 400 })
  const { to, rate } = submission.value
  try {
    await platform.put(`/currency_rates/${tld.currency}/${to}`, { rate })
  } catch (error) {
    return data({ intent: 'rate', result: submission.reply(formErrorsOf(t, error, RATE_FIELDS)) } satisfies RateAnswer, { status: 400 })
  }
  const url = requestUrl(request)
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

type Values = Record<string, string | string[]>

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  if (formData.get('intent') === 'rate') return setRate(request, context, params, formData)
  const values: Values = Object.fromEntries([...formData.keys()].map((k) => [k, ['periods', 'required_contacts'].includes(k) ? formData.getAll(k).map(String) : String(formData.get(k))]))
  const fieldErrors: Record<string, string[]> = {}
  const currency = String(values.currency ?? '')
    .trim()
    .toUpperCase()
  if (!/^[A-Z]{3}$/.test(currency)) fieldErrors.currency = [t('validation:required')]
  const body: Record<string, unknown> = {
    kind: values.kind,
    registry_operator: String(values.registry_operator ?? '').trim(),
    periods: ((values.periods as string[] | undefined) ?? []).map(Number),
    required_contacts: (values.required_contacts as string[] | undefined) ?? [],
    currency,
    version: Number(values.version),
  }
  for (const flag of FLAGS) body[flag] = formData.get(flag) === 'on'
  for (const key of GRACE) {
    const n = Number(values[key])
    if (!/^\d{1,3}$/.test(String(values[key] ?? '')) || n > 365) fieldErrors[key] = [t('directory:tlds.daysInvalid')]
    else body[key] = n
  }
  const price = String(values.list_price ?? '').trim()
  if (price === '') body.list_price_minor = null
  else {
    const parsed = parseMoney(price, currency || 'EUR')
    if (parsed.ok && parsed.minor >= 0) body.list_price_minor = parsed.minor
    else fieldErrors.list_price = [t('common:money.invalid')]
  }
  if (Object.keys(fieldErrors).length) return data({ values, fieldErrors, formErrors: [] as string[] }, { status: 400 })
  try {
    await (await getPlatform(request, context)).patch(`/tlds/${params.id}`, body)
  } catch (error) {
    const fields = ['kind', 'registry_operator', 'periods', 'required_contacts', 'currency', 'list_price', ...GRACE, ...FLAGS]
    return data({ values, ...formErrorsOf(t, error, fields, { list_price_minor: 'list_price' }) }, { status: 400 })
  }
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export default function TldDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const { tld, canEdit } = loaderData
  const price = tld.list_price_minor === null ? '—' : formatMoney(tld.list_price_minor, tld.currency, i18n.language)
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">
        .{tld.unicode_name || tld.name}
        {tld.unicode_name && tld.unicode_name !== tld.name ? <span className="ml-2 font-mono text-base text-slate-500">.{tld.name}</span> : null}
      </h1>
      <Card>
        <DetailList
          rows={[
            [t('tlds.fields.kind'), t(`tlds.kinds.${tld.kind}`)],
            [t('tlds.fields.registry_operator'), tld.registry_operator],
            [t('tlds.fields.is_offered'), yesNo(t, tld.is_offered)],
            [t('tlds.fields.periods'), tld.periods.map((p) => t('tlds.years', { count: p })).join(', ')],
            ...GRACE.map((g): [string, React.ReactNode] => [t(`tlds.fields.${g}`), t('tlds.days', { count: tld[g] })]),
            [t('tlds.fields.dnssec'), yesNo(t, tld.dnssec)],
            [t('tlds.fields.idn'), yesNo(t, tld.idn)],
            [t('tlds.fields.registry_lock'), yesNo(t, tld.registry_lock)],
            [t('tlds.fields.required_contacts'), tld.required_contacts.map((r) => t(`tlds.contactRoles.${r}`)).join(', ')],
            [t('tlds.fields.list_price_minor'), price],
          ]}
        />
      </Card>
      {canEdit ? <EditTld tld={tld} result={actionData && !('intent' in actionData) ? actionData : null} /> : null}
      {canEdit ? (
        <Rates
          key={loaderData.rates.map((r) => `${r.to_currency}:${r.rate}`).join()}
          tld={tld}
          rates={loaderData.rates}
          lastResult={actionData && 'intent' in actionData ? actionData.result : undefined}
        />
      ) : null}
    </div>
  )
}

/** What accounts billed in other currencies pay for a year, at the rates staff keep, and a form to set one. */
function Rates({ tld, rates, lastResult }: { tld: Tld; rates: Rate[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t, i18n } = useTranslation('directory')
  const [form, fields] = useZodForm(rateSchema(t, tld.currency), { id: 'tld-rate', lastResult })
  return (
    <Card data-testid="tld-rates">
      <CardTitle>{t('tlds.rates.title')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('tlds.rates.intro', { currency: tld.currency })}</p>
      {rates.length ? (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('tlds.rates.currency')}</TableHead>
              <TableHead className="text-right">{t('tlds.rates.rate')}</TableHead>
              <TableHead className="text-right">{t('tlds.rates.yearPrice')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rates.map((r) => (
              <TableRow key={r.to_currency} data-testid="tld-rate">
                <TableCell className="font-mono">{r.to_currency}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {t('tlds.rates.oneIs', { from: r.from_currency, rate: r.rate.toLocaleString(i18n.language, { maximumFractionDigits: 10 }), to: r.to_currency })}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {tld.list_price_minor === null ? '—' : formatMoney(convertMinor(tld.list_price_minor, tld.currency, r.to_currency, r.rate), r.to_currency, i18n.language)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <p className="text-sm">{t('tlds.rates.none', { currency: tld.currency })}</p>
      )}
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-start gap-3">
        <input type="hidden" name="intent" value="rate" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field
          labelProps={{ children: t('tlds.rates.rateLabel', { currency: tld.currency }) }}
          inputProps={{ ...getInputProps(fields.rate, { type: 'text' }), inputMode: 'decimal', className: 'w-32' }}
          errors={fields.rate.errors}
        />
        <Field
          labelProps={{ children: t('tlds.rates.currency') }}
          inputProps={{ ...getInputProps(fields.to, { type: 'text' }), maxLength: 3, className: 'w-24 font-mono uppercase', placeholder: 'USD' }}
          errors={fields.to.errors}
        />
        <Button type="submit" variant="outline" className="sm:mt-6">
          {t('tlds.rates.save')}
        </Button>
      </Form>
    </Card>
  )
}

function EditTld({ tld, result }: { tld: Tld; result: { values: Values; fieldErrors: Record<string, string[]>; formErrors: string[] } | null }) {
  const { t } = useTranslation('directory')
  const v = result?.values
  const errors = result?.fieldErrors ?? {}
  const text = (key: string, fallback: string) => (v ? String(v[key] ?? '') : fallback)
  const list = (key: 'periods' | 'required_contacts', fallback: string[]) => (v ? ((v[key] as string[] | undefined) ?? []) : fallback)
  const flag = (key: (typeof FLAGS)[number]) => (v ? v[key] === 'on' : tld[key])
  const decimals = currencyDecimals(tld.currency)
  const priceText = tld.list_price_minor === null ? '' : (tld.list_price_minor / 10 ** decimals).toFixed(decimals)
  return (
    <Card>
      <CardTitle>{t('tlds.edit')}</CardTitle>
      <Form method="post" className="space-y-3" key={tld.version}>
        <input type="hidden" name="version" value={tld.version} />
        <FormErrors errors={result?.formErrors} />
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="tld-kind" className="text-sm font-medium">
              {t('tlds.fields.kind')}
            </label>
            <Select id="tld-kind" name="kind" defaultValue={text('kind', tld.kind)}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`tlds.kinds.${k}`)}
                </option>
              ))}
            </Select>
            <ErrorList errors={errors.kind} />
          </div>
          <Field
            labelProps={{ children: t('tlds.fields.registry_operator') }}
            inputProps={{ id: 'tld-operator', name: 'registry_operator', defaultValue: text('registry_operator', tld.registry_operator) }}
            errors={errors.registry_operator}
          />
          {GRACE.map((g) => (
            <Field
              key={g}
              labelProps={{ children: t(`tlds.fields.${g}`) }}
              inputProps={{ id: `tld-${g}`, name: g, type: 'number', min: 0, max: 365, defaultValue: text(g, String(tld[g])) }}
              errors={errors[g]}
            />
          ))}
          <Field
            labelProps={{ children: t('tlds.fields.list_price_minor') }}
            inputProps={{ id: 'tld-price', name: 'list_price', inputMode: 'decimal', defaultValue: text('list_price', priceText) }}
            errors={errors.list_price}
          />
          <Field
            labelProps={{ children: t('tlds.fields.currency') }}
            inputProps={{ id: 'tld-currency', name: 'currency', maxLength: 3, defaultValue: text('currency', tld.currency) }}
            errors={errors.currency}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">{t('tlds.fields.periods')}</legend>
          <div className="flex flex-wrap gap-3">
            {PERIODS.map((p) => (
              <label key={p} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="periods" value={p} defaultChecked={list('periods', tld.periods.map(String)).includes(String(p))} />
                {t('tlds.years', { count: p })}
              </label>
            ))}
          </div>
          <ErrorList errors={errors.periods} />
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium">{t('tlds.fields.required_contacts')}</legend>
          <div className="flex flex-wrap gap-3">
            {CONTACT_ROLES.map((r) => (
              <label key={r} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="required_contacts" value={r} defaultChecked={list('required_contacts', tld.required_contacts).includes(r)} />
                {t(`tlds.contactRoles.${r}`)}
              </label>
            ))}
          </div>
          <ErrorList errors={errors.required_contacts} />
        </fieldset>
        <div className="flex flex-wrap gap-4">
          {FLAGS.map((f) => (
            <label key={f} className="flex items-center gap-1 text-sm">
              <input type="checkbox" name={f} defaultChecked={flag(f)} />
              {t(`tlds.fields.${f}`)}
            </label>
          ))}
        </div>
        <Button type="submit">{t('save')}</Button>
      </Form>
    </Card>
  )
}

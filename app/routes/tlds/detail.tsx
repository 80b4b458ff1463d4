import { useTranslation } from '#app/lib/use-translation.ts'
import { getCollectionProps, getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { ErrorList, Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { convertMinor, currencyDecimals, formatMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { DetailList, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/detail.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { RATE_FIELDS, rateSchema } from '../invoicing/pricing-forms.ts'
import { TLD_ALIAS, TLD_FIELDS, TLD_FLAGS, TLD_GRACE, TLD_PERIODS, tldBody, tldSchema } from './forms.ts'
import { TLD_KINDS } from '#common/lists/directory.ts'
import { tldScripts } from '#common/idna.ts'
import type { Answer, Row } from '#app/lib/platform-api.ts'

type Tld = Answer<'/tlds/{id}'>

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const platform = await getPlatform(request, context)
  const tld = await platform.get('/tlds/{id}', { path: { id: params.id } })
  const canEdit = canChange(request, user, 'staff')
  // Staff keep the rates that price this TLD for accounts billed in another currency (decision 103).
  const rates = canEdit ? (await platform.get('/currency_rates')).data.filter((r) => r.from_currency === tld.currency) : []
  return { tld, canEdit, rates, meta: pageMeta(request, context, `.${tld.unicode_name || tld.name}`) }
}

type Rate = Row<'/currency_rates'>
type RateAnswer = { intent: 'rate'; result: SubmissionResult<string[]> }

/** Sets the rate of one unit of the TLD's currency in another (staff; conform + zod, `rateSchema`). */
async function setRate(request: Request, context: Route.ActionArgs['context'], params: Route.ActionArgs['params'], formData: FormData) {
  const t = getInstance(context).t
  const platform = await getPlatform(request, context)
  const tld = await platform.get('/tlds/{id}', { path: { id: params.id } })
  const submission = parseWithZod(formData, { schema: rateSchema(t, tld.currency) })
  if (submission.status !== 'success') return data({ intent: 'rate', result: submission.reply() } satisfies RateAnswer, { status: 400 })
  const { to, rate } = submission.value
  try {
    await platform.put('/currency_rates/{from}/{to}', { path: { from: tld.currency, to }, body: { rate } })
  } catch (error) {
    return data({ intent: 'rate', result: submission.reply(formErrorsOf(t, error, RATE_FIELDS)) } satisfies RateAnswer, { status: 400 })
  }
  const url = requestUrl(request)
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('directory:saved'), color: 'success' }) } })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

type TldAnswer = { intent: 'tld'; result: SubmissionResult<string[]> }

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  if (formData.get('intent') === 'rate') return setRate(request, context, params, formData)
  const submission = parseWithZod(formData, { schema: tldSchema(t) })
  if (submission.status !== 'success') return data({ intent: 'tld', result: submission.reply() } satisfies TldAnswer, { status: 400 })
  try {
    await (await getPlatform(request, context)).patch('/tlds/{id}', { path: { id: params.id }, body: tldBody(submission.value) })
  } catch (error) {
    return data({ intent: 'tld', result: submission.reply(formErrorsOf(t, error, TLD_FIELDS, TLD_ALIAS)) } satisfies TldAnswer, { status: 400 })
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
            ...TLD_GRACE.map((g): [string, React.ReactNode] => [t(`tlds.fields.${g}`), t('tlds.days', { count: tld[g] })]),
            [t('tlds.fields.dnssec'), yesNo(t, tld.dnssec)],
            [t('tlds.fields.idn'), yesNo(t, tld.idn)],
            [t('tlds.fields.idn_scripts'), tld.idn_scripts?.join(', ') ?? t('tlds.scriptsDefault', { scripts: tldScripts(tld.name, tld.unicode_name, null).join(', ') })],
            [t('tlds.fields.registry_lock'), yesNo(t, tld.registry_lock)],
            [t('tlds.fields.required_contacts'), tld.required_contacts.map((r) => t(`tlds.contactRoles.${r}`)).join(', ')],
            [t('tlds.fields.list_price_minor'), price],
          ]}
        />
      </Card>
      {canEdit ? <EditTld key={tld.version} tld={tld} lastResult={actionData?.intent === 'tld' ? actionData.result : undefined} /> : null}
      {canEdit ? (
        <Rates key={loaderData.rates.map((r) => `${r.to_currency}:${r.rate}`).join()} tld={tld} rates={loaderData.rates} lastResult={actionData?.intent === 'rate' ? actionData.result : undefined} />
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

/** The catalogue entry's form (conform + zod, `tldSchema`): what the API would refuse is refused beside its field, as typed. */
function EditTld({ tld, lastResult }: { tld: Tld; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('directory')
  const decimals = currencyDecimals(tld.currency)
  const [form, fields] = useZodForm(tldSchema(t), {
    id: 'tld',
    lastResult,
    defaultValue: {
      ...tld,
      list_price: tld.list_price_minor === null ? '' : (tld.list_price_minor / 10 ** decimals).toFixed(decimals),
      periods: tld.periods.map(String),
      idn_scripts: tld.idn_scripts?.join(', ') ?? '',
    },
  })
  return (
    <Card data-testid="tld-edit">
      <CardTitle>{t('tlds.edit')}</CardTitle>
      <Form method="post" {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value="tld" />
        <input type="hidden" name="version" value={tld.version} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
          <SelectField label={t('tlds.fields.kind')} selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
            {TLD_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`tlds.kinds.${k}`)}
              </option>
            ))}
          </SelectField>
          <Field labelProps={{ children: t('tlds.fields.registry_operator') }} inputProps={getInputProps(fields.registry_operator, { type: 'text' })} errors={fields.registry_operator.errors} />
          {TLD_GRACE.map((g) => (
            <Field key={g} labelProps={{ children: t(`tlds.fields.${g}`) }} inputProps={getInputProps(fields[g], { type: 'number' })} errors={fields[g].errors} />
          ))}
          <Field
            labelProps={{ children: t('tlds.fields.list_price_minor') }}
            inputProps={{ ...getInputProps(fields.list_price, { type: 'text' }), inputMode: 'decimal' }}
            errors={fields.list_price.errors}
          />
          <Field
            labelProps={{ children: t('tlds.fields.idn_scripts') }}
            inputProps={{ ...getInputProps(fields.idn_scripts, { type: 'text' }), placeholder: tldScripts(tld.name, tld.unicode_name, null).join(', '), className: 'font-mono' }}
            errors={fields.idn_scripts.errors}
          />
          <Field
            labelProps={{ children: t('tlds.fields.currency') }}
            inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3, className: 'font-mono uppercase' }}
            errors={fields.currency.errors}
          />
        </div>
        <CheckboxGroup legend={t('tlds.fields.periods')} field={fields.periods} options={TLD_PERIODS.map(String)} label={(p) => t('tlds.years', { count: Number(p) })} />
        <CheckboxGroup legend={t('tlds.fields.required_contacts')} field={fields.required_contacts} options={[...CONTACT_ROLES]} label={(r) => t(`tlds.contactRoles.${r}`)} />
        <div className="flex flex-wrap gap-4">
          {TLD_FLAGS.map((f) => (
            <label key={f} className="flex items-center gap-1 text-sm">
              <input {...getInputProps(fields[f], { type: 'checkbox' })} />
              {t(`tlds.fields.${f}`)}
            </label>
          ))}
        </div>
        <Button type="submit">{t('save')}</Button>
      </Form>
    </Card>
  )
}

/** Checkboxes of one field (a list of values), its errors below them and named by the group. */
function CheckboxGroup({ legend, field, options, label }: { legend: string; field: FieldMetadata<string[] | undefined>; options: string[]; label: (value: string) => string }) {
  const errors = field.errors
  return (
    <fieldset aria-describedby={errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {getCollectionProps(field, { type: 'checkbox', options }).map(({ key, required: _required, ...props }) => (
          <label key={key} className="flex items-center gap-1 text-sm">
            <input {...props} />
            {label(props.value)}
          </label>
        ))}
      </div>
      <ErrorList id={field.errorId} errors={errors} />
    </fieldset>
  )
}

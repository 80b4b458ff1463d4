import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { FormErrors, LabelledField, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import { REVOCATION_REASONS, SSL_KEY_TYPES, SSL_PERIODS } from '#common/ssl.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { DetailList } from '#app/components/screen-parts.tsx'
import { loadCertificate } from './detail.server.ts'
import { namesOf, reissueSchema, renewSchema, revokeSchema } from './forms.ts'
import { ChargeText, OrganisationStatus, SslHeader, SslStatus } from './shared.tsx'
import type { Route } from './+types/detail.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { PlatformError } from '#app/lib/platform-client.ts'
import { ChargeConfirmation, shownPriceOf, type ShownPrice } from '#app/components/charge-confirmation.tsx'

/** A renewal's period and the engine's price for it, shown to confirm before it is charged. */
type RenewQuote = { period_months: number; price: ShownPrice }

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, certificate, platform, groupContext } = await loadCertificate(request, context, params)
  const manager = canChange(request, user, 'ssl-manager')
  // The renewal's prices (the pricing engine's quote per period), for whoever can renew.
  const prices = manager ? (await platform.get('/groups/{context}/ssl-settings', { path: { context: groupContext } })).prices : []
  return { certificate, prices, canChange: manager, meta: pageMeta(request, context, certificate.common_name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, url, groupContext, platform, certificate } = await loadCertificate(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const done = (key: string, to = url.pathname) => redirect(to + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t(`ssl:done.${key}`), color: 'success' }) } })
  const onward = (id: string) => url.pathname.replace(/[^/]+$/, id)
  // Renew, reissue and revoke are forms (conform + zod): their errors beside their fields, what was typed kept.
  // A renewal charges: the first submit shows the period and the engine's price for it (the
  // settings' quotes, the ones the charge takes) and charges nothing; the confirmation posts the
  // price shown, which the API holds the charge to (issue 28).
  const quoteOf = async (months: number): Promise<RenewQuote> => {
    const { prices } = await platform.get('/groups/{context}/ssl-settings', { path: { context: groupContext } })
    const row = prices.find((p) => p.product === certificate.product && p.period_months === months && p.action === 'renew')
    return { period_months: months, price: row ? { amount_minor: row.amount_minor, currency: row.currency } : null }
  }
  if (intent === 'renew') {
    const submission = parseWithZod(form, { schema: renewSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    return { intent, confirm: await quoteOf(submission.value.period_months) }
  }
  if (intent === 'renew-confirmed') {
    const submission = parseWithZod(form, { schema: renewSchema(t) })
    if (submission.status !== 'success') return data({ intent: 'renew', result: submission.reply() }, { status: 400 })
    try {
      const next = await platform.post('/groups/{context}/ssls/{id}/renew', {
        path: { context: groupContext, id: certificate.id },
        body: { period_months: submission.value.period_months, expected: shownPriceOf(form) ?? null },
      })
      return done('renew', onward(next.id))
    } catch (error) {
      // The price changed in between: nothing was charged; the new price is asked again.
      const changed = error instanceof PlatformError && (error.data as { code?: string } | null)?.code === 'billing.quote_changed'
      return data(
        { intent: 'renew', result: submission.reply(formErrorsOf(t, error, ['period_months'], {}, 'ssl')), ...(changed ? { confirm: await quoteOf(submission.value.period_months) } : {}) },
        { status: 400 },
      )
    }
  }
  if (intent === 'reissue') {
    const submission = parseWithZod(form, { schema: reissueSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { names, csr, key_type } = submission.value
    try {
      const next = await platform.post('/groups/{context}/ssls/{id}/reissue', {
        path: { context: groupContext, id: certificate.id },
        body: { names: namesOf(names), ...(csr ? { csr } : { key_type }) },
      })
      return done('reissue', onward(next.id))
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ['names', 'key_type', 'csr'], {}, 'ssl')) }, { status: 400 })
    }
  }
  if (intent === 'revoke') {
    const submission = parseWithZod(form, { schema: revokeSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    try {
      await platform.post('/groups/{context}/ssls/{id}/revoke', { path: { context: groupContext, id: certificate.id }, body: { reason: submission.value.reason } })
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ['reason'], {}, 'ssl')) }, { status: 400 })
    }
    return done('revoke')
  }
  // Cancel and check are one-button posts.
  try {
    if (intent === 'cancel') await platform.post('/groups/{context}/ssls/{id}/cancel', { path: { context: groupContext, id: certificate.id } })
    else if (intent === 'check') await platform.post('/groups/{context}/ssls/{id}/check', { path: { context: groupContext, id: certificate.id } })
    else return data({ intent, errors: [t('ssl:errors.unknown')] }, { status: 400 })
  } catch (error) {
    return data({ intent, errors: formErrorsOf(t, error, [], {}, 'ssl').formErrors }, { status: 400 })
  }
  return done(intent)
}

export default function SslDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  const c = loaderData.certificate
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '')
  const inFlight = c.status === 'pending_validation' || c.status === 'issuing'
  const resultOf = (intent: string) => (actionData && 'result' in actionData && actionData.intent === intent ? actionData.result : undefined)
  const confirm = actionData && 'confirm' in actionData ? (actionData.confirm as RenewQuote | undefined) : undefined
  const navigation = useNavigation()
  const originLabel = (origin: string) => (origin === 'renewal' ? t('term.renewal') : origin === 'reissue' ? t('term.reissue') : origin === 'import' ? t('term.import') : t('term.first'))
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="overview" />
      {actionData && 'errors' in actionData ? <FormErrors errors={actionData.errors} /> : null}
      {c.status === 'draft' && c.organisation ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="ssl-waits-organisation">
          {t('waitsOrganisation', { organisation: c.organisation.legal_name })}{' '}
          <Link className="underline" to={href(`/ssls/organisations/${c.organisation.id}`)}>
            {t('organisations.checklist')}
          </Link>
        </p>
      ) : null}
      {inFlight ? (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100" data-testid="ssl-in-flight">
          {t('inFlight')}{' '}
          <Link className="underline" to={href(`/ssls/${c.id}/validation`)}>
            {t('tabs.validation')}
          </Link>
        </p>
      ) : null}
      {c.key_source === 'imported' ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300" data-testid="ssl-imported">
          {t('importedNote', { ca: c.ca })}
        </p>
      ) : null}
      {c.status === 'failed' && c.failure_reason ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="ssl-failure">
          {t('failed', { reason: c.failure_reason })}
        </p>
      ) : null}
      <Card>
        <DetailList
          rows={[
            [t('fields.names'), <span className="font-mono text-xs">{c.names.join(', ')}</span>],
            [t('fields.product'), `${t(`products.${c.product}`, { defaultValue: c.product })} (${c.validation_level.toUpperCase()})`],
            ...(c.organisation
              ? [
                  [
                    t('fields.organisation'),
                    <span className="flex flex-wrap items-center gap-2">
                      <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/ssls/organisations/${c.organisation.id}`)}>
                        {c.organisation.legal_name}
                      </Link>
                      <OrganisationStatus status={c.organisation.status} />
                    </span>,
                  ] as [string, React.ReactNode],
                ]
              : []),
            [t('fields.price'), c.price ? <ChargeText charge={c.price} /> : t(c.origin === 'reissue' || c.origin === 'renewal' ? 'charge.free' : 'charge.none')],
            [t('fields.ca'), c.ca],
            [t('fields.key_type'), `${t(`keyTypes.${c.key_type}`, { defaultValue: c.key_type })} · ${t(`keySource.${c.key_source}`)}`],
            [t('fields.serial'), c.serial ? <span className="break-all font-mono text-xs">{c.serial}</span> : ''],
            [t('fields.not_before'), when(c.not_before)],
            [t('fields.not_after'), when(c.not_after)],
            [t('fields.renew_after'), when(c.renew_after)],
            ...(c.revoked_at ? [[t('fields.revoked_at'), `${when(c.revoked_at)} (${t(`reasons.${c.revocation_reason ?? 'unspecified'}`)})`] as [string, string]] : []),
            [t('fields.created_at'), `${when(c.created_at)} · ${c.created_by}`],
          ]}
        />
      </Card>
      <Card>
        <CardTitle>{t('term.title')}</CardTitle>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">{t('term.span', { from: when(c.term.starts_at), to: when(c.term.ends_at), count: c.term.period_months })}</p>
        <ol className="space-y-1 text-sm" data-testid="ssl-term">
          {c.term.certificates.map((x) => (
            <li key={x.id} className="flex flex-wrap items-center gap-2">
              {x.id === c.id ? (
                <span className="font-medium">
                  {t('term.this')} · {originLabel(x.origin)}
                </span>
              ) : (
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/ssls/${x.id}`)}>
                  {originLabel(x.origin)}
                </Link>
              )}
              <SslStatus status={x.status} />
              <span className="text-slate-500 dark:text-slate-400">{x.not_after ? t('term.until', { date: when(x.not_after) }) : when(x.created_at)}</span>
            </li>
          ))}
        </ol>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400" data-testid="ssl-notices">
          {c.term.notices_sent.length ? t('term.notices', { days: [...c.term.notices_sent].sort((a, b) => b - a).join(', ') }) : t('term.noNotices')}
        </p>
      </Card>
      {loaderData.canChange ? (
        <Card>
          <CardTitle>{t('actions')}</CardTitle>
          <div className="flex flex-wrap items-end gap-4">
            {inFlight ? (
              <Form method="post">
                <input type="hidden" name="intent" value="check" />
                <Button type="submit" variant="outline" data-testid="ssl-check">
                  {t('check')}
                </Button>
              </Form>
            ) : null}
            {c.status === 'draft' || c.status === 'pending_validation' || c.status === 'failed' ? (
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <Button type="submit" variant="outline" data-testid="ssl-cancel">
                  {t('cancel')}
                </Button>
              </Form>
            ) : null}
            {['issued', 'expiring', 'expired'].includes(c.status) && c.key_source !== 'imported' && !c.term.certificates.some((x) => x.renewal_of === c.id) ? (
              <details className="w-full rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid="ssl-renew-open" open={resultOf('renew') || confirm ? true : undefined}>
                <summary className="cursor-pointer text-sm font-medium">{t('renew.title')}…</summary>
                {confirm ? (
                  <ChargeConfirmation
                    question={t('renew.confirm', {
                      name: c.common_name,
                      count: confirm.period_months,
                      price: confirm.price ? formatMoney(confirm.price.amount_minor, confirm.price.currency, i18n.language) : t('renew.noCharge'),
                    })}
                    note={t('renew.chargeNote')}
                    confirmLabel={t('renew.confirmCharge')}
                    cancelLabel={t('renew.cancelCharge')}
                    intent="renew-confirmed"
                    fields={{ period_months: confirm.period_months }}
                    price={confirm.price}
                    busy={navigation.state !== 'idle'}
                    testId="ssl-renew"
                  />
                ) : null}
                <RenewForm certificate={c} prices={loaderData.prices} lastResult={resultOf('renew')} />
              </details>
            ) : null}
            {(c.status === 'issued' || c.status === 'expiring') && c.key_source !== 'imported' && !c.term.certificates.some((x) => x.renewal_of === c.id) ? (
              <details className="w-full rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid="ssl-reissue-open" open={resultOf('reissue') ? true : undefined}>
                <summary className="cursor-pointer text-sm font-medium">{t('reissue.title')}…</summary>
                <ReissueForm certificate={c} lastResult={resultOf('reissue')} />
              </details>
            ) : null}
            {(c.status === 'issued' || c.status === 'expiring') && c.key_source !== 'imported' ? (
              <details className="rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid="confirm-revoke" open={resultOf('revoke') ? true : undefined}>
                <summary className="cursor-pointer text-sm font-medium">{t('revoke')}…</summary>
                <RevokeForm lastResult={resultOf('revoke')} />
              </details>
            ) : null}
          </div>
        </Card>
      ) : null}
    </div>
  )
}

type Certificate = Route.ComponentProps['loaderData']['certificate']
type Result = SubmissionResult<string[]> | undefined

/** Another period of the coverage term, priced per period by the quote. */
function RenewForm({ certificate: c, prices, lastResult }: { certificate: Certificate; prices: Route.ComponentProps['loaderData']['prices']; lastResult: Result }) {
  const { t, i18n } = useTranslation('ssl')
  const [form, fields] = useZodForm(renewSchema(t), { id: 'ssl-renew', lastResult, defaultValue: { intent: 'renew', period_months: String(SSL_PERIODS[0]) } })
  return (
    <Form method="post" className="mt-2 flex flex-wrap items-end gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="renew" />
      <p className="w-full text-sm text-slate-600 dark:text-slate-400">{t('renew.help', { date: c.term.ends_at ? formatDateTime(c.term.ends_at, i18n.language) : '' })}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <SelectField
        label={t('renew.period')}
        selectProps={{ ...getSelectProps(fields.period_months), id: 'ssl-renew-period', 'data-testid': 'ssl-renew-period' } as SelectProps}
        errors={fields.period_months.errors}
      >
        {SSL_PERIODS.map((m) => {
          const price = prices.find((p) => p.product === c.product && p.period_months === m && p.action === 'renew')
          return (
            <option key={m} value={m}>
              {t('order.months', { count: m })}
              {price ? ` — ${formatMoney(price.amount_minor, price.currency, i18n.language)}` : ''}
            </option>
          )
        })}
      </SelectField>
      <div className="pb-5">
        <Button type="submit" size="sm" data-testid="ssl-renew">
          {t('renew.submit')}
        </Button>
      </div>
    </Form>
  )
}

/** A new key (or a CSR) and the names, within the product's limits, under the same coverage term. */
function ReissueForm({ certificate: c, lastResult }: { certificate: Certificate; lastResult: Result }) {
  const { t, i18n } = useTranslation('ssl')
  const [form, fields] = useZodForm(reissueSchema(t), {
    id: 'ssl-reissue',
    lastResult,
    defaultValue: { intent: 'reissue', names: c.names.join('\n'), key_type: (SSL_KEY_TYPES as readonly string[]).includes(c.key_type) ? c.key_type : 'ecdsa-p256', csr: '' },
  })
  const area = 'rounded-md border border-slate-300 bg-white px-3 py-2 font-mono dark:border-slate-700 dark:bg-slate-950'
  return (
    <Form method="post" className="mt-2 grid gap-3 md:grid-cols-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="reissue" />
      <p className="text-sm text-slate-600 md:col-span-2 dark:text-slate-400">{t('reissue.help', { date: c.term.ends_at ? formatDateTime(c.term.ends_at, i18n.language) : '' })}</p>
      <div className="md:col-span-2">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <div className="md:col-span-2">
        <LabelledField label={t('reissue.names')} errors={fields.names.errors} errorId={fields.names.errorId}>
          <textarea {...getTextareaProps(fields.names)} rows={2} className={`mt-1 block w-full text-sm ${area}`} data-testid="ssl-reissue-names" />
        </LabelledField>
      </div>
      <SelectField
        label={t('reissue.keyType')}
        selectProps={{ ...getSelectProps(fields.key_type), id: 'ssl-reissue-key-type', 'data-testid': 'ssl-reissue-key-type' } as SelectProps}
        errors={fields.key_type.errors}
      >
        {SSL_KEY_TYPES.map((k) => (
          <option key={k} value={k}>
            {t(`keyTypes.${k}`)}
          </option>
        ))}
      </SelectField>
      <LabelledField label={t('reissue.csr')} errors={fields.csr.errors} errorId={fields.csr.errorId}>
        <textarea {...getTextareaProps(fields.csr)} rows={2} placeholder="-----BEGIN CERTIFICATE REQUEST-----" className={`mt-1 block w-full text-xs ${area}`} />
      </LabelledField>
      <div className="md:col-span-2">
        <Button type="submit" size="sm" data-testid="ssl-reissue">
          {t('reissue.submit')}
        </Button>
      </div>
    </Form>
  )
}

/** Revocation at the CA with an RFC 5280 reason. */
function RevokeForm({ lastResult }: { lastResult: Result }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(revokeSchema(t), { id: 'ssl-revoke', lastResult, defaultValue: { intent: 'revoke', reason: 'unspecified' } })
  return (
    <Form method="post" className="mt-2 flex flex-wrap items-end gap-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="revoke" />
      <p className="w-full text-sm text-slate-600 dark:text-slate-400">{t('revokeQuestion')}</p>
      <FormErrors id={form.errorId} errors={form.errors} />
      <SelectField
        label={t('revokeReason')}
        selectProps={{ ...getSelectProps(fields.reason), id: 'ssl-revoke-reason', 'data-testid': 'ssl-revoke-reason' } as SelectProps}
        errors={fields.reason.errors}
      >
        {Object.keys(REVOCATION_REASONS).map((r) => (
          <option key={r} value={r}>
            {t(`reasons.${r}`)}
          </option>
        ))}
      </SelectField>
      <div className="pb-5">
        <Button type="submit" variant="destructive" size="sm" data-testid="ssl-revoke">
          {t('revoke')}
        </Button>
      </div>
    </Form>
  )
}

type SelectProps = React.ComponentProps<'select'> & { id: string }

import { data, Form, Link, redirect } from 'react-router'
import { FormErrors } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { REVOCATION_REASONS, SSL_KEY_TYPES } from '#common/ssl.ts'
import { canChange, requireChange } from '../accounts/directory.server.ts'
import { DetailList } from '#app/components/screen-parts.tsx'
import { loadCertificate } from './detail.server.ts'
import { SslHeader, SslStatus } from './shared.tsx'
import type { Route } from './+types/detail.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, certificate } = await loadCertificate(request, context, params)
  return { certificate, canChange: canChange(request, user, 'ssl-manager'), meta: pageMeta(request, context, certificate.common_name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, url, groupContext, platform, certificate } = await loadCertificate(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const path = `/groups/${groupContext}/ssls/${certificate.id}`
  try {
    if (intent === 'revoke') await platform.post(`${path}/revoke`, { reason: String(form.get('reason') ?? '') })
    else if (intent === 'cancel') await platform.post(`${path}/cancel`)
    else if (intent === 'check') await platform.post(`${path}/check`)
    else if (intent === 'reissue') {
      const csr = String(form.get('csr') ?? '').trim()
      const names = String(form.get('names') ?? '')
        .split(/[\s,]+/)
        .filter(Boolean)
      const next = await platform.post<{ id: string }>(`${path}/reissue`, { names, ...(csr ? { csr } : { key_type: String(form.get('key_type') ?? '') }) })
      return redirect(url.pathname.replace(/[^/]+$/, next.id) + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:done.reissue'), color: 'success' }) } })
    } else return data({ errors: [t('ssl:errors.unknown')] }, { status: 400 })
  } catch (error) {
    return data({ errors: formErrorsOf(t, error, [], {}, 'ssl').formErrors }, { status: 400 })
  }
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t(`ssl:done.${intent}`), color: 'success' }) } })
}

export default function SslDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  const c = loaderData.certificate
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '')
  const inFlight = c.status === 'pending_validation' || c.status === 'issuing'
  const originLabel = (origin: string) => (origin === 'renewal' ? t('term.renewal') : origin === 'reissue' ? t('term.reissue') : origin === 'import' ? t('term.import') : t('term.first'))
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="overview" />
      {actionData?.errors ? <FormErrors errors={actionData.errors} /> : null}
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
            [t('fields.price'), t('noPrice')],
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
            {c.status === 'pending_validation' || c.status === 'failed' ? (
              <Form method="post">
                <input type="hidden" name="intent" value="cancel" />
                <Button type="submit" variant="outline" data-testid="ssl-cancel">
                  {t('cancel')}
                </Button>
              </Form>
            ) : null}
            {(c.status === 'issued' || c.status === 'expiring') && c.key_source !== 'imported' && !c.term.certificates.some((x) => x.renewal_of === c.id) ? (
              <details className="w-full rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid="ssl-reissue-open">
                <summary className="cursor-pointer text-sm font-medium">{t('reissue.title')}…</summary>
                <Form method="post" className="mt-2 grid gap-3 md:grid-cols-2">
                  <input type="hidden" name="intent" value="reissue" />
                  <p className="text-sm text-slate-600 md:col-span-2 dark:text-slate-400">{t('reissue.help', { date: when(c.term.ends_at) })}</p>
                  <label className="flex flex-col gap-1 text-sm md:col-span-2">
                    {t('reissue.names')}
                    <textarea
                      name="names"
                      rows={2}
                      defaultValue={c.names.join('\n')}
                      className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
                      data-testid="ssl-reissue-names"
                    />
                  </label>
                  <label className="flex flex-col gap-1 text-sm">
                    {t('reissue.keyType')}
                    <Select name="key_type" defaultValue={(SSL_KEY_TYPES as readonly string[]).includes(c.key_type) ? c.key_type : 'ecdsa-p256'} data-testid="ssl-reissue-key-type">
                      {SSL_KEY_TYPES.map((k) => (
                        <option key={k} value={k}>
                          {t(`keyTypes.${k}`)}
                        </option>
                      ))}
                    </Select>
                  </label>
                  <label className="flex flex-col gap-1 text-sm">
                    {t('reissue.csr')}
                    <textarea
                      name="csr"
                      rows={2}
                      placeholder="-----BEGIN CERTIFICATE REQUEST-----"
                      className="rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
                    />
                  </label>
                  <div className="md:col-span-2">
                    <Button type="submit" size="sm" data-testid="ssl-reissue">
                      {t('reissue.submit')}
                    </Button>
                  </div>
                </Form>
              </details>
            ) : null}
            {(c.status === 'issued' || c.status === 'expiring') && c.key_source !== 'imported' ? (
              <details className="rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid="confirm-revoke">
                <summary className="cursor-pointer text-sm font-medium">{t('revoke')}…</summary>
                <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="revoke" />
                  <p className="w-full text-sm text-slate-600 dark:text-slate-400">{t('revokeQuestion')}</p>
                  <label className="flex flex-col gap-1 text-sm">
                    {t('revokeReason')}
                    <Select name="reason" defaultValue="unspecified" data-testid="ssl-revoke-reason">
                      {Object.keys(REVOCATION_REASONS).map((r) => (
                        <option key={r} value={r}>
                          {t(`reasons.${r}`)}
                        </option>
                      ))}
                    </Select>
                  </label>
                  <Button type="submit" variant="destructive" size="sm" data-testid="ssl-revoke">
                    {t('revoke')}
                  </Button>
                </Form>
              </details>
            ) : null}
          </div>
        </Card>
      ) : null}
    </div>
  )
}

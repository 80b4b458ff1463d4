import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { loadCertificate } from './detail.server.ts'
import { validateSchema } from './forms.ts'
import { SslHeader } from './shared.tsx'
import type { Route } from './+types/validation.ts'

/** /ssls/{id}/validation: per name its method, the exact record or file, its state and the CA's problem. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, certificate } = await loadCertificate(request, context, params)
  const t = getInstance(context).t
  return { certificate, canCheck: canChange(request, user, 'ssl-manager'), meta: pageMeta(request, context, t('ssl:tabs.validation')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** "Check and validate": the name's chosen proof (its DNS record or its HTTP file) is looked up and the CA asked. */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, url, groupContext, platform, certificate } = await loadCertificate(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: validateSchema(t) })
  const key = (v: { name?: unknown; method?: unknown }) => `${String(v.name ?? '')} ${String(v.method ?? '')}`
  if (submission.status !== 'success') return data({ key: key(submission.payload), result: submission.reply() }, { status: 400 })
  const { name, method } = submission.value
  try {
    await platform.post('/groups/{context}/ssls/{id}/check', { path: { context: groupContext, id: certificate.id }, body: { methods: { [name]: method } } })
  } catch (error) {
    // The API names the name's field `methods.<name>`: it is this form's name.
    return data({ key: key(submission.value), result: submission.reply(formErrorsOf(t, error, ['name', 'method'], { [`methods.${name}`]: 'name' }, 'ssl')) }, { status: 400 })
  }
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:done.check'), color: 'success' }) } })
}

const STATE_COLOR = { pending: 'blue', valid: 'green', invalid: 'red' } as const

export default function SslValidation({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const c = loaderData.certificate
  const inFlight = c.status === 'pending_validation' || c.status === 'issuing'
  const box = 'overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900'
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="validation" />
      {c.validations.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{t('validation.none')}</p> : null}
      <div className="space-y-3">
        {c.validations.map((v) => {
          const choosing = loaderData.canCheck && inFlight && !v.hosted && v.state !== 'valid'
          const http = v.http_path && !v.name.startsWith('*.')
          return (
            <Card key={v.id} data-testid="ssl-validation">
              <div className="mb-2 flex flex-wrap items-center gap-2">
                <span className="break-all font-mono text-sm font-medium">{v.name}</span>
                <Badge color={STATE_COLOR[v.state]} data-testid="ssl-validation-state">
                  {t(`validation.states.${v.state}`)}
                </Badge>
                <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="ssl-validation-method">
                  {v.method.toUpperCase()}
                </span>
              </div>
              <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
                {v.hosted ? t(v.published ? 'validation.hostedPublished' : 'validation.hosted') : http ? t('validation.elsewhereBoth') : t('validation.elsewhere')}
              </p>
              <div className={http && !v.hosted ? 'grid gap-3 lg:grid-cols-2' : ''}>
                <section aria-label="DNS-01" className="space-y-2">
                  {http && !v.hosted ? <h3 className="text-sm font-medium">{t('validation.dnsTitle')}</h3> : null}
                  <pre className={box}>{`${v.record_name ?? ''}. ${v.record_type} "${v.record_value ?? ''}"`}</pre>
                  {choosing ? <ValidateForm name={v.name} method="dns-01" lastResult={actionData?.key === `${v.name} dns-01` ? actionData.result : undefined} /> : null}
                </section>
                {http && !v.hosted ? (
                  <section aria-label="HTTP-01" className="space-y-2" data-testid="ssl-http01">
                    <h3 className="text-sm font-medium">{t('validation.httpTitle')}</h3>
                    <p className="text-xs text-slate-600 dark:text-slate-400">{t('validation.httpHelp')}</p>
                    <dl className="space-y-1 text-xs">
                      <dt className="text-slate-500 dark:text-slate-400">{t('validation.httpUrl')}</dt>
                      <dd className={box} data-testid="ssl-http01-url">{`http://${v.name}${v.http_path}`}</dd>
                      <dt className="text-slate-500 dark:text-slate-400">{t('validation.httpContent')}</dt>
                      <dd className={box} data-testid="ssl-http01-content">
                        {v.http_content}
                      </dd>
                    </dl>
                    {choosing ? <ValidateForm name={v.name} method="http-01" lastResult={actionData?.key === `${v.name} http-01` ? actionData.result : undefined} /> : null}
                  </section>
                ) : null}
              </div>
              {v.problem ? (
                <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                  {v.problem.detail ?? v.problem.type}
                </p>
              ) : null}
              <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
                {v.checked_at ? t('validation.checked', { when: formatDateTime(v.checked_at, i18n.language) }) : t('validation.notChecked')}
              </p>
            </Card>
          )
        })}
      </div>
    </div>
  )
}

/** "Check and validate" one name by one proof: its errors (the API's refusal among them) beside its button. */
function ValidateForm({ name, method, lastResult }: { name: string; method: 'dns-01' | 'http-01'; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(validateSchema(t), { id: `ssl-validate-${method}-${name}`, lastResult, defaultValue: { name, method } })
  const errors = [...(form.errors ?? []), ...(fields.name.errors ?? []), ...(fields.method.errors ?? [])]
  return (
    <Form method="post" className="space-y-2" {...getFormProps(form)}>
      <input type="hidden" name={fields.name.name} value={name} />
      <input type="hidden" name={fields.method.name} value={method} />
      <Button type="submit" size="sm" variant={method === 'dns-01' ? 'outline' : 'default'} data-testid={method === 'dns-01' ? 'ssl-validate-dns' : 'ssl-validate-http'}>
        {t(method === 'dns-01' ? 'validation.checkDns' : 'validation.checkHttp')}
      </Button>
      <FormErrors id={form.errorId} errors={errors.length ? errors : undefined} />
    </Form>
  )
}

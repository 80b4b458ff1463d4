import { attachmentDisposition } from '#common/content-disposition.ts'
import { data, Form, Link } from 'react-router'
import { Download } from 'lucide-react'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { Card } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SSL_FILE_FORMATS, SSL_FILES } from '#common/ssl.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { loadCertificate } from './detail.server.ts'
import { pkcs12Schema } from './forms.ts'
import { SslHeader } from './shared.tsx'
import type { Route } from './+types/files.ts'

/**
 * /ssls/{id}/files: the files of an issued certificate. `?download=<file>&format=pem|der` answers
 * the file itself (the private key: ssl-manager only, and the API writes it to the trail). The file
 * is answered by the route's middleware: a loader's Response would be rendered as the page's data.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context, params }, next) => {
    const url = requestUrl(request)
    if (request.method === 'POST') {
      // PKCS#12: the password travels in the form's body, never in a URL; a refusal falls to the action.
      assertSameOrigin(request)
      const submission = parseWithZod(await request.clone().formData(), { schema: pkcs12Schema(getInstance(context).t) })
      if (submission.status !== 'success') return next()
      const { user, groupContext, platform, certificate } = await loadCertificate(request, context, params)
      requireChange(request, user, 'ssl-manager')
      try {
        const file = await platform.post('/groups/{context}/ssls/{id}/pkcs12', { path: { context: groupContext, id: certificate.id }, body: submission.value })
        return new Response(Buffer.from(file.content_base64, 'base64'), {
          headers: { 'content-type': file.content_type, 'content-disposition': attachmentDisposition(file.filename), 'cache-control': 'private, no-store' },
        })
      } catch {
        return next()
      }
    }
    const wanted = url.searchParams.get('download')
    if (request.method !== 'GET' || !wanted || !(SSL_FILES as readonly string[]).includes(wanted)) return next()
    const { groupContext, platform, certificate } = await loadCertificate(request, context, params)
    const format = url.searchParams.get('format') === 'der' ? 'der' : 'pem'
    const file = await platform.get('/groups/{context}/ssls/{id}/files/{file}', { path: { context: groupContext, id: certificate.id, file: wanted as (typeof SSL_FILES)[number] }, query: { format } })
    return new Response(Buffer.from(file.content_base64, 'base64'), {
      headers: { 'content-type': file.content_type, 'content-disposition': attachmentDisposition(file.filename), 'cache-control': 'private, no-store' },
    })
  },
]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, certificate } = await loadCertificate(request, context, params)
  const t = getInstance(context).t
  return { certificate, canKey: canChange(request, user, 'ssl-manager'), meta: pageMeta(request, context, t('ssl:tabs.files')) }
}

/** Reached when the PKCS#12 was refused in the middleware: the same request again, for its errors beside the form. */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, groupContext, platform, certificate } = await loadCertificate(request, context, params)
  requireChange(request, user, 'ssl-manager')
  const t = getInstance(context).t
  // The password is never sent back into the page: a refused one is typed again (the profile stays).
  const submission = parseWithZod(await request.formData(), { schema: pkcs12Schema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
  try {
    await platform.post('/groups/{context}/ssls/{id}/pkcs12', { path: { context: groupContext, id: certificate.id }, body: submission.value })
    return data({ result: submission.reply({ hideFields: ['password'] }) })
  } catch (error) {
    return data({ result: submission.reply({ ...formErrorsOf(t, error, ['password', 'profile'], {}, 'ssl'), hideFields: ['password'] }) }, { status: 400 })
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SslFiles({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('ssl')
  const href = useContextHref()
  const c = loaderData.certificate
  const issued = c.status === 'issued' || c.status === 'expiring' || c.status === 'revoked' || c.status === 'expired'
  const files = SSL_FILES.filter((f) => f !== 'private-key' || (c.has_private_key && loaderData.canKey))
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="files" />
      {!issued ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('files.notYet')}</p>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {files.map((f) => (
              <li key={f} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div>
                  <div className="text-sm font-medium">{t(`files.${f}`)}</div>
                  <div className="text-xs text-slate-500 dark:text-slate-400">{t(`files.${f}Help`)}</div>
                </div>
                <div className="flex gap-2">
                  {SSL_FILE_FORMATS.map((format) => (
                    <Button key={format} asChild size="sm" variant="outline">
                      <Link reloadDocument to={href(`/ssls/${c.id}/files?download=${f}&format=${format}`)} data-testid={`ssl-download-${f}-${format}`}>
                        <Download className="size-3.5" aria-hidden />
                        {format.toUpperCase()}
                      </Link>
                    </Button>
                  ))}
                </div>
              </li>
            ))}
          </ul>
          {c.has_private_key && loaderData.canKey ? <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('files.keyAudited')}</p> : null}
        </Card>
      )}
      {issued && c.has_private_key && loaderData.canKey ? <ProtectedDownload lastResult={actionData?.result} /> : null}
    </div>
  )
}

/** PKCS#12 with a password in a profile, or the key alone as encrypted PKCS#8: a download when accepted, the errors beside the fields when not. */
function ProtectedDownload({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(pkcs12Schema(t), { id: 'ssl-pkcs12', lastResult, defaultValue: { profile: 'modern' } })
  return (
    <Card>
      <Form method="post" reloadDocument className="grid gap-3 md:grid-cols-3" data-testid="ssl-pkcs12" {...getFormProps(form)}>
        <div className="md:col-span-3">
          <div className="text-sm font-medium">{t('files.pkcs12')}</div>
          <div className="text-xs text-slate-500 dark:text-slate-400">{t('files.pkcs12Help')}</div>
        </div>
        <div className="md:col-span-3">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <Field
          labelProps={{ children: t('files.pkcs12Password') }}
          inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', 'data-testid': 'ssl-pkcs12-password' } as React.ComponentProps<'input'>}
          errors={fields.password.errors}
        />
        <SelectField
          label={t('files.pkcs12Profile')}
          selectProps={{ ...getSelectProps(fields.profile), id: 'ssl-pkcs12-profile', 'data-testid': 'ssl-pkcs12-profile' } as React.ComponentProps<'select'> & { id: string }}
          errors={fields.profile.errors}
        >
          <option value="modern">{t('files.pkcs12Modern')}</option>
          <option value="legacy">{t('files.pkcs12Legacy')}</option>
          <option value="pkcs8">{t('files.pkcs8Encrypted')}</option>
        </SelectField>
        <div className="flex items-center">
          <Button type="submit" size="sm" variant="outline" data-testid="ssl-pkcs12-download">
            <Download className="size-3.5" aria-hidden />
            {t('files.protectedDownload')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

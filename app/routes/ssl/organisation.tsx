import { attachmentDisposition } from '#common/content-disposition.ts'
import { getFormProps, type FormMetadata, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, Outlet, redirect, useLocation } from 'react-router'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { DetailList } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDate, formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance, getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'
import { countryName } from '#common/countries.ts'
import { hasPermission } from '#common/permissions.ts'
import { SSL_CHECK_STATES, SSL_DOCUMENT_MAX_BYTES, SSL_DOCUMENT_TYPES, SSL_ORGANISATION_CHECKS, type SslOrganisationCheck, type SslState } from '#common/ssl.ts'
import { countryOptions } from '../contacts/countries.server.ts'
import { markCheckSchema, uploadSchema } from './forms.ts'
import { OrganisationStatus, SslStatus } from './shared.tsx'
import type { Route } from './+types/organisation.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** The EV attributes as a certificate's subject names them (EV Guidelines §7.1.4.2), in the order shown. */
const EV_ATTRIBUTES = [
  ['business_category', 'businessCategory'],
  ['serial_number', 'serialNumber'],
  ['jurisdiction_locality', 'jurisdictionL'],
  ['jurisdiction_state', 'jurisdictionST'],
  ['jurisdiction_country', 'jurisdictionC'],
] as const

type Check = Organisation['checks'][keyof Organisation['checks']]
type Organisation = Answer<'/groups/{context}/ssl-organisations/{id}'>

async function screen(request: Request, context: Parameters<typeof getPlatform>[1], params: Record<string, string | undefined>) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  return { user, url, groupContext, platform }
}

/** `?document=<id>` answers the uploaded file itself (from the middleware: a loader's Response would be the page's data). */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context, params }, next) => {
    const wanted = requestUrl(request).searchParams.get('document')
    if (request.method !== 'GET' || !wanted || !/^[0-9a-f-]{36}$/i.test(wanted)) return next()
    const { platform, groupContext } = await screen(request, context, params)
    const file = await platform.get('/groups/{context}/ssl-organisations/{id}/documents/{document}', { path: { context: groupContext, id: params.id, document: wanted } })
    return new Response(Buffer.from(file.content_base64, 'base64'), {
      headers: { 'content-type': file.content_type, 'content-disposition': attachmentDisposition(file.filename), 'cache-control': 'private, no-store' },
    })
  },
]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, platform, groupContext } = await screen(request, context, params)
  const organisation = await platform.get('/groups/{context}/ssl-organisations/{id}', { path: { context: groupContext, id: params.id } })
  const settings = await platform.get('/groups/{context}/ssl-settings', { path: { context: groupContext } })
  const manager = canChange(request, user, 'ssl-manager')
  return {
    organisation,
    ca: settings.ca,
    dvOnly: settings.dv_only,
    canEdit: manager,
    isStaff: hasPermission(user, 'staff', { ignoreHidden: true }) && canChange(request, user, 'staff'),
    countries: manager ? countryOptions(getLocale(context)) : [],
    meta: pageMeta(request, context, organisation.legal_name),
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const { user, url, platform, groupContext } = await screen(request, context, params)
  const t = getInstance(context).t
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const back = (message: string) => redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color: 'success' }) } })
  if (intent === 'check') {
    requireChange(request, user, 'staff')
    const submission = parseWithZod(form, { schema: markCheckSchema(t) })
    const check = String(form.get('check') ?? '')
    if (submission.status !== 'success') return data({ intent, check, result: submission.reply() }, { status: 400 })
    try {
      await platform.put('/groups/{context}/ssl-organisations/{id}/checks/{check}', {
        path: { context: groupContext, id: params.id, check: submission.value.check },
        body: { state: submission.value.state, note: submission.value.note ?? '' },
      })
    } catch (error) {
      return data({ intent, check, result: submission.reply(formErrorsOf(t, error, ['state', 'note'], {}, 'ssl')) }, { status: 400 })
    }
    return back(t('ssl:organisations.checkSaved'))
  }
  requireChange(request, user, 'ssl-manager')
  if (intent === 'delete-document') {
    const document = String(form.get('document') ?? '')
    try {
      await platform.delete('/groups/{context}/ssl-organisations/{id}/documents/{document}', { path: { context: groupContext, id: params.id, document } })
    } catch (error) {
      const { formErrors, fieldErrors } = formErrorsOf(t, error, [], {}, 'ssl')
      return data({ intent, errors: [...formErrors, ...Object.values(fieldErrors).flat()] }, { status: 400 })
    }
    return back(t('ssl:organisations.documentDeleted'))
  }
  if (intent === 'upload') {
    const submission = parseWithZod(form, { schema: uploadSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const file = submission.value.file
    try {
      await platform.post('/groups/{context}/ssl-organisations/{id}/documents', {
        path: { context: groupContext, id: params.id },
        body: { filename: file.name, content_base64: Buffer.from(await file.arrayBuffer()).toString('base64') },
      })
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ['file'], {}, 'ssl')) }, { status: 400 })
    }
    return back(t('ssl:organisations.uploaded'))
  }
  return data({ intent, errors: [t('ssl:errors.unknown')] }, { status: 400 })
}

export default function SslOrganisation({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  const { search } = useLocation()
  const o = loaderData.organisation
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '')
  const failed = actionData && 'errors' in actionData ? actionData : null
  const evMissing = (['registration_number', 'jurisdiction_country', 'business_category', 'incorporation_date'] as const).filter((k) => !o[k])
  const address = [o.street1, o.street2, [o.postcode, o.city].filter(Boolean).join(' '), o.region, countryName(o.country, i18n.language)].filter(Boolean).join(', ')
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('title'), to: '/ssls' },
          { label: t('organisations.title'), to: '/ssls/organisations' },
        ]}
        title={
          <span className="break-words" data-testid="ssl-organisation-name">
            {o.legal_name}
          </span>
        }
        status={<OrganisationStatus status={o.status} />}
        actions={
          loaderData.canEdit ? (
            // Changing the details is a sheet over this page (/ssls/organisations/{id}/edit).
            <HeaderAction to={`/ssls/organisations/${o.id}/edit${search}`} primary preventScrollReset data-testid="ssl-organisation-edit-open">
              {t('organisations.edit')}
            </HeaderAction>
          ) : null
        }
      />
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="ssl-organisation-summary">
        {o.status === 'validated' ? t('organisations.validatedNote', { date: when(o.validated_at) }) : o.status === 'attention' ? t('organisations.attentionNote') : t('organisations.waitingNote')}
      </p>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card>
          <CardTitle>{t('organisations.details')}</CardTitle>
          <DetailList
            rows={[
              [t('organisations.fields.registration_number'), o.registration_number || '—'],
              [t('organisations.address'), address],
              [t('organisations.fields.phone'), o.phone],
              [t('organisations.approver'), [o.approver_name, o.approver_email, o.approver_phone].filter(Boolean).join(' · ')],
              [t('organisations.fields.business_category'), o.business_category ? t(`organisations.categories.${o.business_category}`) : '—'],
              [
                t('organisations.jurisdiction'),
                [o.jurisdiction_locality, o.jurisdiction_state, o.jurisdiction_country ? countryName(o.jurisdiction_country, i18n.language) : ''].filter(Boolean).join(', ') || '—',
              ],
              [t('organisations.fields.incorporation_date'), o.incorporation_date ? formatDate(o.incorporation_date, i18n.language) : '—'],
            ]}
          />
          {evMissing.length ? (
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400" data-testid="ssl-organisation-ev-missing">
              {t('organisations.evMissing', { fields: evMissing.map((f) => t(`organisations.fields.${f}`)).join(', ') })}
            </p>
          ) : null}
        </Card>
        <Card>
          <CardTitle>{t('organisations.subjectTitle')}</CardTitle>
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">{loaderData.dvOnly ? t('organisations.subjectDvOnly', { ca: loaderData.ca ?? '' }) : t('organisations.subjectHelp')}</p>
          <code className="block break-all rounded-md bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900" data-testid="ssl-organisation-subject">
            {[`O=${o.subject.organization ?? ''}`, o.subject.locality ? `L=${o.subject.locality}` : '', o.subject.state ? `ST=${o.subject.state}` : '', `C=${o.subject.country ?? ''}`]
              .filter(Boolean)
              .join(', ')}
          </code>
          {Object.keys(o.ev).length ? (
            <>
              <p className="mb-2 mt-3 text-sm text-slate-600 dark:text-slate-400">{t('organisations.evSubjectHelp')}</p>
              <code className="block break-all rounded-md bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900" data-testid="ssl-organisation-ev-subject">
                {EV_ATTRIBUTES.filter(([key]) => o.ev[key])
                  .map(([key, attribute]) => `${attribute}=${o.ev[key]}`)
                  .join(', ')}
              </code>
            </>
          ) : null}
        </Card>
      </div>
      <Card>
        <CardTitle>{t('organisations.checklist')}</CardTitle>
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="ssl-organisation-checks">
          {SSL_ORGANISATION_CHECKS.map((check) => {
            const c = o.checks[check]
            return (
              <li key={check} className="flex flex-col gap-2 py-3 md:flex-row md:items-start md:justify-between" data-testid={`ssl-check-${check}`}>
                <div className="min-w-0 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{t(`organisations.checks.${check}`)}</span>
                    <OrganisationStatus status={c.state} testId={`ssl-check-state-${check}`} />
                  </div>
                  <p className="text-xs text-slate-500 dark:text-slate-400">{t(`organisations.checkHelp.${check}`)}</p>
                  {c.note ? <p className="text-sm">{c.note}</p> : null}
                  {c.at ? <p className="text-xs text-slate-500 dark:text-slate-400">{t('organisations.markedBy', { by: c.by, date: when(c.at) })}</p> : null}
                </div>
                {loaderData.isStaff ? (
                  <CheckForm
                    check={check}
                    current={c}
                    lastResult={actionData && 'result' in actionData && 'check' in actionData && actionData.intent === 'check' && actionData.check === check ? actionData.result : undefined}
                  />
                ) : null}
              </li>
            )
          })}
        </ul>
      </Card>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card>
          <CardTitle>{t('organisations.documents')}</CardTitle>
          {o.documents.length ? (
            <ul className="mb-3 space-y-1 text-sm" data-testid="ssl-organisation-documents">
              {o.documents.map((d) => (
                <li key={d.id} className="flex flex-wrap gap-2">
                  <a className="text-blue-700 hover:underline dark:text-blue-400" href={href(`/ssls/organisations/${o.id}?document=${d.id}`)} download>
                    {d.filename}
                  </a>
                  <span className="text-slate-500 dark:text-slate-400">
                    {Math.ceil(d.size_bytes / 1024)} KB · {d.uploaded_by} · {when(d.created_at)}
                  </span>
                  {loaderData.canEdit ? (
                    <details className="text-sm" data-testid={`ssl-document-delete-${d.filename}`}>
                      <summary className="cursor-pointer text-red-700 dark:text-red-400">{t('organisations.deleteDocument')}</summary>
                      <Form method="post" className="mt-1 flex flex-wrap items-center gap-2">
                        <input type="hidden" name="document" value={d.id} />
                        <span>{t('organisations.deleteDocumentConfirm', { name: d.filename })}</span>
                        <Button type="submit" name="intent" value="delete-document" variant="destructive" size="sm">
                          {t('organisations.deleteDocument')}
                        </Button>
                      </Form>
                    </details>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mb-3 text-sm text-slate-500 dark:text-slate-400">{t('organisations.noDocuments')}</p>
          )}
          {failed?.intent === 'delete-document' ? (
            <div className="mb-3">
              <FormErrors errors={failed.errors} />
            </div>
          ) : null}
          {loaderData.canEdit ? <UploadForm lastResult={actionData && 'result' in actionData && actionData.intent === 'upload' ? actionData.result : undefined} /> : null}
        </Card>
        <Card>
          <CardTitle>{t('organisations.certificates')}</CardTitle>
          {o.certificates.length ? (
            <ul className="space-y-1 text-sm">
              {o.certificates.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center gap-2">
                  <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/ssls/${c.id}`)}>
                    {c.common_name}
                  </Link>
                  <SslStatus status={c.status as SslState} />
                  <span className="text-slate-500 dark:text-slate-400">{t(`products.${c.product}`, { defaultValue: c.product })}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500 dark:text-slate-400">{t('organisations.noCertificates')}</p>
          )}
        </Card>
      </div>
      <Outlet />
    </div>
  )
}

/** Staff mark one check: its state and a note (attention says what the customer must do), errors beside them. */
function CheckForm({ check, current, lastResult }: { check: SslOrganisationCheck; current: Check; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(markCheckSchema(t), { id: `ssl-check-${check}`, lastResult, defaultValue: { intent: 'check', check, state: current.state, note: current.note } })
  return (
    <RowForm form={form} intent="check" submit={{ label: t('organisations.mark'), testId: `ssl-check-save-${check}` }} className="md:w-96 md:flex-nowrap">
      <input type="hidden" name="check" value={check} />
      <SelectField
        label={t('organisations.state')}
        selectProps={{ ...getSelectProps(fields.state), id: `ssl-check-state-input-${check}`, 'data-testid': `ssl-check-select-${check}` } as SelectProps}
        errors={fields.state.errors}
      >
        {SSL_CHECK_STATES.map((s) => (
          <option key={s} value={s}>
            {t(`organisations.states.${s}`)}
          </option>
        ))}
      </SelectField>
      <Field
        className="min-w-0 flex-1"
        labelProps={{ children: t('organisations.note') }}
        inputProps={{ ...getInputProps(fields.note, { type: 'text' }), id: `ssl-check-note-input-${check}`, 'data-testid': `ssl-check-note-${check}` } as React.ComponentProps<'input'>}
        errors={fields.note.errors}
      />
    </RowForm>
  )
}

/** A document for the documents check: PDF, PNG or JPEG (the API reads its type from its bytes). */
function UploadForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(uploadSchema(t), { id: 'ssl-organisation-upload', lastResult, defaultValue: { intent: 'upload' } })
  return (
    <RowForm form={form} intent="upload" submit={{ label: t('organisations.upload'), testId: 'ssl-organisation-upload' }} encType="multipart/form-data">
      <Field
        labelProps={{ children: t('organisations.uploadLabel', { mb: SSL_DOCUMENT_MAX_BYTES / 1024 / 1024 }) }}
        inputProps={
          { ...getInputProps(fields.file, { type: 'file' }), accept: SSL_DOCUMENT_TYPES.join(','), className: 'text-sm', 'data-testid': 'ssl-organisation-file' } as React.ComponentProps<'input'>
        }
        errors={fields.file.errors}
      />
    </RowForm>
  )
}

/**
 * A one-row form of this page (a check marked, a document uploaded): its intent, its inputs, a
 * small submit button beside them and the form's own errors under them.
 */
function RowForm<Shape extends Record<string, unknown>>({
  form,
  intent,
  submit,
  className,
  encType,
  children,
}: {
  form: FormMetadata<Shape, string[]>
  intent: string
  submit: { label: string; testId: string }
  className?: string
  encType?: 'multipart/form-data'
  children: React.ReactNode
}) {
  return (
    <Form method="post" encType={encType} className={cn('flex flex-wrap items-start gap-2', className)} {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <div className="pt-6">
        <Button type="submit" size="sm" variant="outline" data-testid={submit.testId}>
          {submit.label}
        </Button>
      </div>
      {form.errors?.length ? (
        <div className="w-full">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
      ) : null}
    </Form>
  )
}

type SelectProps = React.ComponentProps<'select'> & { id: string }

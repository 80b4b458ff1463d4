import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, Form, redirect, useLocation } from 'react-router'
import { z } from 'zod'
import { getTextareaProps } from '#app/components/field-props.ts'
import { ErrorList, FormErrors } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/import.ts'

const IMPORT_FIELDS = ['certificate', 'chain', 'private_key'] as const
const importSchema = (t: TFunction) =>
  z.object({
    certificate: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(60_000),
    chain: z.string().max(60_000).optional(),
    private_key: z.string().max(20_000).optional(),
  })
type ImportValues = z.infer<ReturnType<typeof importSchema>>

/** /ssls/import: a certificate bought elsewhere, imported to track its expiry; a sheet over the certificates list (an SSL manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'ssl-manager')
  return { meta: pageMeta(request, context, getInstance(context).t('ssl:import.title')) }
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
  const submission = parseWithZod(form, { schema: importSchema(t) })
  if (submission.status !== 'success') return data({ importResult: submission.reply() }, { status: 400 })
  const { certificate, chain, private_key } = submission.value
  try {
    const created = await platform.post('/groups/{context}/ssl-imports', {
      path: { context: activeContext(url, user.group_id) },
      body: {
        certificate,
        ...(chain?.trim() ? { chain } : {}),
        ...(private_key?.trim() ? { private_key } : {}),
      },
    })
    return redirect(carryContext(`/ssls/${created.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, { content: t('ssl:done.import'), color: 'success' }) } })
  } catch (error) {
    return data({ importResult: submission.reply(formErrorsOf(t, error, IMPORT_FIELDS, {}, 'ssl')) }, { status: 400 })
  }
}

export default function ImportSheet({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(['ssl', 'common'])
  const { search } = useLocation()
  const closeTo = `/ssls${search}`
  return (
    <Sheet
      title={t('import.title')}
      description={t('import.help')}
      closeTo={closeTo}
      testId="ssl-import-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form="ssl-import" testId="ssl-import-submit">
          {t('import.submit')}
        </SheetSubmit>
      }
    >
      <ImportCertificate lastResult={actionData?.importResult} />
    </Sheet>
  )
}

function ImportCertificate({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('ssl')
  const schema = importSchema(t)
  const [form, fields] = useForm<ImportValues, ImportValues, string[]>({
    id: 'ssl-import',
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const area = 'rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-950'
  return (
    <Form method="post" className="space-y-4" data-testid="ssl-import-form" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.certificate.id}>{t('import.certificate')}</Label>
        <textarea {...getTextareaProps(fields.certificate)} key={fields.certificate.key} rows={4} placeholder="-----BEGIN CERTIFICATE-----" className={area} data-testid="ssl-import-certificate" />
        <ErrorList id={fields.certificate.errorId} errors={fields.certificate.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.chain.id}>{t('import.chain')}</Label>
        <textarea {...getTextareaProps(fields.chain)} key={fields.chain.key} rows={3} placeholder="-----BEGIN CERTIFICATE-----" className={area} data-testid="ssl-import-chain" />
        <ErrorList id={fields.chain.errorId} errors={fields.chain.errors} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.private_key.id}>{t('import.key')}</Label>
        <textarea {...getTextareaProps(fields.private_key)} key={fields.private_key.key} rows={3} placeholder="-----BEGIN PRIVATE KEY-----" className={area} data-testid="ssl-import-key" />
        <p className="text-xs text-slate-500 dark:text-slate-400">{t('import.keyHelp')}</p>
        <ErrorList id={fields.private_key.errorId} errors={fields.private_key.errors} />
      </div>
    </Form>
  )
}

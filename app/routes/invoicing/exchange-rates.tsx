import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { ErrorList, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatDate, formatDateTime } from '#app/lib/dates.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ecbUploadSchema, uploadedText } from './pricing-forms.ts'
import type { Route } from './+types/exchange-rates.ts'
import type { Answer as ApiAnswer } from '#app/lib/platform-api.ts'

type EcbUpload = ApiAnswer<'/currency_rates/ecb', 'post'>
type Answer = { result: SubmissionResult<string[]>; xml: string; upload: EcbUpload | null }

/** /invoicing/exchange-rates: the rates staff keep, and the ECB's daily file previewed then applied. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const rates = (await (await getPlatform(request, context)).get('/currency_rates')).data
  return { rates, meta: pageMeta(request, context, t('pricing:rates.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const MAX_BYTES = 200_000

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: ecbUploadSchema(t, MAX_BYTES) })
  if (submission.status !== 'success') return data({ result: submission.reply(), xml: '', upload: null } satisfies Answer, { status: 400 })
  const { file, xml: carried, intent } = submission.value
  const xml = await uploadedText(file, carried)
  const commit = intent === 'commit'
  try {
    const upload = await (await getPlatform(request, context)).post('/currency_rates/ecb', { body: { xml, commit } })
    const headers = commit
      ? { 'Set-Cookie': flashHeader(request, { content: t('pricing:rates.applied', { count: upload.rows.length, date: formatDate(upload.date, getInstance(context).language) }), color: 'success' }) }
      : undefined
    return data({ result: submission.reply({ resetForm: true }), xml, upload } satisfies Answer, headers ? { headers } : undefined)
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['file'], {}, 'pricing')), xml: '', upload: null } satisfies Answer, { status: 400 })
  }
}

export default function ExchangeRates({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const answer = actionData as Answer | undefined
  const upload = answer?.upload
  const [form, fields] = useZodForm(ecbUploadSchema(t, MAX_BYTES), { id: 'ecb-upload', lastResult: answer?.result })
  const number = (n: number) => n.toLocaleString(i18n.language, { maximumFractionDigits: 10 })
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('rates.title')}</h1>
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('rates.intro')}</p>
      <Card data-testid="ecb-upload">
        <CardTitle>{t('rates.uploadTitle')}</CardTitle>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('rates.uploadIntro')}</p>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-3">
          <FormErrors id={form.errorId} errors={form.errors} />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={fields.file.id} className="text-sm font-medium">
              {t('rates.file')}
            </label>
            <input {...getInputProps(fields.file, { type: 'file' })} accept=".xml,application/xml,text/xml" className="text-sm" />
            <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
          </div>
          <Button type="submit" name="intent" value="preview" variant="outline">
            {t('rates.preview')}
          </Button>
        </Form>
        {upload ? (
          <div className="mt-4 space-y-3" data-testid="ecb-preview">
            <p className="text-sm font-medium" data-testid="ecb-date">
              {t(upload.committed ? 'rates.appliedOf' : 'rates.previewOf', { date: formatDate(upload.date, i18n.language) })}
            </p>
            <div className="max-h-96 overflow-auto">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('rates.pair')}</TableHead>
                    <TableHead>{t('costs.status')}</TableHead>
                    <TableHead className="text-right">{t('costs.previous')}</TableHead>
                    <TableHead className="text-right">{t('rates.rate')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {upload.rows.map((r) => (
                    <TableRow key={r.to_currency} data-testid="ecb-row" data-status={r.status}>
                      <TableCell className="font-mono text-xs whitespace-nowrap">EUR → {r.to_currency}</TableCell>
                      <TableCell>{t(`costs.statuses.${r.status}`)}</TableCell>
                      <TableCell className="text-right tabular-nums">
                        {r.previous === null ? '—' : number(r.previous)}
                        {r.previous_date ? <div className="text-xs text-slate-500">{r.previous_date}</div> : null}
                      </TableCell>
                      <TableCell className="text-right tabular-nums">{number(r.rate)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            {!upload.committed ? (
              <Form method="post">
                <input type="hidden" name="xml" value={answer!.xml} />
                <Button type="submit" name="intent" value="commit">
                  {t('rates.apply', { count: upload.rows.length })}
                </Button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </Card>
      <Card data-testid="rates-kept">
        <CardTitle>{t('rates.kept')}</CardTitle>
        {loaderData.rates.length ? (
          <div className="overflow-x-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('rates.pair')}</TableHead>
                  <TableHead className="text-right">{t('rates.rate')}</TableHead>
                  <TableHead>{t('rates.day')}</TableHead>
                  <TableHead>{t('rates.updated')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {loaderData.rates.map((r) => (
                  <TableRow key={`${r.from_currency}-${r.to_currency}`} data-testid="rate-kept" data-pair={`${r.from_currency}-${r.to_currency}`}>
                    <TableCell className="font-mono text-xs whitespace-nowrap">
                      {r.from_currency} → {r.to_currency}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{number(r.rate)}</TableCell>
                    <TableCell className="text-xs tabular-nums whitespace-nowrap" data-testid="rate-day">
                      {r.rate_date ? formatDate(r.rate_date, i18n.language) : '—'}
                    </TableCell>
                    <TableCell className="text-xs">{formatDateTime(r.updated_at, i18n.language)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        ) : (
          <p className="text-sm">{t('rates.none')}</p>
        )}
      </Card>
    </div>
  )
}

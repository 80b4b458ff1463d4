import type { TFunction } from 'i18next'
import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { ErrorList, Field, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { formatDate } from '#app/lib/dates.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { productsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SubNav } from '#app/components/screen-parts.tsx'
import { FormErrors } from '#app/components/forms.tsx'
import { money } from '../invoicing/shared.tsx'
import { PRODUCT_KINDS } from '#common/pricing.ts'
import type { Route } from './+types/index.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { costUploadSchema, uploadedText } from '../invoicing/pricing-forms.ts'
import type { Answer } from '#app/lib/platform-api.ts'

type Upload = Answer<'/product-costs/upload', 'post'>
/** The cost upload's answer: the preview (or what was stored), the text carried on to the store, and conform's result. */
type CostAnswer = { upload: Upload | null; csv: string; result: SubmissionResult<string[]> }

/** /products: what the registrar sells (staff), and costs by CSV with a preview before they are stored. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, productsList, activeContext(requestUrl(request), user.group_id))
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('pricing:products.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const MAX_BYTES = 2_000_000

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  if (form.get('intent') === 'new-product') return newProduct(request, context, form, t)
  const submission = parseWithZod(form, { schema: costUploadSchema(t, MAX_BYTES) })
  if (submission.status !== 'success') return data({ upload: null, csv: '', result: submission.reply() } satisfies CostAnswer, { status: 400 })
  const { file, csv: carried, intent } = submission.value
  const csv = await uploadedText(file, carried)
  try {
    const upload = await (await getPlatform(request, context)).post('/product-costs/upload', { body: { csv, commit: intent === 'commit' } })
    return data({ upload, csv, result: submission.reply({ resetForm: true }) } satisfies CostAnswer)
  } catch (error) {
    return data({ upload: null, csv: '', result: submission.reply(formErrorsOf(t, error, ['file'], {}, 'pricing')) } satisfies CostAnswer, { status: 400 })
  }
}

const NEW_PRODUCT_FIELDS = ['code', 'name', 'kind', 'action', 'periods', 'tags'] as const
const listOf = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((word) => word.trim())
      .filter(Boolean),
  ),
]

/** The new-product form (SSL, block, service): what the form can say at once, in the user's words; the API checks the rest. */
const newProductSchema = (t: TFunction) => {
  const required = t('pricing:errors.required')
  const text = (max: number) => z.string({ error: required }).trim().min(1, required).max(max, t('validation:maxLength', { max }))
  return z.object({
    code: text(100),
    name: text(200),
    kind: z.enum(PRODUCT_KINDS).default('ssl'),
    action: text(40),
    periods: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const periods = listOf(value || '1').map(Number)
        if (periods.every((p) => Number.isInteger(p) && p >= 1 && p <= 10)) return periods
        ctx.addIssue({ code: 'custom', message: t('pricing:errors.product.periods_invalid') })
        return z.NEVER
      }),
    tags: z.string().optional().transform(listOf),
  })
}

async function newProduct(request: Request, context: Route.ActionArgs['context'], form: FormData, t: TFunction) {
  const submission = parseWithZod(form, { schema: newProductSchema(t) })
  if (submission.status !== 'success') return data({ newProduct: submission.reply() }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post('/products', { body: submission.value })
    return redirect(`/products/${made.id}${requestUrl(request).search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    return data({ newProduct: submission.reply(formErrorsOf(t, error, NEW_PRODUCT_FIELDS, {}, 'pricing')) }, { status: 400 })
  }
}

export default function Products({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('pricing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('products.title')}</h1>
      <SubNav
        links={[
          { to: '/products', label: t('products.title'), current: true },
          { to: '/products/registrar-templates', label: t('templates.tab') },
        ]}
      />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('products.intro')}</p>
      <DataTable
        def={productsList}
        page={loaderData.page}
        labels={(key) => t(`products.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'code')
            return (
              <RowLink className="font-mono" to={href(`/products/${String(row.id)}`)}>
                {String(row.code)}
              </RowLink>
            )
          if (key === 'kind') return t(`productKinds.${String(row.kind)}`)
          if (key === 'is_active') return t(row.is_active ? 'yes' : 'no')
          if (key === 'tags') return (row.tags as string[] | undefined)?.join(', ') ?? ''
          return undefined
        }}
      />
      <NewProduct lastResult={actionData && 'newProduct' in actionData ? actionData.newProduct : undefined} />
      <CostUpload answer={actionData && 'upload' in actionData ? actionData : undefined} />
    </div>
  )
}

function NewProduct({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(newProductSchema(t), { id: 'product', lastResult, defaultValue: { kind: 'ssl', action: 'order', periods: '1' } })
  return (
    <Card data-testid="new-product">
      <CardTitle>{t('products.new')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('products.newIntro')}</p>
      <Form method="post" {...getFormProps(form)} className="grid gap-3 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        <Field
          labelProps={{ children: t('products.fields.code') }}
          inputProps={{ ...getInputProps(fields.code, { type: 'text' }), placeholder: 'ssl:dv-single:order', className: 'font-mono' }}
          errors={fields.code.errors}
        />
        <Field labelProps={{ children: t('products.fields.name') }} inputProps={getInputProps(fields.name, { type: 'text' })} errors={fields.name.errors} />
        <SelectField label={t('products.fields.kind')} selectProps={{ ...getSelectProps(fields.kind), id: fields.kind.id }} errors={fields.kind.errors}>
          {PRODUCT_KINDS.filter((kind) => kind !== 'domain').map((kind) => (
            <option key={kind} value={kind}>
              {t(`productKinds.${kind}`)}
            </option>
          ))}
        </SelectField>
        <Field
          labelProps={{ children: t('products.fields.action') }}
          inputProps={{ ...getInputProps(fields.action, { type: 'text' }), 'aria-describedby': fields.action.errors?.length ? `${fields.action.errorId} product-action-hint` : 'product-action-hint' }}
          errors={fields.action.errors}
        />
        <Field
          labelProps={{ children: t('products.fields.periods') }}
          inputProps={{ ...getInputProps(fields.periods, { type: 'text' }), placeholder: '1, 2', title: t('products.periodsHint') }}
          errors={fields.periods.errors}
        />
        <Field
          labelProps={{ children: t('products.fields.tags') }}
          inputProps={{ ...getInputProps(fields.tags, { type: 'text' }), placeholder: 'ssl, dv', title: t('products.tagsHint') }}
          errors={fields.tags.errors}
        />
        <p id="product-action-hint" className="text-xs text-slate-500 sm:col-span-2">
          {t('products.actionHint')}
        </p>
        <div className="sm:col-span-2">
          <Button type="submit" name="intent" value="new-product">
            {t('products.create')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

/** Costs by CSV (conform + zod, `costUploadSchema`): previewed from the file, stored from the text the preview carried on. */
function CostUpload({ answer }: { answer: CostAnswer | undefined }) {
  const { t, i18n } = useTranslation('pricing')
  const upload = answer?.upload
  const [form, fields] = useZodForm(costUploadSchema(t, MAX_BYTES), { id: 'cost-upload', lastResult: answer?.result })
  return (
    <Card data-testid="cost-upload">
      <CardTitle>{t('costs.uploadTitle')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('costs.uploadIntro')}</p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-3">
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fields.file.id} className="text-sm font-medium">
            {t('costs.file')}
          </label>
          <input {...getInputProps(fields.file, { type: 'file' })} accept=".csv,text/csv" className="text-sm" />
          <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
        </div>
        <Button type="submit" name="intent" value="preview" variant="outline">
          {t('costs.preview')}
        </Button>
      </Form>
      {upload ? (
        <div className="mt-4 space-y-3" data-testid="cost-preview">
          <p className="text-sm" data-testid="cost-counts">
            {upload.committed
              ? t('costs.stored', { count: (upload.counts.new ?? 0) + (upload.counts.changed ?? 0) })
              : t('costs.counts', { new: upload.counts.new ?? 0, changed: upload.counts.changed ?? 0, unchanged: upload.counts.unchanged ?? 0, error: upload.counts.error ?? 0 })}
          </p>
          <div className="max-h-96 overflow-auto">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('costs.line')}</TableHead>
                  <TableHead>{t('products.fields.code')}</TableHead>
                  <TableHead>{t('costs.status')}</TableHead>
                  <TableHead className="text-right">{t('costs.previous')}</TableHead>
                  <TableHead className="text-right">{t('costs.amount')}</TableHead>
                  <TableHead>{t('costs.effective_from')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {upload.rows.map((r) => (
                  <TableRow
                    key={r.line}
                    data-testid="cost-row"
                    data-status={r.status}
                    className={r.at_loss || r.status === 'error' ? 'bg-red-50 text-red-900 dark:bg-red-950/40 dark:text-red-200' : undefined}
                  >
                    <TableCell className="tabular-nums">{r.line}</TableCell>
                    <TableCell className="font-mono text-xs">{r.code}</TableCell>
                    <TableCell>
                      {t(`costs.statuses.${r.status}`)}
                      {r.at_loss ? <div className="text-xs font-medium">{t('costs.atLoss')}</div> : null}
                      {r.errors.map((e) => (
                        <div key={e.field + e.message} className="text-xs">
                          {t(`costs.fields.${e.field}`, { defaultValue: e.field })}: {t([`errors.${e.code ?? ''}`, `validation:${e.code ?? ''}`], { defaultValue: e.message })}
                        </div>
                      ))}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{money(r.previous_minor, r.currency, i18n.language)}</TableCell>
                    <TableCell className="text-right tabular-nums">{r.amount_minor === null ? r.amount : money(r.amount_minor, r.currency, i18n.language)}</TableCell>
                    <TableCell className="text-xs">{formatDate(r.effective_from, i18n.language)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {!upload.committed && !upload.counts.error && (upload.counts.new || upload.counts.changed) ? (
            <Form method="post">
              <input type="hidden" name="csv" value={answer!.csv} />
              <Button type="submit" name="intent" value="commit">
                {t('costs.commit')}
              </Button>
            </Form>
          ) : null}
        </div>
      ) : null}
    </Card>
  )
}

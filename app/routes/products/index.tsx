import type { TFunction } from 'i18next'
import { data, Form, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { ErrorList, Field, SelectField } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SubNav } from '#app/components/screen-parts.tsx'
import { FormErrors } from '#app/components/forms.tsx'
import { requireChange } from '../accounts/directory.server.ts'
import { money } from '../invoicing/shared.tsx'
import { PRODUCT_KINDS } from '#common/pricing.ts'
import type { Route } from './+types/index.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

type UploadRow = {
  line: number
  code: string
  currency: string
  amount: string
  effective_from: string
  product_id: string | null
  amount_minor: number | null
  previous_minor: number | null
  status: 'new' | 'changed' | 'unchanged' | 'error'
  at_loss: boolean
  errors: { field: string; code?: string; message: string }[]
}
type Upload = { rows: UploadRow[]; counts: Record<string, number>; committed: boolean }

/** /products: what the registrar sells (staff), and costs by CSV with a preview before they are stored. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, LISTS.products!, activeContext(requestUrl(request), user.group_id))
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
  const file = form.get('file')
  // The file chosen, or the text carried from the preview to the commit.
  const csv = file instanceof File && file.size ? await file.text() : String(form.get('csv') ?? '')
  const commit = form.get('intent') === 'commit'
  if (!csv.trim()) return data({ csv, upload: null, fieldErrors: { file: [t('pricing:costs.fileRequired')] }, formErrors: [] as string[] }, { status: 400 })
  if (csv.length > MAX_BYTES) return data({ csv: '', upload: null, fieldErrors: { file: [t('pricing:costs.tooLarge')] }, formErrors: [] as string[] }, { status: 400 })
  try {
    const upload = await (await getPlatform(request, context)).post<Upload>('/product-costs/upload', { csv, commit })
    return data({ csv, upload, fieldErrors: {} as Record<string, string[]>, formErrors: [] as string[] })
  } catch (error) {
    const refusal = formErrorsOf(t, error, ['file'], {}, 'pricing')
    return data({ csv, upload: null, fieldErrors: refusal.fieldErrors, formErrors: refusal.formErrors }, { status: 400 })
  }
}

const NEW_PRODUCT_FIELDS = ['code', 'name', 'kind', 'action', 'periods', 'tags'] as const
type NewProductValues = Record<(typeof NEW_PRODUCT_FIELDS)[number], string>
const listOf = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((word) => word.trim())
      .filter(Boolean),
  ),
]

/** The new-product form (SSL, block, service): checked here for what the form can say at once, then by the API. */
async function newProduct(request: Request, context: Route.ActionArgs['context'], form: FormData, t: TFunction) {
  const values = Object.fromEntries(NEW_PRODUCT_FIELDS.map((field) => [field, String(form.get(field) ?? '').trim()])) as NewProductValues
  const fieldErrors: Record<string, string[]> = {}
  for (const field of ['code', 'name', 'action'] as const) if (!values[field]) fieldErrors[field] = [t('pricing:errors.required')]
  const periods = listOf(values.periods || '1').map(Number)
  if (periods.some((p) => !Number.isInteger(p) || p < 1 || p > 10)) fieldErrors.periods = [t('pricing:errors.product.periods_invalid')]
  const refused = (errors: Record<string, string[]>, formErrors: string[] = []) => data({ newProduct: { values, fieldErrors: errors, formErrors } }, { status: 400 })
  if (Object.keys(fieldErrors).length) return refused(fieldErrors)
  try {
    const made = await (
      await getPlatform(request, context)
    ).post<{ id: string }>('/products', { code: values.code, name: values.name, kind: values.kind, action: values.action, periods, tags: listOf(values.tags) })
    return redirect(`/products/${made.id}${requestUrl(request).search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    const refusal = formErrorsOf(t, error, NEW_PRODUCT_FIELDS, {}, 'pricing')
    return refused(refusal.fieldErrors, refusal.formErrors)
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
        def={LISTS.products!}
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
          return String(row[key] ?? '')
        }}
      />
      <NewProduct result={actionData && 'newProduct' in actionData ? actionData.newProduct : null} />
      <CostUpload result={actionData && 'upload' in actionData ? actionData : null} />
    </div>
  )
}

function NewProduct({ result }: { result: { values: NewProductValues; fieldErrors: Record<string, string[]>; formErrors: string[] } | null }) {
  const { t } = useTranslation('pricing')
  const values = result?.values
  const errors = result?.fieldErrors ?? {}
  return (
    <Card data-testid="new-product">
      <CardTitle>{t('products.new')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('products.newIntro')}</p>
      <Form method="post" className="grid gap-3 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormErrors errors={result?.formErrors} />
        </div>
        <Field
          labelProps={{ children: t('products.fields.code') }}
          inputProps={{ id: 'product-code', name: 'code', defaultValue: values?.code ?? '', placeholder: 'ssl:dv-single:order', maxLength: 100, className: 'font-mono' }}
          errors={errors.code}
        />
        <Field labelProps={{ children: t('products.fields.name') }} inputProps={{ id: 'product-name', name: 'name', defaultValue: values?.name ?? '', maxLength: 200 }} errors={errors.name} />
        <SelectField label={t('products.fields.kind')} selectProps={{ id: 'product-kind', name: 'kind', defaultValue: values?.kind ?? 'ssl' }} errors={errors.kind}>
          {PRODUCT_KINDS.filter((kind) => kind !== 'domain').map((kind) => (
            <option key={kind} value={kind}>
              {t(`productKinds.${kind}`)}
            </option>
          ))}
        </SelectField>
        <Field
          labelProps={{ children: t('products.fields.action') }}
          inputProps={{ id: 'product-action', name: 'action', defaultValue: values?.action ?? 'order', maxLength: 40, 'aria-describedby': 'product-action-hint' }}
          errors={errors.action}
        />
        <Field
          labelProps={{ children: t('products.fields.periods') }}
          inputProps={{ id: 'product-periods', name: 'periods', defaultValue: values?.periods ?? '1', placeholder: '1, 2', title: t('products.periodsHint') }}
          errors={errors.periods}
        />
        <Field
          labelProps={{ children: t('products.fields.tags') }}
          inputProps={{ id: 'product-tags', name: 'tags', defaultValue: values?.tags ?? '', placeholder: 'ssl, dv', title: t('products.tagsHint') }}
          errors={errors.tags}
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

function CostUpload({ result }: { result: { csv: string; upload: Upload | null; fieldErrors: Record<string, string[]>; formErrors: string[] } | null }) {
  const { t, i18n } = useTranslation('pricing')
  const upload = result?.upload
  return (
    <Card data-testid="cost-upload">
      <CardTitle>{t('costs.uploadTitle')}</CardTitle>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('costs.uploadIntro')}</p>
      <Form method="post" encType="multipart/form-data" className="space-y-3">
        <FormErrors errors={result?.formErrors} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="cost-file" className="text-sm font-medium">
            {t('costs.file')}
          </label>
          <input id="cost-file" type="file" name="file" accept=".csv,text/csv" className="text-sm" aria-invalid={result?.fieldErrors.file ? true : undefined} />
          <ErrorList errors={result?.fieldErrors.file} />
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
                    <TableCell className="text-xs">{r.effective_from.slice(0, 10)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {!upload.committed && !upload.counts.error && (upload.counts.new || upload.counts.changed) ? (
            <Form method="post">
              <input type="hidden" name="csv" value={result!.csv} />
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

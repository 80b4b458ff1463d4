import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, Form, Link, redirect } from 'react-router'
import { z } from 'zod'
import { Field, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { formatDate } from '#app/lib/dates.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isMonetaryValue } from '#common/money.ts'
import { DetailList } from '#app/components/screen-parts.tsx'
import { FormErrors } from '#app/components/forms.tsx'
import { money, rulePath, SET_BASE } from '../invoicing/shared.tsx'
import type { Route } from './+types/detail.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

/** /products/{id}: a product, its costs over time (one entered here), and the rules written for it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const platform = await getPlatform(request, context)
  const [product, costs, rules] = await Promise.all([
    platform.get('/products/{id}', { path: { id: params.id } }),
    platform.get('/products/{id}/costs', { path: { id: params.id } }),
    platform.get('/pricing-rules', { query: { 'filter[product_id]': params.id, limit: 100, sort: 'rule_name' } }),
  ])
  return { product, costs: costs.data, rules: rules.data, meta: pageMeta(request, context, product.code) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** A cost of the product from a day on: an amount in a currency's minor units at most, never below zero. */
const costSchema = (t: TFunction) =>
  z
    .object({
      amount: z.string({ error: t('validation:invalidMonetaryValue') }).trim(),
      currency: z
        .string({ error: t('pricing:errors.currency.invalid') })
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{3}$/, t('pricing:errors.currency.invalid')),
      effective_from: z.string({ error: t('pricing:errors.costs.date_invalid') }).regex(/^\d{4}-\d{2}-\d{2}$/, t('pricing:errors.costs.date_invalid')),
    })
    .superRefine((cost, ctx) => {
      if (!isMonetaryValue(cost.amount, cost.currency) || cost.amount.startsWith('-')) ctx.addIssue({ code: 'custom', path: ['amount'], message: t('validation:invalidMonetaryValue') })
    })

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: costSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await (await getPlatform(request, context)).post('/products/{id}/costs', { path: { id: params.id }, body: submission.value })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['currency', 'amount', 'effective_from'], {}, 'pricing')) }, { status: 400 })
  }
  const url = requestUrl(request)
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
}

export default function ProductDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  const { product, costs, rules } = loaderData
  const today = new Date().toISOString().slice(0, 10)
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href('/products')}>
          {t('products.title')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">
        {product.name} <span className="ml-2 font-mono text-base text-slate-500">{product.code}</span>
      </h1>
      <Card>
        <DetailList
          rows={[
            [t('products.fields.kind'), t(`productKinds.${product.kind}`)],
            [t('products.fields.action'), product.action],
            [t('products.fields.tld'), product.tld ? <span className="font-mono">.{product.tld}</span> : '—'],
            [t('products.fields.periods'), product.periods.join(', ')],
            [t('products.fields.tags'), product.tags.join(', ')],
            [t('products.fields.is_active'), t(product.is_active ? 'yes' : 'no')],
            [
              t('products.fields.registrar_template_id'),
              product.registrar_template_id ? (
                <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/products/registrar-templates/${product.registrar_template_id}`)}>
                  {t('templates.open')}
                </Link>
              ) : (
                '—'
              ),
            ],
          ]}
        />
      </Card>
      <Card data-testid="product-costs">
        <CardTitle>{t('costs.title')}</CardTitle>
        {costs.length ? (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('costs.effective_from')}</TableHead>
                <TableHead>{t('applicable.currency')}</TableHead>
                <TableHead className="text-right">{t('costs.amount')}</TableHead>
                <TableHead>{t('costs.status')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {costs.map((c) => (
                <TableRow key={c.id} data-testid="cost">
                  <TableCell>{formatDate(c.effective_from, i18n.language)}</TableCell>
                  <TableCell className="font-mono text-xs">{c.currency}</TableCell>
                  <TableCell className="text-right tabular-nums">{money(c.amount_minor, c.currency, i18n.language)}</TableCell>
                  <TableCell className="text-xs">{c.in_force ? t('costs.inForce') : c.effective_from.slice(0, 10) > today ? t('costs.announced') : t('costs.past')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm">{t('costs.none')}</p>
        )}
        <CostForm key={costs.length} lastResult={actionData?.result} today={today} />
      </Card>
      <Card>
        <CardTitle>{t('products.rules')}</CardTitle>
        <ul className="space-y-1 text-sm">
          {rules.map((r) => (
            <li key={r.id}>
              <Link className="font-mono text-blue-700 hover:underline dark:text-blue-400" to={href(rulePath(r))}>
                {r.rule_name}
              </Link>{' '}
              <span className="text-slate-500">
                {t(`levels.${r.level}`)} · {t(`kinds.${r.kind}`)}
                {r['pricing_entity.name'] ? ` · ${r['pricing_entity.name']}` : ''}
              </span>
            </li>
          ))}
        </ul>
        <p className="mt-3 flex flex-wrap gap-4 text-sm">
          <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`${SET_BASE.global}/${product.id}`)}>
            {t('products.addGlobalRule')}
          </Link>
          <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`${SET_BASE.entity}/${product.id}`)}>
            {t('products.addEntityRule')}
          </Link>
        </p>
      </Card>
    </div>
  )
}

function CostForm({ lastResult, today }: { lastResult: SubmissionResult<string[]> | undefined; today: string }) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(costSchema(t), { id: 'cost', lastResult, defaultValue: { currency: 'EUR', effective_from: today } })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-wrap items-start gap-3">
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        labelProps={{ children: t('costs.amount') }}
        inputProps={{ ...getInputProps(fields.amount, { type: 'text' }), inputMode: 'decimal', placeholder: '9.09', className: 'w-32' }}
        errors={fields.amount.errors}
      />
      <Field
        labelProps={{ children: t('applicable.currency') }}
        inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), maxLength: 3, className: 'w-24 font-mono uppercase' }}
        errors={fields.currency.errors}
      />
      <Field labelProps={{ children: t('costs.effective_from') }} inputProps={getInputProps(fields.effective_from, { type: 'date' })} errors={fields.effective_from.errors} />
      <Button type="submit" variant="outline" className="sm:mt-6">
        {t('costs.add')}
      </Button>
    </Form>
  )
}

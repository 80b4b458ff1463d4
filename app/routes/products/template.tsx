import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link, redirect } from 'react-router'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { TemplateFields } from './schema-editor.tsx'
import { templateSchema, TemplateForm } from './template-form.tsx'
import type { Route } from './+types/template.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

/** /products/registrar-templates/{id}: a template's schema in its editor, and the form it makes. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const platform = await getPlatform(request, context)
  const template = await platform.get('/registrar-templates/{id}', { path: { id: params.id } })
  const products = (await platform.get('/products', { query: { 'filter[registrar_template_id]': template.id, fields: 'id,code', limit: 100 } })).data
  return { template, products, meta: pageMeta(request, context, template.name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: templateSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { name, schema, version } = submission.value
  try {
    await (await getPlatform(request, context)).patch('/registrar-templates/{id}', { path: { id: params.id }, body: { name, schema, version: version! } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['name', 'schema'], {}, 'pricing')) }, { status: 400 })
  }
  const url = requestUrl(request)
  return redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
}

export default function TemplateDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('pricing')
  const href = useContextHref()
  const { template, products } = loaderData
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href('/products/registrar-templates')}>
          {t('templates.title')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{template.name}</h1>
      <Card>
        <CardTitle>{t('templates.form')}</CardTitle>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('templates.formIntro')}</p>
        <TemplateFields schema={template.schema as never} lng={i18n.language} />
        <p className="mt-3 text-sm">
          {t('templates.usedBy')}{' '}
          {products.length
            ? products.map((p, i) => (
                <span key={p.id}>
                  {i ? ', ' : ''}
                  <Link className="font-mono text-blue-700 hover:underline dark:text-blue-400" to={href(`/products/${p.id}`)}>
                    {p.code}
                  </Link>
                </span>
              ))
            : '—'}
        </p>
      </Card>
      <Card>
        <CardTitle>{t('templates.edit')}</CardTitle>
        <TemplateForm
          key={template.version}
          id="edit-template"
          lastResult={actionData?.result}
          defaults={{ name: template.name, schema: JSON.stringify(template.schema, null, 2) }}
          version={template.version}
          submitLabel={t('save')}
        />
      </Card>
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { registrarTemplatesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SubNav } from '#app/components/screen-parts.tsx'
import { templateSchema, TemplateForm } from './template-form.tsx'
import type { Route } from './+types/templates.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'

const STARTER = JSON.stringify(
  {
    type: 'object',
    required: ['nexus_category'],
    properties: { nexus_category: { type: 'string', enum: ['C11', 'C12', 'C21', 'C31', 'C32'], ui: { widget: 'select', label: { en: 'Nexus category' } } } },
  },
  null,
  2,
)

/** /products/registrar-templates: the extra fields registries need, as JSON Schemas with ui keys (staff). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, registrarTemplatesList, activeContext(requestUrl(request), user.group_id))
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('pricing:templates.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: templateSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const made = await (await getPlatform(request, context)).post('/registrar-templates', { body: { name: submission.value.name, schema: submission.value.schema } })
    return redirect(`/products/registrar-templates/${made.id}${requestUrl(request).search}`, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['name', 'schema'], {}, 'pricing')) }, { status: 400 })
  }
}

export default function Templates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('pricing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('templates.title')}</h1>
      <SubNav
        links={[
          { to: '/products', label: t('products.title') },
          { to: '/products/registrar-templates', label: t('templates.tab'), current: true },
        ]}
      />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('templates.intro')}</p>
      <DataTable
        def={registrarTemplatesList}
        page={loaderData.page}
        labels={(key) => t(`templates.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/products/registrar-templates/${String(row.id)}`)}>{String(row.name)}</RowLink>
          return undefined
        }}
      />
      <Card>
        <CardTitle>{t('templates.new')}</CardTitle>
        <TemplateForm id="new-template" testId="new-template" lastResult={actionData?.result} defaults={{ name: '', schema: STARTER }} submitLabel={t('templates.create')} />
      </Card>
    </div>
  )
}

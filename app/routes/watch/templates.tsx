import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { DataTable } from '#app/components/data-table.tsx'
import { getInputProps } from '#app/components/field-props.ts'
import { Field, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { FoldedForm } from '#app/components/screen-parts.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/templates.ts'
import { watchTemplatesList } from './lists.ts'
import { watchScreen } from './shared.server.ts'

const templateSchema = (t: TFunction) =>
  z.object({
    name: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(100),
    min_similarity: z.coerce.number().int().min(0).max(100).optional(),
    interval_hours: z.coerce.number().int().min(1).max(720).optional(),
    threshold_high: z.coerce.number().int().min(1).max(100).optional(),
    threshold_critical: z.coerce.number().int().min(1).max(100).optional(),
  })

/** /watch/templates: the presets a new watch starts from, staff's (shared) and the account's; a brand admin adds one. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, watchTemplatesList, screen.groupContext)
  const t = getInstance(context).t
  const canAdd = screen.canAdmin || (screen.user.roles.includes('staff') && screen.groupContext === screen.user.group_id)
  return data({ page, canAdd, meta: pageMeta(request, context, t('watch:templates.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-admin')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: templateSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    await screen.platform.post('/groups/{context}/watch-templates', { path: { context: screen.groupContext }, body: submission.value })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['name', 'min_similarity', 'interval_hours', 'threshold_high', 'threshold_critical'], {}, 'watch')) }, { status: 400 })
  }
  return backWith(request, '/watch/templates', { content: t('watch:done.templateAdded', { name: submission.value.name }), color: 'success' })
}

export default function WatchTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const [form, fields] = useZodForm(templateSchema(t), { id: 'watch-template-add', lastResult: actionData?.result })
  const number = (name: 'min_similarity' | 'interval_hours' | 'threshold_high' | 'threshold_critical', placeholder: string) => (
    <Field labelProps={{ children: t(`fields.${name}`) }} inputProps={{ ...getInputProps(fields[name], { type: 'number' }), placeholder }} errors={fields[name].errors} />
  )
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('title'), to: '/watch' }]} title={t('templates.title')} description={t('templates.description')} />
      {loaderData.canAdd ? (
        <FoldedForm
          title={t('templates.add')}
          testId="watch-template-open"
          open={!!actionData?.result}
          form={form}
          help={t('templates.help')}
          submit={{ label: t('templates.submit'), testId: 'watch-template-submit' }}
        >
          <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }} errors={fields.name.errors} />
          {number('min_similarity', '70')}
          {number('interval_hours', '24')}
          {number('threshold_high', '50')}
          {number('threshold_critical', '80')}
        </FoldedForm>
      ) : null}
      <DataTable
        def={watchTemplatesList}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        empty={<p className="text-sm text-slate-500">{t('templates.empty')}</p>}
        renderCell={(row, key) => {
          if (key === 'shared') return row.shared ? t('templates.shared') : t('templates.own')
          if (key === 'sources') return ((row.sources as string[] | undefined) ?? []).map((s) => t(`source.${s}`)).join(', ')
          return undefined
        }}
      />
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import type { TFunction } from 'i18next'
import { getInputProps } from '#app/components/field-props.ts'
import { Field, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { CardTable, CardTableRow, FoldedForm } from '#app/components/screen-parts.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { canChange, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf, refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { MODULES, TLD_GROUPS } from '#common/intelligence.ts'
import type { Route } from './+types/templates.ts'
import { IntelligenceNav, words } from './shared.tsx'

const templateSchema = (t: TFunction) =>
  z.object({
    name: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(100),
    modules: z.array(z.enum(MODULES)).optional(),
    tld_groups: z.array(z.enum(TLD_GROUPS)).optional(),
    keywords: z.string().max(2000).optional(),
    lookalike_min_score: z.coerce.number().int().min(0).max(100).optional(),
  })

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const templates = await (await getPlatform(request, context)).get('/groups/{context}/intelligence/templates', { path: { context: groupContext } })
  return { templates: templates.data, canManage: canChange(request, user, 'prospect-manager'), meta: pageMeta(request, context, getInstance(context).t('intelligence:templates.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'prospect-manager')
  const form = await request.formData()
  const t = getInstance(context).t
  const url = requestUrl(request)
  const path = { context: activeContext(url, user.group_id) }
  const platform = await getPlatform(request, context)
  if (form.get('intent') === 'delete') {
    try {
      await platform.delete('/groups/{context}/intelligence/templates/{id}', { path: { ...path, id: String(form.get('id')) } })
      return backWith(request, `/intelligence/templates${url.search}`, { content: t('intelligence:templates.removed'), color: 'success' })
    } catch (error) {
      return backWith(request, `/intelligence/templates${url.search}`, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  const submission = parseWithZod(form, { schema: templateSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  try {
    await platform.post('/groups/{context}/intelligence/templates', {
      path,
      body: {
        name: v.name,
        modules: v.modules ?? [...MODULES],
        tld_groups: v.tld_groups ?? [...TLD_GROUPS],
        keywords: words(v.keywords),
        ...(v.lookalike_min_score !== undefined ? { lookalike_min_score: v.lookalike_min_score } : {}),
      },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ['name', 'modules', 'tld_groups', 'keywords', 'lookalike_min_score'], {}, 'intelligence')) }, { status: 400 })
  }
  return backWith(request, `/intelligence/templates${url.search}`, { content: t('intelligence:templates.added', { name: v.name }), color: 'success' })
}

/** /intelligence/templates: saved sets of modules, TLD groups and patterns an item can start from. */
export default function Templates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('intelligence')
  const { templates, canManage } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader title={t('templates.title')} description={t('templates.description')} />
      <IntelligenceNav current="templates" />
      {canManage ? <AddTemplate lastResult={actionData?.result} /> : null}
      <Card>
        <CardTable
          items={templates}
          minWidth="min-w-[40rem]"
          testId="intelligence-templates"
          empty={{ text: t('templates.empty'), testId: 'intelligence-templates-empty' }}
          headings={[{ label: t('fields.name') }, { label: t('fields.modules') }, { label: t('fields.tld_groups') }, { label: t('fields.keywords') }, { label: '' }]}
          render={(tp) => (
            <CardTableRow key={tp.id}>
              <td className="py-2 pr-3 font-medium">{tp.name}</td>
              <td className="py-2 pr-3 text-xs">{tp.modules.map((m) => t(`module.${m}.name`)).join(', ')}</td>
              <td className="py-2 pr-3 text-xs">{tp.tld_groups.map((g) => t(`group.${g}`)).join(', ')}</td>
              <td className="py-2 pr-3 text-xs">{tp.keywords.join(', ') || '—'}</td>
              <td className="py-2 text-right">
                {canManage ? (
                  <Form method="post">
                    <input type="hidden" name="id" value={tp.id} />
                    <Button type="submit" name="intent" value="delete" size="sm" variant="outline" aria-label={t('templates.remove', { name: tp.name })}>
                      {t('templates.removeShort')}
                    </Button>
                  </Form>
                ) : null}
              </td>
            </CardTableRow>
          )}
        />
      </Card>
    </div>
  )
}

function AddTemplate({ lastResult }: { lastResult: Parameters<typeof useZodForm>[1]['lastResult'] }) {
  const { t } = useTranslation('intelligence')
  const [form, fields] = useZodForm(templateSchema(t), { id: 'intelligence-template-add', lastResult })
  return (
    <FoldedForm title={t('templates.add')} testId="intelligence-template-open" open={!!lastResult} form={form} submit={{ label: t('templates.submit'), testId: 'intelligence-template-submit' }}>
      <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'off' }} errors={fields.name.errors} />
      <Field
        labelProps={{ children: t('fields.keywords') }}
        inputProps={{ ...getInputProps(fields.keywords, { type: 'text' }), placeholder: 'pay shop login', autoComplete: 'off' }}
        errors={fields.keywords.errors}
      />
      <fieldset className="text-sm">
        <legend className="mb-1 font-medium">{t('fields.modules')}</legend>
        {MODULES.map((m) => (
          <label key={m} className="mr-4 inline-flex items-center gap-1.5">
            <input type="checkbox" name="modules" value={m} defaultChecked /> {t(`module.${m}.name`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="text-sm">
        <legend className="mb-1 font-medium">{t('fields.tld_groups')}</legend>
        {TLD_GROUPS.map((g) => (
          <label key={g} className="mr-4 inline-flex items-center gap-1.5">
            <input type="checkbox" name="tld_groups" value={g} defaultChecked /> {t(`group.${g}`)}
          </label>
        ))}
      </fieldset>
      <Field
        labelProps={{ children: t('fields.lookalike_min_score') }}
        inputProps={{ ...getInputProps(fields.lookalike_min_score, { type: 'number' }), min: 0, max: 100, placeholder: '85' }}
        errors={fields.lookalike_min_score.errors}
      />
    </FoldedForm>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { PageHeader } from '#app/components/page-header.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { canChange, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf, refusalTextOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CHANGE_KINDS, parseStages, type ChangeKind } from '#common/change-sets.ts'
import { ChangeSetForm, changeOf, changeSetSchema, FIELDS, managerOf, refusalAlias } from './form.tsx'
import type { Route } from './+types/new.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const kinds = CHANGE_KINDS.filter((kind) => canChange(request, user, managerOf(kind)))
  const url = requestUrl(request)
  const kind = (kinds as readonly string[]).includes(url.searchParams.get('kind') ?? '') ? (url.searchParams.get('kind') as ChangeKind) : (kinds[0] ?? 'dns')
  return { kinds, kind, filter: url.searchParams.get('filter') ?? '', meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'change-sets')('form.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const form = await request.formData()
  const kind = String(form.get('kind') ?? '')
  requireChange(request, user, managerOf((CHANGE_KINDS as readonly string[]).includes(kind) ? (kind as ChangeKind) : 'dns'))
  const t = getInstance(context).t
  const submission = parseWithZod(form, { schema: changeSetSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  let id: string
  try {
    const created = await platform.post('/groups/{context}/change-sets', {
      path: { context: groupContext },
      body: { name: submission.value.name, filter: submission.value.filter ?? '', change: changeOf(submission.value), stages: parseStages(submission.value.stages) },
    })
    id = created.id
  } catch (error) {
    // What was typed comes back, each refusal beside its field (an operation's beside the operations).
    return data({ result: submission.reply(formErrorsOf(t, error, FIELDS, refusalAlias, 'change-sets')) }, { status: 400 })
  }
  // Created: previewed at once, so the next screen shows each object's diff.
  let flash = { content: t('change-sets:done.created'), color: 'success' as 'success' | 'error' }
  try {
    await platform.post('/groups/{context}/change-sets/{id}/preview', { path: { context: groupContext, id } })
  } catch (error) {
    flash = { content: refusalTextOf(t, error), color: 'error' }
  }
  return redirect(carryContext(`/change-sets/${id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, flash) } })
}

export default function NewChangeSet({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('change-sets')
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('title'), to: '/change-sets' }]} title={t('form.title')} description={t('form.description')} />
      {loaderData.kinds.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="change-set-readonly">
          {t('form.needsManager')}
        </p>
      ) : (
        <ChangeSetForm kinds={loaderData.kinds} kind={loaderData.kind} filter={loaderData.filter} lastResult={actionData?.result} />
      )}
    </div>
  )
}

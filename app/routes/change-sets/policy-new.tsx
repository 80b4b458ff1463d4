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
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CHANGE_KINDS, TARGET_OF, type ChangeKind } from '#common/change-sets.ts'
import { ChangeSetForm, changeOf, changeSetSchema, FIELDS, refusalAlias } from './form.tsx'
import type { Route } from './+types/policy-new.ts'

/** A policy is made by the admin of what it is over: dns-admin for records, domain-admin for the rest (decision 030). */
const adminOf = (kind: ChangeKind) => (TARGET_OF[kind] === 'zones' ? 'dns-admin' : 'domain-admin')

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const kinds = CHANGE_KINDS.filter((kind) => canChange(request, user, adminOf(kind)))
  return { kinds, kind: kinds[0] ?? ('dns' as const), meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'change-sets')('policies.new')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  const form = await request.formData()
  const kind = String(form.get('kind') ?? '')
  requireChange(request, user, adminOf((CHANGE_KINDS as readonly string[]).includes(kind) ? (kind as ChangeKind) : 'dns'))
  const t = getInstance(context).t
  const submission = parseWithZod(form, { schema: changeSetSchema(t, false) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const url = requestUrl(request)
  const platform = await getPlatform(request, context)
  try {
    const created = await platform.post('/groups/{context}/change-set-policies', {
      path: { context: activeContext(url, user.group_id) },
      body: { name: submission.value.name, filter: submission.value.filter ?? '', change: changeOf(submission.value) },
    })
    return redirect(carryContext(`/change-sets/policies/${created.id}`, url.searchParams), {
      headers: { 'Set-Cookie': flashHeader(request, { content: t('change-sets:policies.done.created'), color: 'success' }) },
    })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, FIELDS, refusalAlias, 'change-sets')) }, { status: 400 })
  }
}

export default function NewPolicy({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('change-sets')
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('title'), to: '/change-sets' },
          { label: t('policies.title'), to: '/change-sets/policies' },
        ]}
        title={t('policies.new')}
        description={t('policies.formDescription')}
      />
      {loaderData.kinds.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="change-set-readonly">
          {t('form.needsAdmin')}
        </p>
      ) : (
        <ChangeSetForm kinds={loaderData.kinds} kind={loaderData.kind} filter="" lastResult={actionData?.result} withStages={false} submitLabel={t('policies.submit')} />
      )}
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { PageHeader } from '#app/components/page-header.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen, canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CardTable, CardTableRow, SubNav } from '#app/components/screen-parts.tsx'
import { ENDPOINT_FIELDS, EndpointForm, endpointSchema, EndpointState, SecretShown } from './webhooks-shared.tsx'
import type { Route } from './+types/webhooks.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const platform = await getPlatform(request, context)
  const [account, endpoints] = await Promise.all([platform.get('/accounts/{id}', { path: { id: params.id } }), platform.get('/groups/{context}/webhook_endpoints', { path: { context: params.id } })])
  const t = getInstance(context).t
  return { account, endpoints: endpoints.data, canEdit: canChange(request, user, 'account-admin'), meta: pageMeta(request, context, t('webhooks:title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'account-admin')
  const t = getInstance(context).t
  const submission = parseWithZod(await request.formData(), { schema: endpointSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply(), made: null }, { status: 400 })
  const { intent: _intent, ...values } = submission.value
  try {
    const made = await (await getPlatform(request, context)).post('/groups/{context}/webhook_endpoints', { path: { context: params.id }, body: values })
    // The secret is in this answer only: never in a page that can be reloaded.
    return data({ result: submission.reply({ resetForm: true }), made }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ENDPOINT_FIELDS)), made: null }, { status: 400 })
  }
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['webhooks', 'directory'])
  const href = useContextHref()
  const { account, endpoints, canEdit } = loaderData
  const base = `/accounts/${account.id}`
  const made = actionData?.made
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('directory:accounts.title'), to: '/accounts' },
          { label: account.name, to: base },
        ]}
        title={t('title')}
      />
      <SubNav
        links={[
          { to: base, label: t('directory:details') },
          { to: `${base}/log`, label: t('directory:log') },
          { to: `${base}/webhooks`, label: t('title'), current: true },
        ]}
      />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('intro')}</p>
      {made ? <SecretShown secret={made.secret} title={t('created', { url: made.endpoint.url })} /> : null}
      <Card>
        <CardTable
          items={endpoints}
          testId="webhook-endpoints"
          minWidth="min-w-[36rem]"
          empty={{ text: t('empty'), testId: 'webhook-empty' }}
          headings={[{ label: t('fields.url') }, { label: t('fields.events') }, { label: t('fields.state') }, { label: t('fields.created_at') }]}
          render={(endpoint) => (
            <CardTableRow key={endpoint.id}>
              <td className="py-2 pr-3">
                <Link to={href(`${base}/webhooks/${endpoint.id}`)} className="break-all font-medium text-blue-700 hover:underline dark:text-blue-400">
                  {endpoint.url}
                </Link>
                {endpoint.description ? <div className="text-xs text-slate-500">{endpoint.description}</div> : null}
              </td>
              <td className="py-2 pr-3 font-mono text-xs">{endpoint.events.join(', ')}</td>
              <td className="py-2 pr-3">
                <EndpointState endpoint={endpoint} />
              </td>
              <td className="whitespace-nowrap py-2 text-xs">{formatDateTime(endpoint.created_at, i18n.language)}</td>
            </CardTableRow>
          )}
        />
      </Card>
      {canEdit ? (
        <Card>
          <details open={actionData && !actionData.made ? true : undefined}>
            <summary className="cursor-pointer text-lg font-semibold" data-testid="webhook-new-open">
              {t('new')}
            </summary>
            <div className="mt-3">
              <EndpointForm intent="endpoint-create" lastResult={actionData?.result} submitLabel={t('create')} />
            </div>
          </details>
        </Card>
      ) : (
        <Card>
          <CardTitle>{t('new')}</CardTitle>
          <p className="text-sm text-slate-500">{t('adminOnly')}</p>
        </Card>
      )}
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { FormErrors } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireScreen, validateIds, canChange, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CardTable, CardTableRow, ConfirmAction, DetailList, SubNav } from '#app/components/screen-parts.tsx'
import { ENDPOINT_FIELDS, EndpointForm, endpointSchema, EndpointState, SecretShown } from './webhooks-shared.tsx'
import type { Route } from './+types/webhook.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  validateIds({ id: params.endpointId }, requestUrl(request).pathname)
  const platform = await getPlatform(request, context)
  const path = { context: params.id, id: params.endpointId }
  const [account, endpoint, attempts] = await Promise.all([
    platform.get('/accounts/{id}', { path: { id: params.id } }),
    platform.get('/groups/{context}/webhook_endpoints/{id}', { path }),
    platform.get('/groups/{context}/webhook_endpoints/{id}/attempts', { path }),
  ])
  return { account, endpoint, attempts: attempts.data, canEdit: canChange(request, user, 'account-admin'), meta: pageMeta(request, context, endpoint.url) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const ACTIONS = ['enable', 'disable', 'test', 'replay', 'delete', 'rotate'] as const

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  validateIds({ id: params.endpointId }, requestUrl(request).pathname)
  requireChange(request, user, 'account-admin')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const intent = String(formData.get('intent') ?? '')
  const platform = await getPlatform(request, context)
  const path = { context: params.id, id: params.endpointId }
  const version = Number(formData.get('version'))
  const done = (message: string, to = url.pathname + url.search) => redirect(to, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color: 'success' }) } })

  if (intent === 'endpoint-update') {
    const submission = parseWithZod(formData, { schema: endpointSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { intent: _intent, ...values } = submission.value
    try {
      await platform.patch('/groups/{context}/webhook_endpoints/{id}', { path, body: { ...values, version } })
    } catch (error) {
      return data({ intent, result: submission.reply(formErrorsOf(t, error, ENDPOINT_FIELDS)) }, { status: 400 })
    }
    return done(t('directory:saved'))
  }
  if (!(ACTIONS as readonly string[]).includes(intent)) throw data('Unknown form', { status: 400 })
  try {
    if (intent === 'enable' || intent === 'disable') await platform.patch('/groups/{context}/webhook_endpoints/{id}', { path, body: { enabled: intent === 'enable', version } })
    else if (intent === 'test') await platform.post('/groups/{context}/webhook_endpoints/{id}/test', { path })
    else if (intent === 'replay')
      await platform.post('/groups/{context}/webhook_endpoints/{id}/deliveries/{delivery_id}/replay', { path: { ...path, delivery_id: String(formData.get('delivery_id') ?? '') } })
    else if (intent === 'delete') {
      await platform.delete('/groups/{context}/webhook_endpoints/{id}', { path })
      return done(t('webhooks:done.delete'), carryContext(`/accounts/${params.id}/webhooks`, url.searchParams))
    } else {
      // The new secret is in this answer only.
      const rotated = await platform.post('/groups/{context}/webhook_endpoints/{id}/rotate_secret', { path })
      return data({ intent, secret: rotated.secret }, { headers: { 'Cache-Control': 'no-store' } })
    }
  } catch (error) {
    return data({ intent, formErrors: formErrorsOf(t, error, []).formErrors }, { status: 409 })
  }
  return done(t(`webhooks:done.${intent}`))
}

export default function WebhookEndpoint({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['webhooks', 'directory'])
  const { account, endpoint, attempts, canEdit } = loaderData
  const base = `/accounts/${account.id}`
  const secret = actionData && 'secret' in actionData ? actionData.secret : null
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('directory:accounts.title'), to: '/accounts' },
          { label: account.name, to: base },
          { label: t('title'), to: `${base}/webhooks` },
        ]}
        title={<span className="break-all">{endpoint.url}</span>}
        status={<EndpointState endpoint={endpoint} />}
        description={endpoint.description || null}
      />
      <SubNav
        links={[
          { to: base, label: t('directory:details') },
          { to: `${base}/log`, label: t('directory:log') },
          { to: `${base}/webhooks`, label: t('title'), current: true },
        ]}
      />
      {secret ? <SecretShown secret={secret} title={t('rotated')} /> : null}
      {actionData && 'formErrors' in actionData ? <FormErrors errors={actionData.formErrors} /> : null}
      <Card>
        <DetailList
          rows={[
            [t('fields.account'), account.name],
            [t('fields.description'), endpoint.description],
            [t('fields.events'), <span className="font-mono text-xs">{endpoint.events.join(', ')}</span>],
            [
              t('fields.state'),
              <span className="flex flex-wrap items-center gap-2">
                <EndpointState endpoint={endpoint} />
                {endpoint.disabled_reason ? <span className="text-xs text-slate-500">{endpoint.disabled_reason}</span> : null}
              </span>,
            ],
            [t('fields.failing_since'), endpoint.failing_since ? formatDateTime(endpoint.failing_since, i18n.language) : ''],
            [t('fields.rotating_until'), endpoint.rotating_until ? formatDateTime(endpoint.rotating_until, i18n.language) : ''],
          ]}
        />
      </Card>
      {canEdit ? (
        <Card>
          <CardTitle>{t('actions')}</CardTitle>
          <div className="grid gap-2 sm:grid-cols-2">
            <Form method="post">
              <Button type="submit" name="intent" value="test" variant="outline" data-testid="webhook-test">
                {t('test')}
              </Button>
            </Form>
            <Form method="post">
              <input type="hidden" name="version" value={endpoint.version} />
              <Button type="submit" name="intent" value={endpoint.enabled ? 'disable' : 'enable'} variant="outline">
                {endpoint.enabled ? t('disable') : t('enable')}
              </Button>
            </Form>
            <ConfirmAction intent="rotate" label={t('rotate')} question={t('rotateQuestion')} confirmLabel={t('rotate')} />
            <ConfirmAction intent="delete" variant="destructive" label={t('delete')} question={t('deleteQuestion', { url: endpoint.url })} confirmLabel={t('delete')} />
          </div>
        </Card>
      ) : null}
      <Card>
        <CardTitle>{t('log')}</CardTitle>
        <CardTable
          items={attempts}
          testId="webhook-log"
          minWidth="min-w-[40rem]"
          empty={{ text: t('logEmpty'), testId: 'webhook-log-empty' }}
          headings={[
            { label: t('fields.attempted_at') },
            { label: t('fields.event') },
            { label: t('fields.status') },
            { label: t('fields.response') },
            { label: <span className="sr-only">{t('replay')}</span> },
          ]}
          render={(attempt) => {
            const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300
            return (
              <CardTableRow key={attempt.id} testId="webhook-attempt">
                <td className="whitespace-nowrap py-2 pr-3 text-xs">{formatDateTime(attempt.attempted_at, i18n.language)}</td>
                <td className="py-2 pr-3 font-mono text-xs">{attempt.event_type}</td>
                <td className="py-2 pr-3">
                  <Badge color={ok ? 'green' : 'red'}>{attempt.status ?? t('noAnswer')}</Badge>
                  <span className="ml-2 text-xs text-slate-500">{t('ms', { count: attempt.duration_ms })}</span>
                </td>
                <td className="max-w-72 py-2 pr-3 text-xs">
                  {attempt.error ? <div className="text-red-700 dark:text-red-400">{attempt.error}</div> : null}
                  {attempt.response_excerpt ? <code className="line-clamp-2 break-all font-mono text-slate-600 dark:text-slate-400">{attempt.response_excerpt}</code> : null}
                </td>
                <td className="py-2 text-right">
                  {canEdit && attempt.delivery_state !== 'pending' ? (
                    <Form method="post">
                      <input type="hidden" name="delivery_id" value={attempt.delivery_id} />
                      <Button type="submit" name="intent" value="replay" size="sm" variant="outline">
                        {t('replay')}
                      </Button>
                    </Form>
                  ) : attempt.delivery_state === 'pending' ? (
                    <span className="text-xs text-slate-500">{t('retrying')}</span>
                  ) : null}
                </td>
              </CardTableRow>
            )
          }}
        />
      </Card>
      {canEdit ? (
        <Card>
          <CardTitle>{t('edit')}</CardTitle>
          <EndpointForm
            key={endpoint.version}
            intent="endpoint-update"
            lastResult={actionData && 'result' in actionData ? actionData.result : undefined}
            defaults={endpoint}
            version={endpoint.version}
            submitLabel={t('directory:save')}
          />
        </Card>
      ) : null}
    </div>
  )
}

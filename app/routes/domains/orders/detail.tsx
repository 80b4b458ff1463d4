import { Fragment, useEffect } from 'react'
import { PageHeader } from '#app/components/page-header.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, redirect, useNavigation, useRevalidator } from 'react-router'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { CONTACT_ROLES, type ContactRole } from '#common/vocabulary.ts'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen } from '../shared.server.ts'
import { contactLabel } from '../shared.tsx'
import type { Route } from './+types/detail.ts'
import { isRunning } from './shared.ts'

/** Seconds between refreshes while items run. */
const REFRESH_SECONDS = 3

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const order = await screen.platform.get('/groups/{context}/orders/{id}', { path: { context: screen.groupContext, id: params.id } })
  // The order holds contact ids; their names come from the account's contacts, when the user may read them.
  let contactNames: Record<string, string> = {}
  if (order.contacts) {
    const listed = await attempt(() => screen.platform.get('/groups/{context}/contacts', { path: { context: screen.groupContext }, query: { limit: 250, sort: 'name' } }))
    if (listed.ok) contactNames = Object.fromEntries(listed.value.data.map((c) => [c.id, contactLabel(c)]))
  }
  const t = getInstance(context).getFixedT(null, 'orders')
  return { order, contactNames, canManage: screen.canManage, meta: pageMeta(request, context, t('detail.title', { id: order.id.slice(0, 8) })) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const t = getInstance(context).getFixedT(null, 'orders')
  const url = requestUrl(request)
  const form = await request.formData()
  const intent = form.get('intent')
  const itemId = String(form.get('item_id') ?? '')
  if (itemId && !/^[0-9a-f-]{36}$/i.test(itemId)) throw data('Unknown item', { status: 400 })
  const done =
    intent === 'retry'
      ? await attempt(() => screen.platform.post('/groups/{context}/orders/{id}/items/{item_id}/retry', { path: { context: screen.groupContext, id: params.id, item_id: itemId } }))
      : intent === 'cancel'
        ? await attempt(() => screen.platform.post('/groups/{context}/orders/{id}/cancel', { path: { context: screen.groupContext, id: params.id }, body: itemId ? { item_ids: [itemId] } : {} }))
        : null
  if (!done) throw data('Unknown action', { status: 400 })
  const flash = done.ok ? { content: t(intent === 'retry' ? 'detail.retried' : 'detail.cancelled'), color: 'success' as const } : { content: refusalText(t, done.problem), color: 'error' as const }
  return redirect(carryContext(`/domains/orders/${params.id}`, url.searchParams), { headers: { 'Set-Cookie': flashHeader(request, flash) } })
}

/** While items run, the page refreshes: revalidation with JavaScript, a meta refresh without. */
function useRefreshWhile(running: boolean) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') void revalidator.revalidate()
    }, REFRESH_SECONDS * 1000)
    return () => clearInterval(timer)
  }, [running, revalidator])
}

export default function OrderDetail({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('orders')
  const { t: tDomains } = useTranslation('domains')
  const href = useContextHref()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const { order, contactNames, canManage } = loaderData
  const running = order.items.some((i) => isRunning(i.state))
  useRefreshWhile(running)
  const money = (minor: number, currency: string) => formatMoney(minor, currency, i18n.language)
  return (
    <div className="space-y-4">
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} />
        </noscript>
      ) : null}
      <PageHeader
        breadcrumb={[
          { label: tDomains('list.title'), to: '/domains' },
          { label: t('detail.back'), to: '/domains/orders' },
        ]}
        title={t('detail.title', { id: order.id.slice(0, 8) })}
        status={<StatusBadge kind="order" code={order.state} data-testid="order-state" />}
        description={
          <>
            {t('detail.orderedBy', { who: order.created_by, at: formatDateTime(order.created_at, i18n.language) })} · {t('cart.totals')}:{' '}
            <span data-testid="order-totals">{order.totals.map((total) => money(total.minor, total.currency)).join(' + ')}</span>
          </>
        }
      />
      {order.contacts ? <OrderContacts contacts={order.contacts} names={contactNames} /> : null}
      {running ? (
        <p className="text-sm" role="status">
          {t('detail.refreshing')}
        </p>
      ) : null}
      <Table aria-label={t('detail.items')}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('detail.name')}</TableHead>
            <TableHead>{t('detail.type')}</TableHead>
            <TableHead>{t('detail.period')}</TableHead>
            <TableHead className="text-right">{t('detail.price')}</TableHead>
            <TableHead>{t('detail.state')}</TableHead>
            <TableHead>{t('detail.attempts')}</TableHead>
            <TableHead>{t('detail.log')}</TableHead>
            <TableHead />
          </TableRow>
        </TableHeader>
        <TableBody>
          {order.items.map((item) => (
            <TableRow key={item.id} data-testid="order-item" data-state={item.state}>
              <TableCell className="font-medium">
                {item.domain_id ? (
                  <Link className="underline" to={href(`/domains/${item.domain_id}`)}>
                    {item.unicode_name}
                  </Link>
                ) : (
                  item.unicode_name
                )}
                {item.template_values && Object.keys(item.template_values).length ? (
                  <dl className="mt-1 text-xs font-normal text-slate-600 dark:text-slate-400" data-testid="item-template-values">
                    {Object.entries(item.template_values).map(([key, value]) => (
                      <div key={key}>
                        <dt className="inline font-mono">{key}</dt>: <dd className="inline">{value === null ? '—' : String(value)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </TableCell>
              <TableCell>{t(`cart.${item.type}`, { defaultValue: item.type })}</TableCell>
              <TableCell>{t('cart.years', { count: item.period })}</TableCell>
              <TableCell className="text-right tabular-nums">{money(item.price_minor, item.currency)}</TableCell>
              <TableCell>
                <StatusBadge kind="order" code={item.state} data-testid="item-state" />
                {item.last_error ? (
                  <p className="mt-1 text-xs text-red-700 dark:text-red-400" data-testid="item-error">
                    {t('detail.error')}: {item.last_error}
                  </p>
                ) : null}
              </TableCell>
              <TableCell className="tabular-nums">{item.attempts}</TableCell>
              <TableCell>
                <details>
                  <summary className="cursor-pointer text-sm">{t('detail.showLog', { count: item.log.length })}</summary>
                  <ol className="mt-2 space-y-1 text-xs">
                    {item.log.map((entry, index) => (
                      <li key={index}>
                        <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at, i18n.language)}</time> · {t(`states.${entry.state}`, { defaultValue: entry.state })} · {entry.message}
                        {entry.registry_code ? ` (${entry.registry_code})` : ''} · {entry.actor_label}
                      </li>
                    ))}
                  </ol>
                </details>
              </TableCell>
              <TableCell className="text-right">
                {canManage && (item.retryable || item.cancellable) ? (
                  <Form method="post">
                    <input type="hidden" name="item_id" value={item.id} />
                    {item.retryable ? (
                      <Button type="submit" name="intent" value="retry" size="sm" disabled={busy}>
                        {t('detail.retry')}
                      </Button>
                    ) : (
                      <Button type="submit" name="intent" value="cancel" variant="outline" size="sm" disabled={busy}>
                        {t('detail.cancel')}
                      </Button>
                    )}
                  </Form>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {canManage && order.items.filter((i) => i.cancellable).length > 1 ? (
        <Form method="post">
          <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
            {t('detail.cancelPending')}
          </Button>
        </Form>
      ) : null}
    </div>
  )
}

/** The registrant, then each other role only where it differs from the registrant. */
function OrderContacts({ contacts, names }: { contacts: Record<ContactRole, string>; names: Record<string, string> }) {
  const { t } = useTranslation('orders')
  const href = useContextHref()
  const shown = CONTACT_ROLES.filter((role) => contacts[role] && (role === 'registrant' || contacts[role] !== contacts.registrant))
  return (
    <p className="text-sm" data-testid="order-contacts">
      <span className="font-medium">{t('detail.contactsLabel')}</span>{' '}
      {shown.map((role, index) => (
        <Fragment key={role}>
          {index > 0 ? ' · ' : null}
          <Link className="underline" to={href(`/contacts/${contacts[role]}`)} data-testid={`order-contact-${role}`}>
            {t('detail.contactOf', { role: t(`checkout.roles.${role}`), name: names[contacts[role]] ?? contacts[role].slice(0, 8) })}
          </Link>
        </Fragment>
      ))}
    </p>
  )
}

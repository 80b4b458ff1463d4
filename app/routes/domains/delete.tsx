import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data, Form, Link, useActionData, useNavigation } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { parseDomainName } from '#common/domain-name.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { printPql } from '#common/pql.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/delete.ts'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import { domainScreen, splitNames, type DomainScreen } from './shared.server.ts'
import { StatusBadge } from './shared.tsx'
import { ChargeConfirmation, type ChargeQuote } from './charge-confirmation.tsx'
import { confirmCharge, quoteCharge } from './charge.server.ts'
import type { Row as DomainRow, Schema } from '#app/lib/platform-api.ts'

const MAX_DELETE = 500
const DAY = 86_400_000

type Row = Pick<DomainRow<'/groups/{context}/domains'>, 'id' | 'name' | 'unicode_name' | 'tld' | 'status' | 'created_at' | 'expires_at'>
type Tld = Pick<Schema<'Tld'>, 'name' | 'add_grace_days' | 'redemption_days'>
type Outcome = Schema<'DomainDeletionResult'>

/** What deleting a domain does under the registry rules (RFC 3915), before anyone confirms. */
export type Consequence = { kind: 'refund'; graceDays: number } | { kind: 'redemption'; redemptionDays: number } | { kind: 'already'; status: string }

export function consequenceOf(domain: Pick<Row, 'status' | 'created_at'>, tld: Tld | undefined, now = Date.now()): Consequence {
  if (domain.status === 'redemption' || domain.status === 'pending-delete') return { kind: 'already', status: domain.status }
  const graceDays = tld?.add_grace_days ?? 5
  // Inside the add grace period the registry deletes at once and the registration is refunded.
  if (now - Date.parse(domain.created_at) < graceDays * DAY) return { kind: 'refund', graceDays }
  return { kind: 'redemption', redemptionDays: tld?.redemption_days ?? 30 }
}

async function findByNames(screen: DomainScreen, names: string[]): Promise<Row[]> {
  if (!names.length) return []
  const pql = printPql([{ field: 'name', operator: 'equals', values: names }])
  const body = await screen.platform.get('/groups/{context}/domains', {
    path: { context: screen.groupContext },
    query: { pql, limit: MAX_DELETE, sort: 'name', fields: 'id,name,unicode_name,tld,status,created_at,expires_at' },
  })
  return body.data
}

async function tldRules(screen: DomainScreen, tlds: string[]): Promise<Record<string, Tld>> {
  if (!tlds.length) return {}
  const pql = printPql([{ field: 'name', operator: 'equals', values: tlds }])
  const body = await screen.platform.get('/tlds', { query: { pql, limit: 1000 } })
  return Object.fromEntries(body.data.map((t) => [t.name, t]))
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const url = requestUrl(request)
  const input = url.searchParams.get('names') ?? ''
  const wanted = splitNames(input, MAX_DELETE)
  const ascii = wanted.map((n) => {
    const p = parseDomainName(n)
    return p.ok ? p.domain.ascii : n.toLowerCase()
  })
  const found = await findByNames(screen, [...new Set(ascii)])
  const rules = await tldRules(screen, [...new Set(found.map((d) => d.tld))])
  const plan = found.map((d) => ({ ...d, consequence: consequenceOf(d, rules[d.tld]) }))
  const missing = wanted.filter((_, i) => !found.some((d) => d.name === ascii[i]))
  const redemption = await screen.platform.get('/groups/{context}/domains', { path: { context: screen.groupContext }, query: { pql: "status equals 'redemption'", limit: 50, sort: 'name' } })
  const t = getInstance(context).getFixedT(null, 'domains')
  return { input, plan, missing, redemption: redemption.data, canManage: screen.canManage, meta: pageMeta(request, context, t('delete.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const t = getInstance(context).getFixedT(null, 'domains')
  const form = await request.formData()
  const intent = form.get('intent')
  // A restore charges its fee: asked once, at the engine's price (charge.server.ts, issue 28).
  if (intent === 'restore') {
    const quoted = await quoteCharge(screen, String(form.get('id') ?? ''), 'restore')
    return quoted.ok ? { intent, confirm: quoted.value } : data({ intent, error: refusalText(t, quoted.problem) }, { status: quoted.status })
  }
  if (intent === 'restore-confirmed') {
    const charged = await confirmCharge(screen, t, form, String(form.get('id') ?? ''))
    return charged.ok ? { intent, message: t('detail.restored') } : data({ intent, error: charged.error, confirm: charged.confirm }, { status: charged.status })
  }
  if (intent === 'delete') {
    const ids = form
      .getAll('id')
      .filter((v): v is string => typeof v === 'string')
      .slice(0, MAX_DELETE)
    if (!ids.length) return data({ intent, error: t('delete.noneChosen') }, { status: 400 })
    if (form.get('confirm') !== 'yes') return data({ intent, error: t('delete.confirmRequired') }, { status: 400 })
    const result = await attempt(() => screen.platform.post('/groups/{context}/domains/deletions', { path: { context: screen.groupContext }, body: { ids } }))
    if (!result.ok) return data({ intent, error: refusalText(t, result.problem) }, { status: result.status })
    // Each refused domain in the user's words (a coded refusal, such as host objects under it at
    // the registry), else the API's message.
    const outcomes = (Array.isArray(result.value) ? result.value : (result.value.results ?? [])).map((o) =>
      typeof o.error === 'object' ? { ...o, error: refusalText(t, { ...o.error, detail: o.error.message, hosts: o.error.hosts?.join(', ') }) } : o,
    )
    return { intent, outcomes }
  }
  throw data('Unknown form', { status: 400 })
}

type ActionData = { intent: string; error?: string; message?: string; confirm?: ChargeQuote; outcomes?: (Omit<Outcome, 'error'> & { error?: string })[] }

/** /domains/delete: choose domains, see what deleting each one does, confirm; restore from redemption. */
export default function DeleteDomains({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('domains')
  const href = useContextHref()
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const { plan, missing, input, redemption, canManage } = loaderData
  const deletable = plan.filter((d) => d.consequence.kind !== 'already')
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('list.title'), to: '/domains' }]} title={t('delete.title')} />
      {/* The preview is for everyone who can see the domains; deleting and restoring are not, and the page says why. */}
      {!canManage ? <Alert data-testid="read-only">{t('common:readOnly.domains')}</Alert> : null}
      {actionData?.error ? (
        <Alert variant="error" data-testid="action-error">
          {actionData.error}
        </Alert>
      ) : null}
      {actionData?.message ? <Alert variant="success">{actionData.message}</Alert> : null}
      {actionData?.outcomes ? (
        <Card data-testid="delete-outcomes">
          <CardTitle>{t('delete.done')}</CardTitle>
          <ul className="text-sm">
            {actionData.outcomes.map((o) => (
              <li key={o.id} data-testid="delete-outcome">
                <span className="font-mono">{o.name ?? o.id}</span>: {o.ok === false ? (o.error ?? o.message) : t(`delete.outcome.${o.outcome ?? 'done'}`, { defaultValue: o.outcome ?? '' })}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card>
        <CardTitle>{t('delete.choose')}</CardTitle>
        <Form method="get" className="grid max-w-xl gap-2">
          <Label htmlFor="delete-names">{t('delete.namesLabel')}</Label>
          <textarea
            id="delete-names"
            name="names"
            defaultValue={input}
            rows={5}
            className="rounded-md border border-slate-300 p-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
            data-testid="delete-names"
          />
          <Button type="submit" variant="outline" className="justify-self-start">
            {t('delete.preview')}
          </Button>
        </Form>
      </Card>
      {input ? (
        <Card data-testid="delete-plan">
          <CardTitle>{t('delete.planTitle')}</CardTitle>
          {missing.length ? <Alert variant="error">{t('delete.missing', { names: missing.join(', ') })}</Alert> : null}
          {plan.length ? (
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="delete" />
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left">
                    <th>{t('fields.name')}</th>
                    <th>{t('fields.status')}</th>
                    <th>{t('delete.whatHappens')}</th>
                  </tr>
                </thead>
                <tbody>
                  {plan.map((d) => (
                    <tr key={d.id} data-testid="delete-plan-row">
                      <td className="font-mono">
                        {d.consequence.kind !== 'already' ? <input type="hidden" name="id" value={d.id} /> : null}
                        <Link to={href(`/domains/${d.id}`)} className="hover:underline">
                          {d.unicode_name || d.name}
                        </Link>
                      </td>
                      <td>
                        <StatusBadge status={d.status} />
                      </td>
                      <td data-testid="delete-consequence">
                        {d.consequence.kind === 'refund'
                          ? t('delete.consequence.refund', { days: d.consequence.graceDays })
                          : d.consequence.kind === 'redemption'
                            ? t('delete.consequence.redemption', { days: d.consequence.redemptionDays })
                            : t('delete.consequence.already', { status: t(`status.${d.consequence.status}`) })}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {canManage && deletable.length ? (
                <>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="confirm" value="yes" required data-testid="delete-confirm" />
                    {t('delete.confirm', { count: deletable.length })}
                  </label>
                  <Button type="submit" variant="destructive" disabled={navigation.state !== 'idle'} data-testid="delete-submit">
                    {t('delete.submit', { count: deletable.length })}
                  </Button>
                </>
              ) : null}
            </Form>
          ) : null}
        </Card>
      ) : null}
      <Card>
        <CardTitle>{t('delete.redemptionTitle')}</CardTitle>
        {actionData?.confirm ? <ChargeConfirmation quote={actionData.confirm} busy={navigation.state !== 'idle'} /> : null}
        {redemption.length ? (
          <ul className="space-y-1 text-sm" data-testid="redemption-list">
            {redemption.map((d) => (
              <li key={d.id} className="flex items-center gap-2">
                <span className="font-mono">{d.unicode_name || d.name}</span>
                {canManage ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="id" value={d.id} />
                    <Button type="submit" size="sm" variant="outline">
                      {t('delete.restore')}
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">{t('delete.noRedemption')}</p>
        )}
      </Card>
    </div>
  )
}

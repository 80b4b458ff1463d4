import { getFormProps } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, redirect, useActionData, useLocation, useNavigation } from 'react-router'
import { ErrorList, useZodForm } from '#app/components/forms.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { useMemo } from 'react'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { formatDate, formatDateTime } from '#app/lib/dates.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/overview.ts'
import { useDomainFrame } from './frame.tsx'
import { domainContactsSchema, domainTagsSchema, lockConfirmedSchema, MAX_TAG_LENGTH, renewSchema, splitTags, toggleSchema } from './schemas.ts'
import { ChargeConfirmation, type ChargeQuote } from './charge-confirmation.tsx'
import { confirmCharge, quoteCharge } from './charge.server.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { attempt, refusalErrors, refusalText, type Problem } from '#app/lib/refusal.server.ts'
import { getSelectProps } from '#app/components/field-props.ts'
import { Select } from '#app/components/ui/select.tsx'
import { domainScreen, type DomainScreen } from './shared.server.ts'
import { DateText } from '#app/components/date-text.tsx'
import { ExistingParams } from '#app/components/filter-bar.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  // The account's approvers of material changes, shown beside the domain's material flag.
  const approvers = await screen.platform
    .get('/groups/{context}/material-approvers', { path: { context: screen.groupContext } })
    .then((r) => r.emails)
    .catch(() => [] as string[])
  // Material changes of this domain still waiting for an approver, or approved but refused by the registry.
  const requests = await screen.platform
    .get('/groups/{context}/material-change-requests', { path: { context: screen.groupContext }, query: { 'filter[domain_id]': String(params.id), sort: '-created_at', limit: 5, fields: 'id,state' } })
    .then((r) => r.data.filter((item) => item.state === 'pending' || item.state === 'approved'))
    .catch(() => [])
  const pending = await Promise.all(requests.map((item) => screen.platform.get('/groups/{context}/material-change-requests/{id}', { path: { context: screen.groupContext, id: item.id } })))
  const contacts = screen.canManage ? await accountContacts(screen, String(params.id)) : []
  return { approvers, pending: pending.filter((item) => item.state === 'pending' || item.error), contacts, live: await liveLookup(request, context, screen, params.id) }
}

/** What the registry holds now (spec §7's registrar.domain.info), as the lookup answers it. */
type LiveInfo = { clientId?: string; statuses?: string[]; createdAt?: string; expiresAt?: string; nameservers?: string[]; dsData?: unknown[] }

/**
 * ?lookup=registry (the reconciliation card's GET button, so a viewer may ask too): the registry's
 * answer now. Throttled (429), it goes back to the page with spec §8's toast, never the 429 page.
 */
async function liveLookup(request: Request, context: Route.LoaderArgs['context'], screen: Awaited<ReturnType<typeof domainScreen>>, id: string) {
  const url = requestUrl(request)
  if (url.searchParams.get('lookup') !== 'registry') return null
  const domain = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id } })
  try {
    const { value } = await screen.platform.platformCall(screen.groupContext, 'registrar.domain.info', { domain: domain.name })
    return { ...(value as LiveInfo), asked_at: new Date().toISOString() }
  } catch (error) {
    if ((error as { init?: { status?: number } } | null)?.init?.status !== 429) throw error
    url.searchParams.delete('lookup')
    const t = getInstance(context).getFixedT(null, 'domains')
    throw redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: t('detail.liveThrottled'), color: 'error' }) } })
  }
}

/**
 * The contacts a manager may set on the domain (the contacts card's form): the domain's own
 * account's only, also for staff, whose context reaches every account's contacts.
 */
async function accountContacts(screen: DomainScreen, id: string) {
  const { account_id } = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id } })
  const query = { limit: 250, sort: 'name', fields: 'id,name,organisation,email', 'filter[group_id]': account_id }
  return (await screen.platform.get('/groups/{context}/contacts', { path: { context: screen.groupContext }, query })).data
}

/** DNSSEC algorithm and digest numbers (IANA registries) as people know them. */
const DS_ALGORITHMS: Record<number, string> = { 5: 'RSASHA1', 7: 'RSASHA1-NSEC3-SHA1', 8: 'RSASHA256', 10: 'RSASHA512', 13: 'ECDSAP256SHA256', 14: 'ECDSAP384SHA384', 15: 'ED25519', 16: 'ED448' }
const DS_DIGESTS: Record<number, string> = { 1: 'SHA-1', 2: 'SHA-256', 4: 'SHA-384' }
const named = (n: unknown, names: Record<number, string>) => (typeof n === 'number' && names[n] ? `${n} (${names[n]})` : String(n ?? '—'))

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await domainScreen(request, context, params)
  requireChange(request, screen.user, 'domain-manager')
  const t = getInstance(context).getFixedT(null, 'domains')
  const form = await request.formData()
  const intent = form.get('intent')
  const url = requestUrl(request)
  const back = (message: string) => redirect(url.pathname + url.search, { headers: { 'Set-Cookie': flashHeader(request, { content: message, color: 'success' }) } })

  if (intent === 'auth-code') {
    const result = await attempt(() => screen.platform.post('/groups/{context}/domains/{id}/auth-code', { path: { context: screen.groupContext, id: params.id } }))
    return result.ok ? { intent, authCode: result.value.auth_code } : data({ intent, error: refusalText(t, result.problem) }, { status: result.status })
  }
  // A renewal or a restore charges: asked once, at the engine's price (charge.server.ts, issue 28).
  if (intent === 'renew') {
    const submission = parseWithZod(form, { schema: renewSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const quoted = await quoteCharge(screen, String(params.id), 'renew', submission.value.period)
    if (!quoted.ok) return data({ intent, result: submission.reply({ formErrors: [refusalText(t, quoted.problem)] }) }, { status: quoted.status })
    return { intent, confirm: quoted.value }
  }
  if (intent === 'restore') {
    const quoted = await quoteCharge(screen, String(params.id), 'restore')
    if (!quoted.ok) return data({ intent, error: refusalText(t, quoted.problem) }, { status: quoted.status })
    return { intent, confirm: quoted.value }
  }
  if (intent === 'renew-confirmed' || intent === 'restore-confirmed') {
    const charged = await confirmCharge(screen, t, form, String(params.id))
    if (charged.ok) return back(charged.action === 'renew' ? t('detail.renewed', { count: charged.period }) : t('detail.restored'))
    return data({ intent: charged.action, error: charged.error, confirm: charged.confirm }, { status: charged.status })
  }
  if (intent === 'material') {
    const on = form.get('value') === 'on'
    const result = await attempt(() => screen.platform.put('/groups/{context}/material-domains', { path: { context: screen.groupContext }, body: { ids: [params.id], is_material: on } }))
    if (!result.ok) return data({ intent, error: refusalText(t, result.problem) }, { status: result.status })
    return back(t(on ? 'material.marked' : 'material.unmarked'))
  }
  if (intent === 'approvers') {
    const emails = String(form.get('emails') ?? '')
      .split(/[\s,;]+/)
      .filter(Boolean)
    const result = await attempt(() => screen.platform.put('/groups/{context}/material-approvers', { path: { context: screen.groupContext }, body: { emails } }))
    if (!result.ok) return data({ intent, error: refusalText(t, result.problem) }, { status: result.status })
    return back(t('material.approversSaved'))
  }
  // The contacts card: the roles chosen are set through the domain's one change (registry first;
  // on a material domain a request that waits for an approver).
  if (intent === 'contacts') {
    const submission = parseWithZod(form, { schema: domainContactsSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const { version, ...chosen } = submission.value
    const contacts = Object.fromEntries(CONTACT_ROLES.flatMap((role) => (chosen[role] ? [[role, chosen[role]]] : [])))
    const result = await attempt(() => screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id }, body: { version, contacts } }))
    if (!result.ok) {
      if (result.problem.code === 'version.conflict') return data({ intent, result: submission.reply(), ...refusal(t, result) }, { status: result.status })
      const alias = Object.fromEntries(CONTACT_ROLES.map((role) => [`contacts.${role}`, role]))
      return data({ intent, result: submission.reply(refusalErrors(t, result.problem, CONTACT_ROLES, alias, 'domains')) }, { status: result.status })
    }
    if (result.value && typeof result.value === 'object' && 'material_change_request_id' in result.value) return back(t('detail.materialRequested'))
    return back(t('detail.contactsSaved'))
  }
  // Tags: the whole list as typed replaces the domain's (audited with the domain's change).
  if (intent === 'tags') {
    const submission = parseWithZod(form, { schema: domainTagsSchema(t) })
    if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
    const tags = splitTags(submission.value.tags)
    const result = await attempt(() =>
      screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id }, body: { version: submission.value.version, tags } }),
    )
    if (!result.ok) {
      if (result.problem.code === 'version.conflict') return data({ intent, result: submission.reply(), ...refusal(t, result) }, { status: result.status })
      return data({ intent, result: submission.reply(refusalErrors(t, result.problem, ['tags'], {}, 'domains')) }, { status: result.status })
    }
    return back(t('tags.saved'))
  }
  if (intent === 'nameservers') {
    const nameservers = String(form.get('nameservers') ?? '')
      .split(/[\s,;]+/)
      .filter(Boolean)
    const version = Number(form.get('version'))
    const result = await attempt(() => screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id }, body: { version, nameservers } }))
    if (!result.ok) return data({ intent, ...refusal(t, result) }, { status: result.status })
    if (result.value && typeof result.value === 'object' && 'material_change_request_id' in result.value) return back(t('detail.materialRequested'))
    return back(t('material.nameserversSaved'))
  }
  // Turning the registry lock on charges its fee where the price list prices one: asked once at the
  // engine's price like a renewal (issue 28); the confirmation changes the domain at the price shown.
  if (intent === 'lock' && form.get('value') === 'on') {
    const quoted = await quoteCharge(screen, String(params.id), 'registry-lock')
    if (!quoted.ok) return data({ intent, error: refusalText(t, quoted.problem) }, { status: quoted.status })
    return { intent, confirm: quoted.value }
  }
  if (intent === 'registry-lock-confirmed') {
    const confirmed = lockConfirmedSchema.safeParse(Object.fromEntries(form))
    if (!confirmed.success) throw data('Unknown form', { status: 400 })
    const { version, amount_minor, currency } = confirmed.data
    const expected = amount_minor === '' ? null : { amount_minor: Number(amount_minor), currency }
    const result = await attempt(() =>
      screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id }, body: { version, registry_lock: true, expected } }),
    )
    if (!result.ok) {
      // The price changed in between: nothing was charged or locked; the new fee is asked again.
      const again = result.problem.code === 'billing.quote_changed' ? await quoteCharge(screen, String(params.id), 'registry-lock') : null
      return data({ intent: 'lock', ...refusal(t, result), ...(again?.ok ? { confirm: again.value } : {}) }, { status: result.status })
    }
    return back(t('detail.registry_lock.on'))
  }
  const toggle = toggleSchema.safeParse(Object.fromEntries(form))
  if (!toggle.success) throw data('Unknown form', { status: 400 })
  const field = toggle.data.intent === 'lock' ? 'registry_lock' : 'auto_renew'
  // Versioned: another change since this page was loaded answers 409 and nothing is written.
  const result = await attempt(() =>
    screen.platform.patch('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id }, body: { version: toggle.data.version, [field]: toggle.data.value === 'on' } }),
  )
  if (!result.ok) return data({ intent: toggle.data.intent, ...refusal(t, result) }, { status: result.status })
  if (result.value && typeof result.value === 'object' && 'material_change_request_id' in result.value) return back(t('detail.materialRequested'))
  return back(t(`detail.${field}.${toggle.data.value}`))
}

/** A refused change in the user's language: a stale version asks to reload (and offers it), any other refusal says why. */
function refusal(t: TFunction, result: { problem: Problem }) {
  if (result.problem.code === 'version.conflict') return { error: t('detail.conflict'), conflict: true }
  return { error: refusalText(t, result.problem), conflict: false }
}

type ActionData = { intent: string; error?: string; conflict?: boolean; authCode?: string; result?: unknown; confirm?: ChargeQuote }

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[10rem_minmax(0,1fr)] gap-2 py-1 text-sm max-sm:grid-cols-[7.5rem_minmax(0,1fr)]">
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  )
}

/** Cancel closes the editor in place (with JavaScript; without it the link reloads the page closed). */
function closeDetails(event: React.MouseEvent<HTMLElement>) {
  const details = event.currentTarget.closest('details')
  if (!details) return
  event.preventDefault()
  details.open = false
}

/** An in-place editor's Save, and Cancel back to the overview (closing it in place with JavaScript). */
function EditorActions({ save, busy, domainId }: { save: string; busy: boolean; domainId: string }) {
  const { t } = useTranslation('domains')
  const href = useContextHref()
  return (
    <div className="flex gap-2">
      <Button type="submit" size="sm" disabled={busy}>
        {save}
      </Button>
      <Button asChild size="sm" variant="ghost">
        <Link to={href(`/domains/${domainId}`)} onClick={closeDetails}>
          {t('detail.cancel')}
        </Link>
      </Button>
    </div>
  )
}

function ToggleForm({ intent, on, version, disabled }: { intent: 'auto-renew' | 'lock'; on: boolean; version: number; disabled: boolean }) {
  const { t } = useTranslation('domains')
  return (
    <Form method="post" className="inline">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
      <input type="hidden" name="value" value={on ? 'off' : 'on'} />
      <Button type="submit" size="sm" variant="outline" disabled={disabled} data-testid={`toggle-${intent}`}>
        {t(`detail.${intent === 'lock' ? 'registry_lock' : 'auto_renew'}.${on ? 'turnOff' : 'turnOn'}`)}
      </Button>
    </Form>
  )
}

/** The look of a <details> summary that opens an editor in place (the nameservers' Edit, the tags', the contacts'). */
const EDIT_SUMMARY =
  'mt-2 inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-slate-300 bg-white px-3 text-xs font-medium shadow-sm hover:bg-slate-50 group-open/edit:hidden dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden'

type AccountContact = Route.ComponentProps['loaderData']['contacts'][number]
type DomainOverviewData = ReturnType<typeof useDomainFrame>['domain']
const contactLabel = (c: { name?: string | null; organisation?: string | null; email?: string | null }) => [c.name, c.organisation, c.email].filter(Boolean).join(' · ')

/**
 * The contacts card's editor (issue 28): a role shown "Not set" is set here, from the account's
 * contacts, through the domain's one change (PATCH contacts: registry first, audited; on a
 * material domain a request that waits for an approver). A role already set shows its contact
 * and may be changed; the API has no "unset", so "Not set" is offered only while it is.
 */
function ContactsEditor({ domain, contacts, busy, lastResult, open }: { domain: DomainOverviewData; contacts: AccountContact[]; busy: boolean; lastResult: unknown; open: boolean }) {
  const { t } = useTranslation('domains')
  const href = useContextHref()
  const location = useLocation()
  const schema = useMemo(() => domainContactsSchema(t), [t])
  const current = Object.fromEntries(CONTACT_ROLES.map((role) => [role, domain.contacts?.[role]?.id ?? '']))
  const [form, fields] = useZodForm(schema, { id: 'contacts-form', lastResult: lastResult as never, defaultValue: current, shouldValidate: 'onSubmit' })
  const unset = CONTACT_ROLES.some((role) => !domain.contacts?.[role])
  if (!contacts.length) {
    return (
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="contacts-none">
        {t('contactsEdit.noContacts')}{' '}
        <Link to={href('/contacts')} className="text-blue-700 underline dark:text-blue-300">
          {t('contactsEdit.create')}
        </Link>
      </p>
    )
  }
  return (
    <details key={location.key} className="group/edit" open={open || undefined}>
      <summary className={EDIT_SUMMARY} data-testid="edit-contacts">
        {t(unset ? 'contactsEdit.set' : 'contactsEdit.change')}
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-2" data-testid="contacts-form">
        <input type="hidden" name="intent" value="contacts" />
        <input type="hidden" name="version" value={domain.version} />
        <div className="grid gap-2 sm:grid-cols-2">
          {CONTACT_ROLES.map((role) => (
            <label key={role} className="flex min-w-0 flex-col gap-1 text-sm">
              {t(`roles.${role}`)}
              <Select {...getSelectProps(fields[role])} key={fields[role].key}>
                {domain.contacts?.[role] ? null : <option value="">{t('detail.noContact')}</option>}
                {contacts.map((c) => (
                  <option key={c.id} value={c.id}>
                    {contactLabel(c)}
                  </option>
                ))}
              </Select>
              <ErrorList id={fields[role].errorId} errors={fields[role].errors} />
            </label>
          ))}
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        {domain.is_material ? <p className="text-xs text-slate-600 dark:text-slate-400">{t('contactsEdit.material')}</p> : null}
        <EditorActions save={t('contactsEdit.save')} busy={busy} domainId={domain.id} />
      </Form>
    </details>
  )
}

/** The domain's tags, shown as badges and edited in place (issue 28: the API had them, the portal did not). */
function TagsEditor({ domain, canManage, busy, lastResult, open }: { domain: DomainOverviewData; canManage: boolean; busy: boolean; lastResult: unknown; open: boolean }) {
  const { t } = useTranslation('domains')
  const location = useLocation()
  const schema = useMemo(() => domainTagsSchema(t), [t])
  const tags = domain.tags ?? []
  const [form, fields] = useZodForm(schema, { id: 'tags-form', lastResult: lastResult as never, defaultValue: { tags: tags.join(', ') }, shouldValidate: 'onSubmit' })
  const shown = (
    <span className="flex flex-wrap gap-1 group-has-[details[open]]/tags:hidden" data-testid="domain-tags">
      {tags.length ? tags.map((tag) => <Badge key={tag}>{tag}</Badge>) : '—'}
    </span>
  )
  if (!canManage) return shown
  return (
    <div className="group/tags">
      {shown}
      <details key={location.key} className="group/edit" open={open || undefined}>
        <summary className={EDIT_SUMMARY} data-testid="edit-tags">
          {t('tags.edit')}
        </summary>
        <Form method="post" {...getFormProps(form)} className="space-y-2" data-testid="tags-form">
          <input type="hidden" name="intent" value="tags" />
          <input type="hidden" name="version" value={domain.version} />
          <Input {...getInputProps(fields.tags, { type: 'text' })} key={fields.tags.key} aria-label={t('fields.tags')} placeholder={t('tags.placeholder')} autoComplete="off" />
          <ErrorList id={fields.tags.errorId} errors={fields.tags.errors} />
          <p className="text-xs text-slate-600 dark:text-slate-400">{t('tags.help', { max: MAX_TAG_LENGTH })}</p>
          <ErrorList id={form.errorId} errors={form.errors} />
          <EditorActions save={t('tags.save')} busy={busy} domainId={domain.id} />
        </Form>
      </details>
    </div>
  )
}

/** /domains/{id}: what we hold about the domain, and the actions on it. */
export default function DomainOverview({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('domains')
  const href = useContextHref()
  const { domain, canManage } = useDomainFrame()
  const approvers = loaderData?.approvers ?? []
  const pending = loaderData?.pending ?? []
  const live = loaderData?.live ?? null
  const location = useLocation()
  const actionData = useActionData<ActionData>()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const schema = renewSchema(t)
  const [renewForm, renewFields] = useZodForm(schema, {
    id: 'renew-form',
    lastResult: actionData?.intent === 'renew' ? (actionData.result as never) : undefined,
    defaultValue: { period: '1' },
    shouldValidate: 'onSubmit',
  })
  const date = (value: string | null) => (value ? <DateText value={value} lng={i18n.language} /> : '—')
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—')
  const differences = domain.reconciliation?.differences ?? []
  return (
    <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
      {actionData?.error ? (
        <Alert variant="error" className="lg:col-span-2" data-testid="action-error">
          {actionData.error}{' '}
          {actionData.conflict ? (
            <Link to={href(`/domains/${domain.id}`)} className="underline">
              {t('detail.reload')}
            </Link>
          ) : null}
        </Alert>
      ) : null}
      {pending.length ? (
        <Alert className="lg:col-span-2" data-testid="pending-changes">
          <p className="font-medium">{t('detail.pendingTitle', { count: pending.length })}</p>
          <ul className="mt-1 space-y-1">
            {pending.map((item) => (
              <li key={item.id} data-testid="pending-change" data-state={item.state}>
                <Link to={href(`/domains/material-change-requests/${item.id}`)} className="underline">
                  {[
                    item.change.nameservers ? t('detail.pendingNameservers', { list: item.change.nameservers.join(', ') }) : null,
                    item.change.contacts
                      ? t('detail.pendingContacts', {
                          roles: Object.keys(item.change.contacts)
                            .map((role) => t(`roles.${role}`))
                            .join(', '),
                        })
                      : null,
                  ]
                    .filter(Boolean)
                    .join('; ')}
                </Link>{' '}
                <span className="text-xs">
                  {item.error ? t('detail.pendingFailed', { error: item.error }) : t('detail.pendingWaiting', { who: item.requested_by_label, until: formatDate(item.expires_at, i18n.language) })}
                </span>
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <Card>
        <CardTitle>{t('detail.overview')}</CardTitle>
        <dl>
          <Row label={t('fields.status')} testId="domain-statuses">
            <span className="flex flex-wrap gap-1">
              <StatusBadge kind="domain" code={domain.status} />
              {(domain.statuses ?? [])
                .filter((s) => s !== domain.status)
                .map((s) => (
                  <StatusBadge key={s} kind="epp" code={s} />
                ))}
            </span>
          </Row>
          <Row label={t('fields.expires_at')} testId="domain-expires">
            {date(domain.expires_at)}
          </Row>
          <Row label={t('fields.created_at')}>{date(domain.created_at)}</Row>
          <Row label={t('fields.updated_at')}>{date(domain.updated_at)}</Row>
          <Row label={t('fields.tags')}>
            <TagsEditor
              key={domain.version}
              domain={domain}
              canManage={canManage}
              busy={busy}
              lastResult={actionData?.intent === 'tags' ? actionData.result : undefined}
              open={actionData?.intent === 'tags'}
            />
          </Row>
          <Row label={t('fields.auto_renew')} testId="domain-auto-renew">
            <span className="mr-2">{domain.auto_renew ? t('yes') : t('no')}</span>
            {canManage ? <ToggleForm intent="auto-renew" on={domain.auto_renew} version={domain.version} disabled={busy} /> : null}
          </Row>
          <Row label={t('fields.registry_lock')} testId="domain-lock">
            <span className="mr-2">{domain.registry_lock ? t('yes') : t('no')}</span>
            {canManage ? <ToggleForm intent="lock" on={domain.registry_lock} version={domain.version} disabled={busy} /> : null}
            {canManage && actionData?.confirm?.action === 'registry-lock' ? (
              <div className="mt-2">
                <ChargeConfirmation quote={actionData.confirm} busy={busy} version={domain.version} />
              </div>
            ) : null}
          </Row>
          <Row label={t('fields.dnssec')}>{domain.dnssec ? t('yes') : t('no')}</Row>
        </dl>
      </Card>
      <Card>
        <CardTitle>{t('detail.contacts')}</CardTitle>
        <dl>
          {CONTACT_ROLES.map((role) => {
            const contact = domain.contacts?.[role]
            return (
              <Row key={role} label={t(`roles.${role}`)} testId={`contact-${role}`}>
                {contact ? (
                  <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                    <Link to={href(`/contacts/${contact.id}`)} className="font-medium text-blue-700 hover:underline dark:text-blue-300">
                      {contact.name || contact.organisation || contact.email}
                    </Link>
                    <span className="text-xs text-slate-600 [overflow-wrap:anywhere] dark:text-slate-400">
                      {[contact.name ? contact.organisation : null, contact.email].filter(Boolean).join(' · ')}
                    </span>
                  </span>
                ) : (
                  <span className="text-slate-600 dark:text-slate-400">{t('detail.noContact')}</span>
                )}
              </Row>
            )
          })}
        </dl>
        {canManage ? (
          <ContactsEditor
            key={domain.version}
            domain={domain}
            contacts={loaderData?.contacts ?? []}
            busy={busy}
            lastResult={actionData?.intent === 'contacts' ? actionData.result : undefined}
            open={actionData?.intent === 'contacts'}
          />
        ) : null}
      </Card>
      <Card>
        <CardTitle>{t('detail.nameservers')}</CardTitle>
        {/* Shown once and edited in place: opening "Edit" puts the form where the list was (a <details>, so without JavaScript too). */}
        <div className="group/ns">
          {domain.nameservers?.length ? (
            <ul className="font-mono text-sm group-has-[details[open]]/ns:hidden" data-testid="domain-nameservers">
              {domain.nameservers.map((ns) => (
                <li key={ns} className="py-0.5">
                  {ns}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500 group-has-[details[open]]/ns:hidden">{t('detail.noNameservers')}</p>
          )}
          {canManage ? (
            <details key={location.key} className="group/edit" open={actionData?.intent === 'nameservers' ? true : undefined}>
              <summary
                className="mt-2 inline-flex h-8 cursor-pointer list-none items-center rounded-md border border-slate-300 bg-white px-3 text-xs font-medium shadow-sm hover:bg-slate-50 group-open/edit:hidden dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden"
                data-testid="edit-nameservers"
              >
                {t('detail.editNameservers')}
              </summary>
              <Form method="post" className="space-y-2" data-testid="nameservers-form">
                <input type="hidden" name="intent" value="nameservers" />
                <input type="hidden" name="version" value={domain.version} />
                <label className="block text-sm">
                  <span className="sr-only">{t('material.nameserversLabel')}</span>
                  <textarea
                    name="nameservers"
                    rows={Math.max(3, (domain.nameservers ?? []).length + 1)}
                    defaultValue={(domain.nameservers ?? []).join('\n')}
                    aria-describedby="nameservers-help"
                    className="block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
                  />
                </label>
                <p id="nameservers-help" className="text-xs text-slate-600 dark:text-slate-400">
                  {t('material.nameserversLabel')}
                  {domain.is_material ? ` — ${t('material.is')}` : ''}
                </p>
                <EditorActions save={t('material.saveNameservers')} busy={busy} domainId={domain.id} />
              </Form>
            </details>
          ) : null}
        </div>
        <h3 className="mt-5 text-sm font-medium">{t('detail.ds')}</h3>
        {domain.ds?.length ? (
          <div className="mt-1 overflow-x-auto">
            <table className="w-full text-left text-xs" data-testid="domain-ds">
              <thead className="text-slate-600 dark:text-slate-400">
                <tr>
                  <th className="py-1 pr-3 font-medium">{t('detail.dsKeyTag')}</th>
                  <th className="py-1 pr-3 font-medium">{t('detail.dsAlgorithm')}</th>
                  <th className="py-1 pr-3 font-medium">{t('detail.dsDigestType')}</th>
                  <th className="py-1 font-medium">{t('detail.dsDigest')}</th>
                </tr>
              </thead>
              <tbody>
                {domain.ds.map((ds, i) => (
                  <tr key={i} className="border-t border-slate-100 align-top dark:border-slate-800">
                    <td className="py-1 pr-3 tabular-nums">{String(ds.key_tag ?? '—')}</td>
                    <td className="py-1 pr-3 sm:whitespace-nowrap">{named(ds.alg, DS_ALGORITHMS)}</td>
                    <td className="py-1 pr-3 sm:whitespace-nowrap">{named(ds.digest_type, DS_DIGESTS)}</td>
                    <td className="break-all py-1 font-mono">{String(ds.digest ?? '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-slate-500">{t('detail.noDs')}</p>
        )}
      </Card>
      <Card>
        <CardTitle>{t('detail.reconciliation')}</CardTitle>
        <Form method="get" className="mb-2">
          <ExistingParams exclude={['lookup']} />
          <input type="hidden" name="lookup" value="registry" />
          <Button type="submit" size="sm" variant="outline" disabled={busy} data-testid="live-lookup">
            {t('detail.liveLookup')}
          </Button>
        </Form>
        {live ? <LiveRegistry live={live} /> : null}
        {!domain.reconciliation?.checked_at ? (
          <p className="text-sm text-slate-500">{t('detail.notReconciled')}</p>
        ) : differences.length === 0 ? (
          <p className="text-sm" data-testid="reconciliation">
            {t('detail.reconciled', { date: when(domain.reconciliation.checked_at) })}
          </p>
        ) : (
          <div data-testid="reconciliation">
            <Alert variant="error">{t('detail.differences', { count: differences.length, date: when(domain.reconciliation.checked_at) })}</Alert>
            <table className="mt-2 w-full text-sm">
              <thead>
                <tr className="text-left">
                  <th>{t('detail.field')}</th>
                  <th>{t('detail.ours')}</th>
                  <th>{t('detail.registry')}</th>
                </tr>
              </thead>
              <tbody>
                {differences.map((d) => (
                  <tr key={d.field}>
                    <td>{d.field}</td>
                    <td className="font-mono">{JSON.stringify(d.ours)}</td>
                    <td className="font-mono">{JSON.stringify(d.registry)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card data-testid="material-card">
        <CardTitle>{t('material.title')}</CardTitle>
        {/* A div, not a p: a <form> inside a <p> closes it in the HTML parser, so the browser's DOM
            would not be the tree React rendered on the server (hydration error #418). */}
        <div className="text-sm" data-testid="domain-material">
          <span className="mr-2">{domain.is_material ? t('material.is') : t('material.isNot')}</span>
          {canManage ? (
            <Form method="post" className="inline">
              <input type="hidden" name="intent" value="material" />
              <input type="hidden" name="value" value={domain.is_material ? 'off' : 'on'} />
              <Button type="submit" size="sm" variant="outline" disabled={busy} data-testid="toggle-material">
                {domain.is_material ? t('material.unmark') : t('material.mark')}
              </Button>
            </Form>
          ) : null}
        </div>
        {/* The approvers are the account's, and matter only where a change waits for them: shown
            and edited on a material domain, one line on the others (issue 28). */}
        {!domain.is_material ? (
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="approvers-when-material">
            {t('material.approversWhenMarked', { count: approvers.length })}
          </p>
        ) : canManage ? (
          <Form method="post" className="mt-3 space-y-1" data-testid="approvers-form">
            <input type="hidden" name="intent" value="approvers" />
            <label className="block text-sm">
              {t('material.approvers')}
              <textarea
                name="emails"
                rows={2}
                defaultValue={approvers.join('\n')}
                className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
              />
            </label>
            <Button type="submit" size="sm" variant="outline" disabled={busy}>
              {t('material.saveApprovers')}
            </Button>
          </Form>
        ) : (
          <p className="mt-2 text-sm">
            {t('material.approvers')}: {approvers.join(', ') || '—'}
          </p>
        )}
        {domain.is_material ? <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">{t('material.help')}</p> : null}
      </Card>
      {canManage ? (
        <Card className="lg:col-span-2">
          <CardTitle>{t('detail.actions')}</CardTitle>
          {actionData?.confirm && actionData.confirm.action !== 'registry-lock' ? <ChargeConfirmation quote={actionData.confirm} busy={busy} /> : null}
          <div className="flex flex-wrap items-start gap-6">
            <div className="space-y-2">
              <Form method="post">
                <input type="hidden" name="intent" value="auth-code" />
                <Button type="submit" variant="outline" disabled={busy} data-testid="show-auth-code">
                  {t('detail.showAuthCode')}
                </Button>
              </Form>
              {actionData?.authCode ? (
                <p className="text-sm">
                  {t('detail.authCode')}:{' '}
                  <code className="rounded bg-slate-100 px-1 font-mono dark:bg-slate-800" data-testid="auth-code">
                    {actionData.authCode}
                  </code>
                </p>
              ) : null}
            </div>
            <Form method="post" {...getFormProps(renewForm)} className="flex items-end gap-2">
              <input type="hidden" name="intent" value="renew" />
              <label className="flex flex-col gap-1 text-sm">
                {t('detail.period')}
                <Input {...getInputProps(renewFields.period, { type: 'number' })} className="w-24" min={1} max={10} />
              </label>
              <Button type="submit" disabled={busy} data-testid="renew">
                {t('detail.renew')}
              </Button>
              <ErrorList errors={[...(renewFields.period.errors ?? []), ...(renewForm.errors ?? [])]} />
            </Form>
            {domain.status === 'redemption' ? (
              <Form method="post">
                <input type="hidden" name="intent" value="restore" />
                <Button type="submit" variant="outline" disabled={busy}>
                  {t('delete.restore')}
                </Button>
              </Form>
            ) : null}
          </div>
        </Card>
      ) : null}
    </div>
  )
}

/** The registry's answer of a live lookup, beside our comparison with it. */
function LiveRegistry({ live }: { live: LiveInfo & { asked_at: string } }) {
  const { t, i18n } = useTranslation('domains')
  const lng = i18n.language
  return (
    <section className="mb-3 rounded border border-slate-200 p-3 text-sm dark:border-slate-800" data-testid="live-registry">
      <h3 className="font-medium">
        {t('detail.liveTitle')} · <DateText value={live.asked_at} lng={lng} time />
      </h3>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveSponsor')}</dt>
        <dd data-testid="live-sponsor">{live.clientId ?? '—'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveStatuses')}</dt>
        <dd className="font-mono text-xs" data-testid="live-statuses">
          {(live.statuses ?? []).join(', ') || '—'}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveCreated')}</dt>
        <dd>{live.createdAt ? <DateText value={live.createdAt} lng={lng} /> : '—'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveExpires')}</dt>
        <dd data-testid="live-expires">{live.expiresAt ? <DateText value={live.expiresAt} lng={lng} /> : '—'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveNameservers')}</dt>
        <dd className="break-all font-mono text-xs">{(live.nameservers ?? []).join(', ') || '—'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">{t('detail.liveDs')}</dt>
        <dd className="tabular-nums">{live.dsData?.length ?? 0}</dd>
      </dl>
    </section>
  )
}

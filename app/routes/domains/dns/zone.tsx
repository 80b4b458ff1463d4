import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { useMemo } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, useNavigation, useRouteLoaderData } from 'react-router'
import { Download, Plus, Trash2, Upload, X } from 'lucide-react'
import { DataTable, ListPager } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { FilterBar } from '#app/components/filter-bar.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { ErrorList, useZodForm } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage, type ListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { dnsZoneRecordsList } from './lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { cn } from '#app/lib/utils.ts'
import type { Route } from './+types/zone.ts'
import { editorSchema, origOf, rowFields, toChanges } from './editor.ts'
import { refusalErrors, refusalOf, refusalText, refusalTextOf } from '#app/lib/refusal.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { dnsScreen, screenZone } from './shared.server.ts'
import { RECORD_TYPES, relativeName, type ChangeDiff, type RecordValue, type Zone } from './types.ts'

const zoneRecordsList = (zoneId: string): ListDefinition => ({ ...dnsZoneRecordsList, fixedFilters: [{ field: 'zone_id', operator: 'equals', values: [zoneId] }] })

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const { zone, here } = await screenZone(screen, params)
  const exportPath = `${here}/export`
  const standalone = 'zoneId' in params
  const meta = standalone && zone ? pageMeta(request, context, getInstance(context).getFixedT(null, 'dns')('zone.title', { name: zone.name })) : null
  if (!zone) return data({ zone: null, canAdmin: screen.canAdmin, page: null, exportPath, standalone, meta })
  const { page, headers } = await loadListPage(request, context, zoneRecordsList(zone.id), screen.groupContext)
  return data({ zone, canAdmin: screen.canAdmin, page, exportPath, standalone, meta }, { headers })
}

// On a domain's tab the frame's title stays; a standalone zone's page has its own.
export const meta: Route.MetaFunction = ({ loaderData, matches }) => (loaderData?.standalone ? metaTags(loaderData.meta) : (matches.find((m) => m?.id === 'domain-frame')?.meta ?? []))

/** The record editor's answer: conform's result (the rows as typed, each error beside its row's field) and, after a preview, the diff. */
type ActionData = { result: SubmissionResult<string[]>; diff: ChangeDiff | null }

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  // A role the page offers no control for: said on the page, never a 403 problem document from the platform.
  if (!screen.canAdmin) return backWith(request, screen.url.pathname, { content: t('zone.needsAdmin'), color: 'error' })
  if (intent === 'create-zone' && params.id) {
    const here = `/domains/${params.id}/dns`
    try {
      const zone = await screen.platform.post('/groups/{context}/zones', { path: { context: screen.groupContext }, body: { domain_id: params.id } })
      return backWith(request, here, { content: t('zone.created', { name: zone.name }), color: 'success' })
    } catch (error) {
      return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  const { zone, here } = await screenZone(screen, params)
  if (!zone) return backWith(request, here, { content: t('zone.none'), color: 'error' })
  if (intent === 'verify') {
    // The proof of control of a name hosted elsewhere: its TXT record looked up, then the zone published.
    const td = getInstance(context).getFixedT(null, 'domains')
    try {
      await screen.platform.post('/groups/{context}/zones/{zone}/verify', { path: { context: screen.groupContext, zone: zone.id }, body: {} })
      return backWith(request, here, { content: td('zoneProof.verified', { name: zone.name }), color: 'success' })
    } catch (error) {
      return backWith(request, here, { content: refusalTextOf(td, error), color: 'error' })
    }
  }
  if (intent === 'drift') {
    await screen.platform.get('/groups/{context}/zones/{zone}/drift', { path: { context: screen.groupContext, zone: zone.id } })
    return backWith(request, here, { content: t('drift.checked'), color: 'info' })
  }
  if (intent === 'delete-zone') {
    // The zone's name typed again: a deletion is never one stray click.
    if (
      String(form.get('confirm') ?? '')
        .trim()
        .toLowerCase() !== zone.name
    )
      return backWith(request, here, { content: t('zone.deleteMismatch', { name: zone.name }), color: 'error' })
    try {
      await screen.platform.delete('/groups/{context}/zones/{zone}', { path: { context: screen.groupContext, zone: zone.id } })
      // A standalone zone's page is gone with it: back to where such zones are made and listed.
      return backWith(request, zone.domain_id ? here : '/domains/bind-import', { content: t('zone.deleted', { name: zone.name }), color: 'success' })
    } catch (error) {
      return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  // The record editor: Preview, Apply, or conform's intents ("Add a row", a new row's remove) posted without JavaScript.
  if (intent !== 'preview' && intent !== 'apply' && !form.has('__intent__')) return backWith(request, here, { content: t('editor.unknownIntent'), color: 'error' })
  const submission = parseWithZod(form, { schema: editorSchema(t) })
  const answer = (status: number, result: SubmissionResult<string[]>, diff: ChangeDiff | null = null) => data<ActionData>({ result, diff }, { status })
  // An intent comes back with the rows as typed and the row added or taken away.
  if (submission.status !== 'success') return submission.status === 'error' ? answer(400, submission.reply({ formErrors: [t('editor.fixRows')] })) : answer(200, submission.reply())
  const { changes, index } = toChanges(submission.value.records)
  if (!changes.length) return answer(400, submission.reply({ formErrors: [t('editor.nothing')] }))
  const preview = submission.value.intent !== 'apply'
  try {
    const result = await screen.platform.post('/groups/{context}/zones/{zone}/changes', { path: { context: screen.groupContext, zone: zone.id }, body: { dry_run: preview, changes } })
    if (preview) return answer(200, submission.reply(), result.diff)
    return backWith(request, here, { content: t('editor.applied', { count: changes.length, serial: result.zone.serial }), color: 'success' })
  } catch (error) {
    const { status, problem } = refusalOf(error)
    // The edit comes back as typed, each message beside its row and field, the refusal above them.
    const { fields, alias } = rowFields(index)
    const { fieldErrors, formErrors } = refusalErrors(t, problem, fields, alias, 'dns')
    // A refusal of rows says so in the user's words above them; each row's reason is beside its field.
    const whole = problem.errors?.length ? t('editor.fixRows') : refusalText(t, problem, { withFields: false })
    return answer(status, submission.reply({ fieldErrors, formErrors: [...new Set([whole, ...(problem.errors?.length ? formErrors : [])])] }))
  }
}

/** The publishing tile of the zone's health: what PowerDNS serves, and why not when it does not. */
export function PublishState({ zone }: { zone: Zone }) {
  const { t } = useTranslation('dns')
  const color = zone.publish_state === 'published' && zone.published ? 'green' : zone.publish_state === 'failed' ? 'red' : 'amber'
  return (
    <HealthTile label={t('health.publishing')} testId="publish-state">
      <Badge color={color}>{t(`publish.${zone.published ? 'published' : zone.publish_state}`)}</Badge>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {t('publish.serial', { serial: zone.serial })}
        {zone.published_serial !== null ? <> · {t('publish.publishedSerial', { serial: zone.published_serial })}</> : null}
      </p>
      {!zone.powerdns_configured ? <p className="text-xs text-slate-600 dark:text-slate-400">{t('publish.notConfigured')}</p> : null}
    </HealthTile>
  )
}

function HealthTile({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-1.5 bg-white p-3 max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-2 max-sm:space-y-0 max-sm:py-2 dark:bg-slate-900" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500 max-sm:w-24">{label}</p>
      {children}
    </div>
  )
}

/**
 * The zone's health in one strip above the records (issue 16): is it published, does PowerDNS
 * still serve what the portal holds (drift), is it signed. The details of a failure or a drift
 * follow the strip; the checks are one click from it.
 */
function ZoneHealth({ zone, canAdmin }: { zone: Zone; canAdmin: boolean }) {
  const { t, i18n } = useTranslation('dns')
  const href = useContextHref()
  const drift = zone.drift
  const count = drift ? drift.missing.length + drift.unexpected.length + drift.different.length : 0
  return (
    <section className="space-y-3" aria-label={t('health.title')} data-testid="zone-health">
      <div className="grid gap-px overflow-hidden rounded-lg border border-slate-200 bg-slate-200 sm:grid-cols-3 dark:border-slate-800 dark:bg-slate-800">
        <PublishState zone={zone} />
        <HealthTile label={t('drift.title')} testId="drift">
          <div className="flex flex-wrap items-center gap-2">
            {!zone.drift_checked_at ? (
              <Badge color="grey">{t('health.driftUnknown')}</Badge>
            ) : count === 0 ? (
              <Badge color="green">{t('health.inSync')}</Badge>
            ) : (
              <Badge color="red">{t('health.differences', { count })}</Badge>
            )}
            {canAdmin && zone.powerdns_configured ? (
              <Form method="post">
                <Button type="submit" name="intent" value="drift" variant="ghost" size="sm" className="h-6 px-2 text-xs">
                  {t('health.compare')}
                </Button>
              </Form>
            ) : null}
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {zone.drift_checked_at ? (
              <>
                {t('health.checked')} <DateText value={zone.drift_checked_at} lng={i18n.language} time />
              </>
            ) : (
              t('drift.never')
            )}
          </p>
        </HealthTile>
        <HealthTile label="DNSSEC" testId="zone-dnssec">
          <StatusBadge kind="dnssec" code={zone.dnssec_state} />
          {zone.domain_id && (canAdmin || zone.dnssec_state !== 'unsigned') ? (
            <p className="text-xs">
              <Link to={href(`/domains/${zone.domain_id}/dnssec`)} className="text-blue-700 hover:underline dark:text-blue-300">
                {t(zone.dnssec_state === 'unsigned' ? 'health.signIt' : 'health.keys')}
              </Link>
            </p>
          ) : null}
        </HealthTile>
      </div>
      {zone.publish_state === 'failed' && zone.last_error ? (
        <Alert variant="error" data-testid="publish-error">
          {t('publish.failedReason')} <span className="font-mono">{zone.last_error}</span>
        </Alert>
      ) : null}
      {count > 0 ? (
        <Alert variant="error" data-testid="drift-details">
          <p>{t('drift.found', { count, when: formatDateTime(zone.drift_checked_at, i18n.language) })}</p>
          <ul className="mt-2 list-disc pl-5 font-mono text-xs">
            {drift!.missing.map((d) => (
              <li key={`m${d.name}${d.type}`}>
                {t('drift.missing')}: {d.name} {d.type} {d.contents.join(' | ')}
              </li>
            ))}
            {drift!.unexpected.map((d) => (
              <li key={`u${d.name}${d.type}`}>
                {t('drift.unexpected')}: {d.name} {d.type} {d.contents.join(' | ')}
              </li>
            ))}
            {drift!.different.map((d) => (
              <li key={`d${d.name}${d.type}`}>
                {t('drift.different')}: {d.name} {d.type} {d.ours.contents.join(' | ')} ≠ {d.powerdns.contents.join(' | ')}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </section>
  )
}

/**
 * A zone for a name hosted elsewhere waits for its proof of control (issue 26): the TXT record to
 * add where the name is hosted now, and the check that makes the zone live and published.
 */
function ZoneProof({ zone, canAdmin }: { zone: Zone; canAdmin: boolean }) {
  const { t } = useTranslation('domains')
  return (
    <Alert variant="info" data-testid="zone-proof" className="space-y-2">
      <p className="font-semibold">{t('zoneProof.title')}</p>
      <p>{t('zoneProof.help', { name: zone.name })}</p>
      {zone.proof ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 font-mono text-xs">
          <dt className="font-sans font-medium">{t('zoneProof.record')}</dt>
          <dd className="break-all" data-testid="zone-proof-name">
            {zone.proof.name}. TXT
          </dd>
          <dt className="font-sans font-medium">{t('zoneProof.value')}</dt>
          <dd className="break-all" data-testid="zone-proof-value">
            {zone.proof.value}
          </dd>
        </dl>
      ) : null}
      {canAdmin ? (
        <Form method="post">
          <Button type="submit" name="intent" value="verify" size="sm">
            {t('zoneProof.check')}
          </Button>
        </Form>
      ) : null}
    </Alert>
  )
}

/** A saved record as the editor's row: its id and the values it was shown with (`orig`: only what is changed is sent). */
const rowOf = (r: Record<string, unknown>, zone: string) => {
  const values = { name: relativeName(String(r.name), zone), type: String(r.type), ttl: String(r.ttl), content: String(r.content) }
  return { id: String(r.id), orig: origOf(values), ...values }
}
type SavedRow = ReturnType<typeof rowOf>
/** What a new row starts with. */
const NEW_ROW = { type: 'A' }

const diffLine = (r: RecordValue) => `${r.name} ${r.ttl} ${r.type} ${r.content}`

function DiffPreview({ diff }: { diff: ChangeDiff }) {
  const { t } = useTranslation('dns')
  return (
    <section className="space-y-2 rounded-lg border border-blue-200 bg-blue-50/50 p-3 dark:border-blue-900 dark:bg-blue-950/20" aria-labelledby="diff-title" data-testid="diff-preview">
      <h3 id="diff-title" className="text-sm font-semibold">
        {t('editor.previewTitle')}
      </h3>
      <ul className="space-y-1 font-mono text-xs">
        {diff.added.map((r, i) => (
          <li key={`a${i}`} className="text-green-800 dark:text-green-300">
            + {diffLine(r)}
          </li>
        ))}
        {diff.updated.map((u) => (
          <li key={u.id}>
            <span className="block text-red-800 dark:text-red-300">- {diffLine(u.before)}</span>
            <span className="block text-green-800 dark:text-green-300">+ {diffLine(u.after)}</span>
          </li>
        ))}
        {diff.removed.map((r) => (
          <li key={r.id} className="text-red-800 dark:text-red-300">
            - {diffLine(r)}
          </li>
        ))}
      </ul>
      <p className="text-sm">{t('editor.previewCounts', { added: diff.added.length, updated: diff.updated.length, removed: diff.removed.length })}</p>
    </section>
  )
}

// A saved record's fields are boxes a person sees as editable (issue 28: borderless text was not
// taken for a form): a light box that darkens under the pointer and takes the text cursor, quieter
// than a new row's (no shadow) so the table still reads as the zone's records.
const inPlace =
  'cursor-text sm:border-slate-200 sm:bg-slate-50/60 sm:shadow-none sm:hover:border-slate-400 sm:hover:bg-white sm:focus-visible:bg-white sm:dark:border-slate-800 sm:dark:bg-slate-900/40 sm:dark:hover:border-slate-600 sm:dark:hover:bg-slate-900'

/**
 * The records of the zone are the editor (issue 16): each saved record is a row whose fields are
 * edited in place, a row is removed with its box, new rows add records, and one Preview/Apply
 * sends the whole change set to the platform (server/platform/dns changes endpoint), which keeps
 * one TTL per RRset (RFC 2181 §5.2). The filter, count and pages are the list's (dns-zone-records).
 * The form is conform's (decision 019): the rows are the field list `records`, "Add a row" and a
 * new row's remove are its insert and remove intents — done in the page with JavaScript, posted
 * and answered with the rows as typed without it.
 */
function RecordsEditor({ zone, page, rows: savedRows, actionData }: { zone: Zone; page: ListPage; rows: SavedRow[]; actionData: ActionData | undefined }) {
  const soa = page.rows.filter((r) => r.type === 'SOA')
  const { t } = useTranslation('dns')
  const { t: tc } = useTranslation('common')
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const schema = useMemo(() => editorSchema(t), [t])
  // One blank row to start with; after a refusal or a preview the rows are the ones posted, exactly as typed.
  const [form, fields] = useZodForm(schema, { id: 'record-editor', lastResult: actionData?.result, defaultValue: { records: [...savedRows, NEW_ROW] } })
  const rows = fields.records.getFieldList()
  const formErrors = [...(form.errors ?? []), ...(fields.records.errors ?? [])]
  const def = dnsZoneRecordsList
  const hasFilterErrors = page.errors.length > 0
  return (
    <section className="space-y-3" aria-labelledby="records-title">
      <div className="space-y-1">
        <h2 id="records-title" className="text-lg font-semibold">
          {t('zone.records')}
        </h2>
        <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('editor.help', { zone: zone.name })}</p>
      </div>
      <FilterBar columns={def.columns} query={page.query} errors={page.errors} labels={(key) => t(`fields.${key}`, { defaultValue: key })}>
        <p data-testid="list-total" className="text-xs tabular-nums text-slate-600 dark:text-slate-400">
          {hasFilterErrors ? tc('list.fixFilter') : tc('list.results', { count: page.meta.total })}
        </p>
      </FilterBar>
      <Form method="post" {...getFormProps(form)} data-testid="record-editor" className="relative space-y-3">
        {/* The button Enter presses is the form's first: Preview, not a new row's remove. Unseen, out of
            the tab order, and lying by the Preview button rather than over the rows. */}
        <button type="submit" name="intent" value="preview" className="absolute bottom-0 left-0 size-px overflow-hidden opacity-0" tabIndex={-1} aria-hidden="true" />
        {/* On a phone each row is a small grid (name, type, TTL, remove; the content below them at full
            width) so that no column is pushed out of sight; a table from 640 px. */}
        <div className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800">
          <Table className="max-sm:block" data-testid="records-table">
            <TableHeader className="max-sm:hidden">
              <TableRow>
                <TableHead className="w-1/5">{t('fields.name')}</TableHead>
                <TableHead className="w-32">{t('fields.type')}</TableHead>
                <TableHead className="w-28">{t('fields.ttl')}</TableHead>
                <TableHead>{t('fields.content')}</TableHead>
                <TableHead className="w-12">
                  <span className="sr-only">{t('editor.remove')}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className="max-sm:block">
              {/* The SOA is the portal's to keep (serial, timers): shown, not edited. */}
              {soa.map((r) => (
                <TableRow
                  key={String(r.id)}
                  data-testid="soa-row"
                  className="text-slate-600 max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_6.5rem_4.5rem_4.25rem] max-sm:gap-x-2 max-sm:px-3 max-sm:py-2 dark:text-slate-400"
                >
                  <TableCell className="max-sm:p-0 sm:pl-5">{relativeName(String(r.name), zone.name)}</TableCell>
                  <TableCell className="max-sm:p-0 sm:pl-4">SOA</TableCell>
                  <TableCell className="tabular-nums max-sm:p-0 sm:pl-4">{String(r.ttl)}</TableCell>
                  <TableCell className="break-all font-mono text-xs max-sm:order-last max-sm:col-span-4 max-sm:p-0 sm:pl-4">{String(r.content)}</TableCell>
                  <TableCell className="text-xs max-sm:p-0 sm:pr-3">{t('editor.managed')}</TableCell>
                </TableRow>
              ))}
              {rows.map((row, i) => {
                const f = row.getFieldset()
                const saved = Boolean(f.id.initialValue)
                const look = saved ? inPlace : undefined
                const type = f.type.initialValue ?? 'A'
                const { key: nameKey, ...name } = getInputProps(f.name, { type: 'text' })
                const { key: ttlKey, ...ttl } = getInputProps(f.ttl, { type: 'text' })
                const { key: contentKey, ...content } = getInputProps(f.content, { type: 'text' })
                const { key: typeKey, ...typeProps } = getSelectProps(f.type)
                return (
                  <TableRow
                    key={row.key}
                    data-testid="editor-row"
                    data-saved={saved ? '' : undefined}
                    className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_6.5rem_4.5rem_4.25rem] max-sm:gap-x-2 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2 has-[input:checked]:bg-red-50 dark:has-[input:checked]:bg-red-950/30 [&:has(input:checked)_:is(input,select):not([type=checkbox])]:line-through [&:has(input:checked)_:is(input,select):not([type=checkbox])]:opacity-60"
                  >
                    <TableCell className="align-top max-sm:p-0 sm:py-1.5 sm:pl-2 sm:pr-1">
                      {saved ? <input {...getInputProps(f.id, { type: 'hidden' })} key={f.id.key} /> : null}
                      {saved ? <input {...getInputProps(f.orig, { type: 'hidden' })} key={f.orig.key} /> : null}
                      <Input key={nameKey} {...name} aria-label={`${t('fields.name')} ${i + 1}`} placeholder="@" className={cn('min-w-24 max-sm:min-w-0', look)} />
                      <ErrorList id={f.name.errorId} errors={f.name.errors} />
                      <ErrorList id={row.errorId} errors={row.errors} />
                    </TableCell>
                    <TableCell className="align-top max-sm:p-0 sm:px-1 sm:py-1.5">
                      {/* Wide enough for the longest type (NAPTR, HTTPS) beside the arrow, at any width of the page;
                          Chromium draws its own arrow inside the box, so no extra right padding for one. */}
                      <Select key={typeKey} {...typeProps} aria-label={`${t('fields.type')} ${i + 1}`} className={cn('w-28 min-w-28 pr-2 max-sm:w-full max-sm:min-w-0', look)}>
                        {(RECORD_TYPES as readonly string[]).includes(type) ? null : <option value={type}>{type}</option>}
                        {RECORD_TYPES.map((option) => (
                          <option key={option} value={option}>
                            {option}
                          </option>
                        ))}
                      </Select>
                      <ErrorList id={f.type.errorId} errors={f.type.errors} />
                    </TableCell>
                    <TableCell className="align-top max-sm:p-0 sm:px-1 sm:py-1.5">
                      <Input key={ttlKey} {...ttl} inputMode="numeric" placeholder="3600" aria-label={`${t('fields.ttl')} ${i + 1}`} className={cn('w-24 tabular-nums max-sm:w-full', look)} />
                      <ErrorList id={f.ttl.errorId} errors={f.ttl.errors} />
                    </TableCell>
                    <TableCell className="w-full align-top max-sm:order-last max-sm:col-span-4 max-sm:p-0 sm:px-1 sm:py-1.5">
                      <Input
                        key={contentKey}
                        {...content}
                        aria-label={`${t('fields.content')} ${i + 1}`}
                        placeholder={saved ? undefined : t('editor.newContent')}
                        className={cn('font-mono text-xs', look)}
                      />
                      <ErrorList id={f.content.errorId} errors={f.content.errors} />
                    </TableCell>
                    <TableCell className="align-top max-sm:flex max-sm:items-center max-sm:p-0 sm:py-1.5 sm:pl-1 sm:pr-2">
                      {saved ? (
                        <label
                          className="flex h-9 cursor-pointer items-center gap-1.5 rounded-md px-1.5 text-xs text-slate-500 hover:text-red-700 has-[input:checked]:text-red-700 dark:hover:text-red-400 dark:has-[input:checked]:text-red-400"
                          title={t('editor.remove')}
                        >
                          <input {...getInputProps(f.remove, { type: 'checkbox' })} key={f.remove.key} aria-label={`${t('editor.remove')} ${i + 1}`} className="accent-red-600" />
                          <Trash2 className="size-3.5 max-sm:hidden" aria-hidden />
                          {/* The column's heading is hidden on a phone: the word goes beside the box there. */}
                          <span className="sm:hidden" aria-hidden="true">
                            {t('editor.remove')}
                          </span>
                        </label>
                      ) : (
                        // A new row is taken away, not marked: nothing of it was saved.
                        <Button
                          {...form.remove.getButtonProps({ name: fields.records.name, index: i })}
                          variant="ghost"
                          size="sm"
                          className="h-9 px-1.5 text-slate-400 hover:text-red-700 dark:hover:text-red-400"
                          aria-label={`${t('editor.removeRow')} ${i + 1}`}
                          title={t('editor.removeRow')}
                        >
                          <X className="size-3.5" aria-hidden />
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                )
              })}
            </TableBody>
          </Table>
        </div>
        {formErrors.length ? (
          <Alert variant="error" id={form.errorId} data-testid="editor-error">
            <ul>
              {formErrors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {actionData?.diff ? <DiffPreview diff={actionData.diff} /> : null}
        {/* Preview comes before Add a row in the form; Add a row sits first on the screen. */}
        <div className="flex flex-wrap items-center gap-2">
          <div className="order-2 ml-auto flex gap-2">
            <Button type="submit" name="intent" value="preview" variant="outline" size="sm" disabled={busy}>
              {t('editor.preview')}
            </Button>
            <Button type="submit" name="intent" value="apply" size="sm" disabled={busy}>
              {t('editor.apply')}
            </Button>
          </div>
          <Button {...form.insert.getButtonProps({ name: fields.records.name, defaultValue: NEW_ROW })} variant="ghost" size="sm" className="order-1">
            <Plus className="size-3.5" aria-hidden /> {t('editor.addRow')}
          </Button>
          {page.meta.total > page.meta.limit ? (
            <div className="order-4 w-full text-xs">
              <ListPager id={def.id} page={page} />
            </div>
          ) : null}
        </div>
      </Form>
    </section>
  )
}

export default function ZoneScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('dns')
  const { t: tc } = useTranslation('common')
  const href = useContextHref()
  const frame = useRouteLoaderData('domain-frame') as { domain?: { name?: string } } | undefined
  const { zone, page, canAdmin, exportPath, standalone } = loaderData
  if (!zone || !page) {
    return (
      <section className="space-y-3" data-testid="no-zone">
        <h2 className="text-lg font-semibold">{t('zone.noneTitle')}</h2>
        <p className="text-sm">{t('zone.noneText', { name: frame?.domain?.name ?? '' })}</p>
        {canAdmin ? (
          <Form method="post">
            <Button type="submit" name="intent" value="create-zone">
              {t('zone.create')}
            </Button>
          </Form>
        ) : (
          <p className="text-sm text-slate-600">{t('zone.needsAdmin')}</p>
        )}
      </section>
    )
  }
  const def = dnsZoneRecordsList
  const editable = page.rows.filter((r) => r.type !== 'SOA').map((r) => rowOf(r, zone.name))
  const actions = (
    <>
      {canAdmin ? (
        <Button asChild variant="outline" size="sm" className="bg-white shadow-sm dark:bg-slate-900">
          <Link to={href(`/domains/bind-import?zone=${zone.id}`)}>
            <Upload className="size-3.5" aria-hidden /> {t('zone.import')}
          </Link>
        </Button>
      ) : null}
      <Button asChild variant="outline" size="sm" className="bg-white shadow-sm dark:bg-slate-900">
        <a href={href(exportPath)} download>
          <Download className="size-3.5" aria-hidden /> {t('zone.export')}
        </a>
      </Button>
    </>
  )
  const title = <span data-testid="zone-name">{t('zone.title', { name: zone.name })}</span>
  return (
    <div className="space-y-6">
      {standalone ? (
        // A zone for a name registered elsewhere has no domain frame: the page's own header.
        <PageHeader
          breadcrumb={[
            { label: tc('nav.domains'), to: '/domains' },
            { label: t('import.title'), to: '/domains/bind-import' },
          ]}
          title={title}
          actions={actions}
        />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{title}</h2>
          <div className="flex flex-wrap gap-2">{actions}</div>
        </div>
      )}
      {zone.verified ? null : <ZoneProof zone={zone} canAdmin={canAdmin} />}
      <ZoneHealth zone={zone} canAdmin={canAdmin} />
      {canAdmin ? (
        // The form starts again from the records shown when they change (a saved change, another page), so new rows start blank again.
        <RecordsEditor key={`v${zone.version}-${zone.serial}-${editable.map((r) => r.id).join(',')}`} zone={zone} page={page} rows={editable} actionData={actionData as ActionData | undefined} />
      ) : (
        <section className="space-y-2" aria-labelledby="records-title">
          <h2 id="records-title" className="text-lg font-semibold">
            {t('zone.records')}
          </h2>
          <DataTable
            def={def}
            page={page}
            labels={(key) => t(`fields.${key}`, { defaultValue: key })}
            rowLabel={def.rowLabel}
            renderCell={(row, key) => (key === 'content' ? <span className="break-all font-mono text-xs">{String(row.content)}</span> : String(row[key] ?? ''))}
          />
        </section>
      )}
      {canAdmin ? <DeleteZone zone={zone} /> : null}
    </div>
  )
}

/** Deleting the zone: refused by the platform while DNSSEC is on; the name is typed to confirm. */
function DeleteZone({ zone }: { zone: Zone }) {
  const { t } = useTranslation('dns')
  return (
    <section className="space-y-2 rounded border border-red-200 p-4 dark:border-red-900" aria-labelledby="delete-zone-title" data-testid="delete-zone">
      <h2 id="delete-zone-title" className="text-lg font-semibold">
        {t('zone.deleteTitle')}
      </h2>
      <p className="text-sm">{t(zone.dnssec_state === 'unsigned' ? 'zone.deleteText' : 'zone.deleteSigned', { name: zone.name })}</p>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <label className="space-y-1 text-sm">
          <span className="block">{t('zone.deleteConfirm', { name: zone.name })}</span>
          <Input name="confirm" autoComplete="off" required className="w-72" />
        </label>
        <Button type="submit" name="intent" value="delete-zone" variant="destructive" disabled={zone.dnssec_state !== 'unsigned'}>
          {t('zone.deleteButton')}
        </Button>
      </Form>
    </section>
  )
}

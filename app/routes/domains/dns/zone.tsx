import { useState } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, useNavigation, useRouteLoaderData } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { ErrorList } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useHydrated } from '#app/lib/use-hydrated.ts'
import type { Route } from './+types/zone.ts'
import { errorsOnRows, origOf, readRows, toChanges, type EditorRow, type RowErrors } from './editor.ts'
import { refusalOf, refusalText, refusalTextOf } from '#app/lib/refusal.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { dnsScreen, screenZone } from './shared.server.ts'
import { RECORD_TYPES, relativeName, type ChangeDiff, type RecordValue, type Zone } from './types.ts'

const zoneRecordsList = (zoneId: string): ListDefinition => ({ ...LISTS['dns-zone-records']!, fixedFilters: [{ field: 'zone_id', operator: 'equals', values: [zoneId] }] })

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

type ActionData = { intent: 'preview' | 'apply'; rows: EditorRow[]; errors: RowErrors; diff: ChangeDiff | null; message: string | null; submission: number }

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
      const zone = await screen.platform.post<Zone>(`${screen.base}/zones`, { domain_id: params.id })
      return backWith(request, here, { content: t('zone.created', { name: zone.name }), color: 'success' })
    } catch (error) {
      return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  const { zone, here } = await screenZone(screen, params)
  if (!zone) return backWith(request, here, { content: t('zone.none'), color: 'error' })
  if (intent === 'drift') {
    await screen.platform.get(`${screen.base}/zones/${zone.id}/drift`)
    return backWith(request, here, { content: t('drift.checked'), color: 'info' })
  }
  if (intent === 'delete-zone') {
    // The zone's name typed again: a deletion is never one stray click.
    if (String(form.get('confirm') ?? '').trim().toLowerCase() !== zone.name) return backWith(request, here, { content: t('zone.deleteMismatch', { name: zone.name }), color: 'error' })
    try {
      await screen.platform.delete(`${screen.base}/zones/${zone.id}`)
      // A standalone zone's page is gone with it: back to where such zones are made and listed.
      return backWith(request, zone.domain_id ? here : '/domains/bind-import', { content: t('zone.deleted', { name: zone.name }), color: 'success' })
    } catch (error) {
      return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
    }
  }
  if (intent !== 'preview' && intent !== 'apply') return backWith(request, here, { content: t('editor.unknownIntent'), color: 'error' })
  const rows = readRows(form)
  const submission = Date.now()
  const { changes, index, errors } = toChanges(rows, { ttlNumber: t('editor.ttlNumber'), contentRequired: t('editor.contentRequired') })
  const answer = (status: number, rest: Partial<ActionData>) => data<ActionData>({ intent, rows, errors: {}, diff: null, message: null, submission, ...rest }, { status })
  if (Object.keys(errors).length) return answer(400, { errors, message: t('editor.fixRows') })
  if (!changes.length) return answer(400, { message: t('editor.nothing') })
  try {
    const result = await screen.platform.post<{ applied: boolean; diff: ChangeDiff; zone: Zone }>(`${screen.base}/zones/${zone.id}/changes`, { dry_run: intent === 'preview', changes })
    if (intent === 'preview') return answer(200, { diff: result.diff })
    return backWith(request, here, { content: t('editor.applied', { count: changes.length, serial: result.zone.serial }), color: 'success' })
  } catch (error) {
    const refused = refusalOf(error)
    // The edit comes back as typed, each message beside its row and field.
    return answer(refused.status, { errors: errorsOnRows(refused.problem.errors ?? [], index), message: refusalText(t, refused.problem, { withFields: false }) })
  }
}

export function PublishState({ zone }: { zone: Zone }) {
  const { t } = useTranslation('dns')
  const color = zone.publish_state === 'published' && zone.published ? 'green' : zone.publish_state === 'failed' ? 'red' : 'amber'
  return (
    <div className="space-y-2" data-testid="publish-state">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Badge color={color}>{t(`publish.${zone.published ? 'published' : zone.publish_state}`)}</Badge>
        <span>{t('publish.serial', { serial: zone.serial })}</span>
        {zone.published_serial !== null ? <span className="text-slate-500">{t('publish.publishedSerial', { serial: zone.published_serial })}</span> : null}
      </div>
      {!zone.powerdns_configured ? <Alert>{t('publish.notConfigured')}</Alert> : null}
      {zone.publish_state === 'failed' && zone.last_error ? (
        <Alert variant="error" data-testid="publish-error">
          {t('publish.failedReason')} <span className="font-mono">{zone.last_error}</span>
        </Alert>
      ) : null}
    </div>
  )
}

function Drift({ zone, canAdmin }: { zone: Zone; canAdmin: boolean }) {
  const { t, i18n } = useTranslation('dns')
  const drift = zone.drift
  const count = drift ? drift.missing.length + drift.unexpected.length + drift.different.length : 0
  return (
    <section className="space-y-2" aria-labelledby="drift-title" data-testid="drift">
      <h2 id="drift-title" className="text-lg font-semibold">{t('drift.title')}</h2>
      {!zone.drift_checked_at ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('drift.never')}</p>
      ) : count === 0 ? (
        <p className="text-sm">{t('drift.none', { when: formatDateTime(zone.drift_checked_at, i18n.language) })}</p>
      ) : (
        <Alert variant="error">
          <p>{t('drift.found', { count, when: formatDateTime(zone.drift_checked_at, i18n.language) })}</p>
          <ul className="mt-2 list-disc pl-5 font-mono text-xs">
            {drift!.missing.map((d) => <li key={`m${d.name}${d.type}`}>{t('drift.missing')}: {d.name} {d.type} {d.contents.join(' | ')}</li>)}
            {drift!.unexpected.map((d) => <li key={`u${d.name}${d.type}`}>{t('drift.unexpected')}: {d.name} {d.type} {d.contents.join(' | ')}</li>)}
            {drift!.different.map((d) => <li key={`d${d.name}${d.type}`}>{t('drift.different')}: {d.name} {d.type} {d.ours.contents.join(' | ')} ≠ {d.powerdns.contents.join(' | ')}</li>)}
          </ul>
        </Alert>
      )}
      {canAdmin && zone.powerdns_configured ? (
        <Form method="post">
          <Button type="submit" name="intent" value="drift" variant="outline" size="sm">{t('drift.check')}</Button>
        </Form>
      ) : null}
    </section>
  )
}

const rowOf = (r: Record<string, unknown>, zone: string): EditorRow => {
  const values = { name: relativeName(String(r.name), zone), type: String(r.type), ttl: String(r.ttl), content: String(r.content) }
  return { key: `r${String(r.id).replace(/-/g, '')}`, id: String(r.id), ...values, remove: false, orig: origOf(values) }
}
const blankRow = (i: number): EditorRow => ({ key: `new-${i}`, id: '', name: '', type: 'A', ttl: '', content: '', remove: false, orig: '' })

const diffLine = (r: RecordValue) => `${r.name} ${r.ttl} ${r.type} ${r.content}`

function DiffPreview({ diff }: { diff: ChangeDiff }) {
  const { t } = useTranslation('dns')
  return (
    <section className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-800" aria-labelledby="diff-title" data-testid="diff-preview">
      <h3 id="diff-title" className="font-semibold">{t('editor.previewTitle')}</h3>
      <ul className="space-y-1 font-mono text-xs">
        {diff.added.map((r, i) => <li key={`a${i}`} className="text-green-800 dark:text-green-300">+ {diffLine(r)}</li>)}
        {diff.updated.map((u) => (
          <li key={u.id}>
            <span className="block text-red-800 dark:text-red-300">- {diffLine(u.before)}</span>
            <span className="block text-green-800 dark:text-green-300">+ {diffLine(u.after)}</span>
          </li>
        ))}
        {diff.removed.map((r) => <li key={r.id} className="text-red-800 dark:text-red-300">- {diffLine(r)}</li>)}
      </ul>
      <p className="text-sm">{t('editor.previewCounts', { added: diff.added.length, updated: diff.updated.length, removed: diff.removed.length })}</p>
    </section>
  )
}

function Editor({ zone, rows: initialRows, actionData }: { zone: Zone; rows: EditorRow[]; actionData: ActionData | undefined }) {
  const { t } = useTranslation('dns')
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  // After a refusal or a preview the rows are the ones posted, exactly as typed.
  const base = actionData?.rows ?? initialRows
  const [extra, setExtra] = useState(0)
  const blanks = Math.max(0, 3 - base.filter((r) => !r.id).length) + extra
  const used = new Set(base.map((r) => r.key))
  const fresh: EditorRow[] = []
  for (let n = 0; fresh.length < blanks; n++) if (!used.has(`new-${n}`)) fresh.push(blankRow(n))
  const rows = [...base, ...fresh]
  const hydrated = useHydrated()
  const errors = actionData?.errors ?? {}
  const formErrors = [...(errors['']?.form ?? []), ...(actionData?.message && !actionData.diff ? [actionData.message] : [])]
  return (
    <section className="space-y-3" aria-labelledby="editor-title">
      <h2 id="editor-title" className="text-lg font-semibold">{t('editor.title')}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('editor.help', { zone: zone.name })}</p>
      <Form method="post" key={actionData?.submission ?? 'initial'} data-testid="record-editor">
        {/* On a phone each row is a small grid (name, type, TTL, remove; the content below them at full
            width) so that no column is pushed out of sight; a table from 600 px. */}
        <Table className="max-sm:block">
          <TableHeader className="max-sm:hidden">
            <TableRow>
              <TableHead>{t('fields.name')}</TableHead>
              <TableHead>{t('fields.type')}</TableHead>
              <TableHead>{t('fields.ttl')}</TableHead>
              <TableHead>{t('fields.content')}</TableHead>
              <TableHead className="whitespace-nowrap">{t('editor.remove')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody className="max-sm:block">
            {rows.map((row, i) => {
              const e = errors[row.key] ?? {}
              const field = (name: string) => ({ name: `${row.key}.${name}`, 'aria-invalid': e[name]?.length ? true : undefined, 'aria-describedby': e[name]?.length ? `${row.key}-${name}-error` : undefined })
              return (
                <TableRow key={row.key} data-testid="editor-row" className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_6.5rem_4.5rem_4.25rem] max-sm:gap-x-2 max-sm:gap-y-1 max-sm:py-2">
                  <TableCell className="align-top max-sm:p-0">
                    <input type="hidden" name="row" value={row.key} />
                    {row.id ? <input type="hidden" name={`${row.key}.id`} value={row.id} /> : null}
                    {row.id ? <input type="hidden" name={`${row.key}.orig`} value={row.orig} /> : null}
                    <Input {...field('name')} defaultValue={row.name} aria-label={`${t('fields.name')} ${i + 1}`} placeholder="@" className="min-w-24 max-sm:min-w-0" />
                    <ErrorList id={`${row.key}-name-error`} errors={e.name} />
                    <ErrorList errors={e.row} />
                  </TableCell>
                  <TableCell className="w-32 align-top max-sm:w-auto max-sm:p-0">
                    {/* Wide enough for the longest type (NAPTR, HTTPS) beside the arrow, at any width of the page;
                        Chromium draws its own arrow inside the box, so no extra right padding for one. */}
                    <Select {...field('type')} defaultValue={row.type} aria-label={`${t('fields.type')} ${i + 1}`} className="w-28 min-w-28 pr-2 max-sm:w-full max-sm:min-w-0">
                      {(RECORD_TYPES as readonly string[]).includes(row.type) ? null : <option value={row.type}>{row.type}</option>}
                      {RECORD_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
                    </Select>
                    <ErrorList id={`${row.key}-type-error`} errors={e.type} />
                  </TableCell>
                  <TableCell className="align-top max-sm:p-0">
                    <Input {...field('ttl')} defaultValue={row.ttl} inputMode="numeric" placeholder="3600" aria-label={`${t('fields.ttl')} ${i + 1}`} className="w-24 max-sm:w-full" />
                    <ErrorList id={`${row.key}-ttl-error`} errors={e.ttl} />
                  </TableCell>
                  <TableCell className="w-full align-top max-sm:order-last max-sm:col-span-4 max-sm:p-0">
                    <Input {...field('content')} defaultValue={row.content} aria-label={`${t('fields.content')} ${i + 1}`} className="font-mono" />
                    <ErrorList id={`${row.key}-content-error`} errors={e.content} />
                  </TableCell>
                  <TableCell className="align-top max-sm:flex max-sm:items-center max-sm:p-0">
                    {row.id ? (
                      <label className="flex h-9 items-center gap-1 text-xs">
                        <input type="checkbox" name={`${row.key}.remove`} defaultChecked={row.remove} aria-label={`${t('editor.remove')} ${i + 1}`} />
                        {/* The column's heading is hidden on a phone: the word goes beside the box there. */}
                        <span className="sm:hidden" aria-hidden="true">{t('editor.remove')}</span>
                      </label>
                    ) : null}
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
        {formErrors.length ? (
          <Alert variant="error" className="mt-2" data-testid="editor-error">
            <ul>{formErrors.map((m) => <li key={m}>{m}</li>)}</ul>
          </Alert>
        ) : null}
        {actionData?.diff ? <div className="mt-3"><DiffPreview diff={actionData.diff} /></div> : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {hydrated ? (
            <Button type="button" variant="ghost" onClick={() => setExtra((n) => n + 1)}>
              {t('editor.addRow')}
            </Button>
          ) : null}
          <Button type="submit" name="intent" value="preview" variant="outline" disabled={busy}>{t('editor.preview')}</Button>
          <Button type="submit" name="intent" value="apply" disabled={busy}>{t('editor.apply')}</Button>
        </div>
      </Form>
    </section>
  )
}

export default function ZoneScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('dns')
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
            <Button type="submit" name="intent" value="create-zone">{t('zone.create')}</Button>
          </Form>
        ) : (
          <p className="text-sm text-slate-600">{t('zone.needsAdmin')}</p>
        )}
      </section>
    )
  }
  const def = LISTS['dns-zone-records']!
  const editable = page.rows.filter((r) => r.type !== 'SOA').map((r) => rowOf(r, zone.name))
  // A standalone zone has no domain frame around it: the page carries its own heading.
  const Title = standalone ? 'h1' : 'h2'
  return (
    <div className="space-y-6">
      {standalone ? <Link to={href('/domains/bind-import')} className="text-sm underline">{t('import.title')}</Link> : null}
      <section className="space-y-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Title className={standalone ? 'text-2xl font-semibold' : 'text-lg font-semibold'} data-testid="zone-name">{t('zone.title', { name: zone.name })}</Title>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline" size="sm"><a href={href(exportPath)} download>{t('zone.export')}</a></Button>
            {canAdmin ? <Button asChild variant="outline" size="sm"><Link to={href(`/domains/bind-import?zone=${zone.id}`)}>{t('zone.import')}</Link></Button> : null}
          </div>
        </div>
        <PublishState zone={zone} />
      </section>
      <section className="space-y-2" aria-labelledby="records-title">
        <h2 id="records-title" className="text-lg font-semibold">{t('zone.records')}</h2>
        <DataTable
          def={def}
          page={page}
          labels={(key) => t(`fields.${key}`, { defaultValue: key })}
          rowLabel={def.rowLabel}
          renderCell={(row, key) => (key === 'content' ? <span className="break-all font-mono text-xs">{String(row.content)}</span> : String(row[key] ?? ''))}
        />
      </section>
      {canAdmin ? <Editor zone={zone} rows={editable} actionData={actionData as ActionData | undefined} /> : null}
      <Drift zone={zone} canAdmin={canAdmin} />
      {canAdmin ? <DeleteZone zone={zone} /> : null}
    </div>
  )
}

/** Deleting the zone: refused by the platform while DNSSEC is on; the name is typed to confirm. */
function DeleteZone({ zone }: { zone: Zone }) {
  const { t } = useTranslation('dns')
  return (
    <section className="space-y-2 rounded border border-red-200 p-4 dark:border-red-900" aria-labelledby="delete-zone-title" data-testid="delete-zone">
      <h2 id="delete-zone-title" className="text-lg font-semibold">{t('zone.deleteTitle')}</h2>
      <p className="text-sm">{t(zone.dnssec_state === 'unsigned' ? 'zone.deleteText' : 'zone.deleteSigned', { name: zone.name })}</p>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <label className="space-y-1 text-sm">
          <span className="block">{t('zone.deleteConfirm', { name: zone.name })}</span>
          <Input name="confirm" autoComplete="off" required className="w-72" />
        </label>
        <Button type="submit" name="intent" value="delete-zone" variant="destructive" disabled={zone.dnssec_state !== 'unsigned'}>{t('zone.deleteButton')}</Button>
      </Form>
    </section>
  )
}

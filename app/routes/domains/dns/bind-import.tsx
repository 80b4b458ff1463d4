import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { ErrorList, Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, Link, useNavigation } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { PlatformError } from '#app/lib/platform.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { ZONE_FILE_MAX_BYTES, ZONE_FILE_MAX_LABEL, ZONE_FILE_MEDIA_TYPE } from '#common/zone-file.ts'
import type { Route } from './+types/bind-import.ts'
import { refusalOf, refusalText, refusalTextOf } from '#app/lib/refusal.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { dnsScreen, type DnsScreen } from './shared.server.ts'
import type { ImportResult, RecordValue, ZoneIssue } from './types.ts'
import { declaredZone, matchZone } from './zone-of-file.ts'

type ZoneRef = Awaited<ReturnType<typeof zonesOf>>[number]
/** One file's preview or result; `missing` is the zone a file names that the account does not have. */
type Outcome = { label: string; zone: string | null; result: ImportResult | null; error: string | null; missing?: string }

const MAX_FILES = 20

async function zonesOf(screen: DnsScreen) {
  return (await screen.platform.get('/groups/{context}/zones', { path: { context: screen.groupContext }, query: { fields: 'id,name,domain_id,verified', sort: 'name', limit: 1000 } })).data
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  return { zones: await zonesOf(screen), selected: screen.url.searchParams.get('zone') ?? '', canAdmin: screen.canAdmin, meta: pageMeta(request, context, t('import.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** The zone a file names by its file name (example.com.zone, db.example.com), when it says nothing itself. */
function zoneForFileName(name: string, zones: ZoneRef[]): ZoneRef | undefined {
  const fromName = name
    .toLowerCase()
    .replace(/^db\./, '')
    .replace(/\.(zone|db|txt|bind)$/, '')
    .replace(/\.$/, '')
  return zones.find((z) => z.name === fromName)
}

/**
 * The import form: the zone the pasted text goes to, the text, the files (each to the zone it names,
 * see the action), Preview or Import. Something to import, and at most ZONE_FILE_MAX_BYTES in all,
 * are checked before anything is sent (in the page, and again by the action).
 */
const importSchema = (t: TFunction) =>
  z
    .object({
      intent: z.enum(['preview', 'apply']).default('preview'),
      zone: z.string().optional(),
      text: z.string().optional(),
      files: z.array(z.instanceof(File)).max(MAX_FILES).optional(),
    })
    .superRefine((value, ctx) => {
      const files = (value.files ?? []).filter((f) => f.size > 0)
      if (!value.text?.trim() && !files.length) ctx.addIssue({ code: 'custom', message: t('import.nothing'), path: [] })
      const bytes = new TextEncoder().encode(value.text ?? '').length + files.reduce((n, f) => n + f.size, 0)
      if (bytes > ZONE_FILE_MAX_BYTES) ctx.addIssue({ code: 'custom', message: t('import.tooLarge', { size: ZONE_FILE_MAX_LABEL }), path: ['files'] })
    })

/** A zone for a name registered elsewhere: its name. */
const createZoneSchema = (t: TFunction) => z.object({ name: formRules(t).requiredText(253) })

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const form = await request.formData()
  if (!screen.canAdmin) {
    // The page offers a viewer no import; a post made anyway is answered on the page, never as a problem document.
    return data({ intent: 'preview' as const, text: '', zone: '', outcomes: [] as Outcome[], message: t('import.needsAdmin') }, { status: 403 })
  }
  if (form.get('intent') === 'create-zone') {
    // A zone for a name registered elsewhere: it starts with the managed SOA and our name servers.
    const submission = parseWithZod(form, { schema: createZoneSchema(t) })
    const refuse = (status: number, create: SubmissionResult<string[]>) => data({ intent: 'create-zone' as const, text: '', zone: '', outcomes: [] as Outcome[], message: null, create }, { status })
    if (submission.status !== 'success') return refuse(400, submission.reply())
    try {
      const zone = await screen.platform.post('/groups/{context}/zones', { path: { context: screen.groupContext }, body: submission.value })
      // A name hosted elsewhere waits for its proof of control (issue 26): said, and its page (linked in the list below) names the record to add.
      const said = zone.verified ? t('zone.created', { name: zone.name }) : getInstance(context).getFixedT(null, 'domains')('zoneProof.created', { name: zone.name })
      return backWith(request, `/domains/bind-import?zone=${zone.id}`, { content: said, color: zone.verified ? 'success' : 'info' })
    } catch (error) {
      // The name comes back as typed, the refusal beside it.
      const refused = refusalOf(error)
      return refuse(refused.status, submission.reply({ fieldErrors: { name: [refusalText(t, refused.problem, { withFields: false })] } }))
    }
  }
  const submission = parseWithZod(form, { schema: importSchema(t) })
  if (submission.status !== 'success') return data({ intent: 'preview' as const, text: '', zone: '', outcomes: [] as Outcome[], message: null, result: submission.reply() }, { status: 400 })
  // Each answer brings the form back as it was posted (the pasted text, the zone chosen).
  const result = submission.reply()
  const { intent, zone: zoneId = '', text = '' } = submission.value
  const zones = await zonesOf(screen)
  // Pasted text goes as JSON; a file as itself (text/dns), streamed to the API's parser.
  // A file goes to the zone its SOA or $ORIGIN names — never to another zone; one that names a zone
  // the account does not have is refused with an offer to create it, and then nothing is imported.
  const sources: { label: string; zone: ZoneRef | undefined; body: string | File; missing?: string; mismatch?: string }[] = []
  if (text.trim()) {
    const chosen = zones.find((z) => z.id === zoneId)
    const named = matchZone(declaredZone(text.slice(0, 65_536)), zones)
    if (named.missing) sources.push({ label: t('import.pasted'), zone: undefined, body: text, missing: named.missing })
    else if (named.zone && chosen && named.zone.id !== chosen.id) sources.push({ label: t('import.pasted'), zone: undefined, body: text, mismatch: named.zone.name })
    else sources.push({ label: t('import.pasted'), zone: chosen, body: text })
  }
  for (const file of submission.value.files ?? []) {
    if (!file.size) continue
    const named = matchZone(declaredZone(await file.slice(0, 65_536).text()), zones)
    if (named.missing) sources.push({ label: file.name, zone: undefined, body: file, missing: named.missing })
    else sources.push({ label: file.name, zone: named.zone ?? zoneForFileName(file.name, zones) ?? (text.trim() ? undefined : zones.find((z) => z.id === zoneId)), body: file })
  }

  const run = async (dryRun: boolean): Promise<Outcome[]> => {
    const out: Outcome[] = []
    for (const s of sources) {
      if (s.missing) {
        out.push({ label: s.label, zone: null, result: null, error: t('import.noSuchZone', { name: s.missing }), missing: s.missing })
        continue
      }
      if (s.mismatch) {
        out.push({ label: s.label, zone: null, result: null, error: t('import.otherZone', { name: s.mismatch }) })
        continue
      }
      if (!s.zone) {
        out.push({ label: s.label, zone: null, result: null, error: t('import.noZone') })
        continue
      }
      try {
        const result =
          typeof s.body === 'string'
            ? await screen.platform.post('/groups/{context}/zones/{zone}/bind-import', { path: { context: screen.groupContext, zone: s.zone.id }, body: { text: s.body, dry_run: dryRun } })
            : await screen.platform.post('/groups/{context}/zones/{zone}/bind-import', {
                path: { context: screen.groupContext, zone: s.zone.id },
                body: s.body,
                headers: { 'content-type': ZONE_FILE_MEDIA_TYPE },
                query: { dry_run: dryRun ? 'true' : 'false' },
              })
        out.push({ label: s.label, zone: s.zone.name, result, error: null })
      } catch (error) {
        const body = error instanceof PlatformError ? (error.data as ImportResult | null) : null
        if (body && Array.isArray(body.errors) && body.counts) out.push({ label: s.label, zone: s.zone.name, result: body, error: null })
        else out.push({ label: s.label, zone: s.zone.name, result: null, error: refusalTextOf(t, error) })
      }
    }
    return out
  }
  // Every file is checked first: one bad file means no file is applied.
  const preview = await run(true)
  const failed = preview.some((o) => o.error || o.result?.errors.length)
  if (intent === 'preview' || failed) return data({ intent, text, zone: zoneId, outcomes: preview, message: failed ? t('import.hasErrors') : null, result }, { status: failed ? 400 : 200 })
  const applied = await run(false)
  const bad = applied.filter((o) => o.error || !o.result?.applied)
  if (bad.length) return data({ intent, text, zone: zoneId, outcomes: applied, message: t('import.partly'), result }, { status: 409 })
  const total = applied.reduce((n, o) => n + (o.result ? o.result.counts.added + o.result.counts.changed + o.result.counts.removed : 0), 0)
  return backWith(request, `/domains/bind-import${zoneId ? `?zone=${zoneId}` : ''}`, { content: t('import.applied', { files: applied.length, count: total }), color: 'success' })
}

const line = (r: RecordValue) => `${r.name} ${r.ttl} ${r.type} ${r.content}`

/** An error or warning of a line in the user's language (by its code), else as the API said it. */
function useIssueText() {
  const { t } = useTranslation('dns')
  return (issue: ZoneIssue) => (issue.code ? t(`import.issues.${issue.code}`, { ...issue.params, defaultValue: issue.message }) : issue.message)
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('dns')
  const issueText = useIssueText()
  const r = outcome.result
  return (
    <section className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-800" data-testid="import-outcome">
      <h3 className="break-all font-semibold">
        {outcome.label}
        {outcome.zone ? ` → ${outcome.zone}` : ''}
      </h3>
      {outcome.error ? <Alert variant="error">{outcome.error}</Alert> : null}
      {outcome.missing ? (
        <Form method="post" data-testid="create-missing-zone">
          <input type="hidden" name="name" value={outcome.missing} />
          <Button type="submit" name="intent" value="create-zone" variant="outline" size="sm">
            {t('import.createMissing', { name: outcome.missing })}
          </Button>
        </Form>
      ) : null}
      {r ? (
        <>
          {r.errors.length ? (
            <Alert variant="error" data-testid="import-errors">
              <p>{t('import.errorsTitle', { count: r.errors.length })}</p>
              <ul className="mt-1 list-disc pl-5">
                {r.errors.map((e, i) => (
                  <li key={i} data-testid="import-error">
                    {t('import.errorAt', { line: e.line, column: e.column, message: issueText(e) })}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          {r.warnings?.length ? (
            <Alert className="border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="import-warnings">
              <p>{t('import.warningsTitle', { count: r.warnings.length })}</p>
              <ul className="mt-1 list-disc pl-5">
                {r.warnings.map((w, i) => (
                  <li key={i} data-testid="import-warning">
                    {t('import.warningAt', { line: w.line, message: issueText(w) })}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <p className="text-sm" data-testid="import-counts">
            {t('import.counts', r.counts)}
          </p>
          {r.notes.map((n) => (
            <p key={n} className="text-sm text-slate-600 dark:text-slate-400">
              {n}
            </p>
          ))}
          <ul className="max-h-80 overflow-auto break-all font-mono text-xs">
            {r.added.map((x, i) => (
              <li key={`a${i}`} className="text-green-800 dark:text-green-300">
                + {line(x)}
              </li>
            ))}
            {r.changed.map((x, i) => (
              <li key={`c${i}`} className="text-amber-800 dark:text-amber-300">
                ~ {line(x.before)} → {x.after.ttl}
              </li>
            ))}
            {r.removed.map((x, i) => (
              <li key={`r${i}`} className="text-red-800 dark:text-red-300">
                - {line(x)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}

export default function BindImport({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('dns')
  const busy = useNavigation().state !== 'idle'
  const { zones, selected, canAdmin } = loaderData
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('import.title')}</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('import.help')}</p>
      {!canAdmin ? (
        // A viewer is offered no import at all (nothing to preview either): the platform would refuse it.
        <Alert data-testid="import-needs-admin">{t('import.needsAdmin')}</Alert>
      ) : zones.length === 0 ? (
        <Alert>{t('import.noZones')}</Alert>
      ) : (
        <ImportForm zones={zones} selected={selected} busy={busy} message={actionData?.message ?? null} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
      )}
      {!canAdmin && actionData?.message ? (
        <Alert variant="error" data-testid="import-message">
          {actionData.message}
        </Alert>
      ) : null}
      {actionData?.outcomes.map((o, i) => (
        <OutcomeView key={i} outcome={o} />
      ))}
      <StandaloneZones zones={zones.filter((z) => !z.domain_id)} canAdmin={canAdmin} />
      {canAdmin ? <CreateZone key={selected} lastResult={actionData && 'create' in actionData ? (actionData.create as SubmissionResult<string[]>) : undefined} /> : null}
    </div>
  )
}

function ImportForm({ zones, selected, busy, message, lastResult }: { zones: ZoneRef[]; selected: string; busy: boolean; message: string | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('dns')
  const [form, fields] = useZodForm(importSchema(t), { id: 'import', lastResult })
  return (
    <Form method="post" encType="multipart/form-data" className="space-y-3" data-testid="bind-import-form" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.zone.id}>{t('import.zone')}</Label>
        {/* Keyed: a zone created on this page comes back selected (an uncontrolled select keeps its first value). */}
        <Select {...getSelectProps(fields.zone)} key={selected} defaultValue={(lastResult?.initialValue?.zone as string | undefined) || selected}>
          {zones.map((z) => (
            <option key={z.id} value={z.id}>
              {z.name}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.text.id}>{t('import.text')}</Label>
        <textarea {...getTextareaProps(fields.text)} rows={12} className="rounded-md border border-slate-300 bg-transparent p-2 font-mono text-xs dark:border-slate-700" spellCheck={false} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={fields.files.id}>{t('import.files')}</Label>
        <input
          {...getInputProps(fields.files, { type: 'file' })}
          multiple
          accept=".zone,.db,.txt,.bind,text/plain,text/dns"
          aria-describedby={[fields.files.errors?.length ? fields.files.errorId : '', 'import-files-limit'].filter(Boolean).join(' ')}
          className="max-w-full text-sm"
        />
        <p id="import-files-limit" className="text-xs text-slate-500 dark:text-slate-400">
          {t('import.limit', { files: MAX_FILES, size: ZONE_FILE_MAX_LABEL })}
        </p>
        <ErrorList id={fields.files.errorId} errors={fields.files.errors} />
      </div>
      {message ? (
        <Alert variant="error" data-testid="import-message">
          {message}
        </Alert>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" name={fields.intent.name} value="preview" variant="outline" disabled={busy}>
          {t('import.preview')}
        </Button>
        <Button type="submit" name={fields.intent.name} value="apply" disabled={busy}>
          {t('import.apply')}
        </Button>
      </div>
    </Form>
  )
}

/** The zones for names registered elsewhere, each to its own page (records, publishing, export). */
function StandaloneZones({ zones, canAdmin }: { zones: ZoneRef[]; canAdmin: boolean }) {
  const { t } = useTranslation('dns')
  const { t: td } = useTranslation('domains')
  const href = useContextHref()
  if (!zones.length) return null
  return (
    <section className="space-y-2" aria-labelledby="standalone-zones-title" data-testid="standalone-zones">
      <h2 id="standalone-zones-title" className="font-semibold">
        {t('import.standaloneTitle')}
      </h2>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {zones.map((z) => (
          <li key={z.id}>
            <span className="font-mono">{z.name}</span> —{' '}
            <Link to={href(`/domains/zones/${z.id}`)} className="underline">
              {t(canAdmin ? 'import.editRecords' : 'import.showRecords')}
            </Link>
            {z.verified === false ? (
              <span className="ml-2 text-amber-800 dark:text-amber-300" data-testid="zone-waiting-proof">
                ({td('zoneProof.waiting')})
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** A zone for a name registered elsewhere (not a domain of the portfolio), to import a file into. */
function CreateZone({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('dns')
  const [form, fields] = useZodForm(createZoneSchema(t), { id: 'create-zone', lastResult })
  return (
    <section className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-800" aria-labelledby="create-zone-title" data-testid="create-zone">
      <h2 id="create-zone-title" className="font-semibold">
        {t('import.createTitle')}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('import.createHelp')}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-start gap-2">
        <Field labelProps={{ children: t('import.createName') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), className: 'w-72' }} errors={fields.name.errors} />
        <Button type="submit" name="intent" value="create-zone" variant="outline" className="sm:mt-6">
          {t('zone.create')}
        </Button>
      </Form>
    </section>
  )
}

import { NoZone } from './no-zone.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, useActionData } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { DS_ALGORITHMS, DS_DIGEST_TYPES, DS_FIELDS, dsKey, dsRecordSchema, dsWords } from '#common/ds.ts'
import { ErrorList, Field, SelectField, useZodForm } from '#app/components/forms.tsx'
import { getFormProps } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { canChange, requireChange } from '#app/lib/guards.server.ts'
import { sayCodes } from '#app/lib/coded-words.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { Route } from './+types/dnssec.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { dnsScreen, zoneOfDomain } from './shared.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) {
    // Hosted elsewhere: the DS records the registry holds for the domain, given here by hand (issue 28, item 16).
    const domain = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id } })
    const delegation = { name: domain.unicode_name, ds: domain.ds, canManage: canChange(request, screen.user, 'domain-manager') }
    return data({ zone: null, dnssec: null, canAdmin: screen.canAdmin, delegation })
  }
  const dnssec = await screen.platform.get('/groups/{context}/zones/{zone}/dnssec', { path: { context: screen.groupContext, zone: zone.id } })
  return data({ zone: { id: zone.id, name: zone.name }, dnssec, canAdmin: screen.canAdmin, delegation: null })
}

/** The DS form's schema: the API's own rules (common/ds.ts), said in the user's language. */
const dsSchema = (t: TFunction) => dsRecordSchema(sayCodes(t, 'dns', dsWords))

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const here = `/domains/${params.id}/dnssec`
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  if (intent === 'ds-add' || intent === 'ds-remove') {
    requireChange(request, screen.user, 'domain-manager')
    const path = { context: screen.groupContext, id: params.id }
    if (intent === 'ds-remove') {
      try {
        await screen.platform.delete('/groups/{context}/domains/{id}/ds/{ds}', { path: { ...path, ds: String(form.get('ds') ?? '') } })
        return backWith(request, here, { content: t('dnssec.dsRemoved'), color: 'success' })
      } catch (error) {
        return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
      }
    }
    const submission = parseWithZod(form, { schema: dsSchema(t) })
    if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
    try {
      await screen.platform.post('/groups/{context}/domains/{id}/ds', { path, body: submission.value })
    } catch (error) {
      return data({ result: submission.reply(formErrorsOf(t, error, DS_FIELDS, {}, 'dns')) }, { status: 400 })
    }
    return backWith(request, here, { content: t('dnssec.dsAdded'), color: 'success' })
  }
  // A role the page offers no control for: said on the page, never a 403 problem document from the platform.
  if (!screen.canAdmin) return backWith(request, screen.url.pathname, { content: t('zone.needsAdmin'), color: 'error' })
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) return backWith(request, here, { content: t('zone.none'), color: 'error' })
  if (intent !== 'sign' && intent !== 'unsign') return backWith(request, here, { content: t('editor.unknownIntent'), color: 'error' })
  try {
    await screen.platform.post(`/groups/{context}/zones/{zone}/dnssec/${intent}`, { path: { context: screen.groupContext, zone: zone.id } })
    return backWith(request, here, { content: t(`dnssec.${intent}Queued`), color: 'success' })
  } catch (error) {
    return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
  }
}

const STEPS = ['removeDs', 'waitTtl', 'unsign'] as const

export default function Dnssec({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('dns')
  const { zone, dnssec, canAdmin, delegation } = loaderData
  if (!zone || !dnssec) {
    return delegation ? <Delegation {...delegation} domainId={params.id} /> : <NoZone domainId={params.id} />
  }
  const color = dnssec.state === 'signed' ? 'green' : dnssec.state === 'unsigned' ? 'grey' : 'amber'
  const ds = dnssec.keys.flatMap((k) => k.ds).length ? dnssec.keys.flatMap((k) => k.ds) : dnssec.ds_records
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <h2 className="text-lg font-semibold">{t('dnssec.title', { name: zone.name })}</h2>
        <Badge color={color} data-testid="dnssec-state">
          {t(`dnssec.states.${dnssec.state}`)}
        </Badge>
      </div>
      {!dnssec.powerdns_configured ? <Alert>{t('dnssec.notConfigured')}</Alert> : null}
      {dnssec.keys_error ? <Alert variant="error">{dnssec.keys_error}</Alert> : null}
      {dnssec.state === 'signing' ? <Alert>{t('dnssec.signing')}</Alert> : null}
      {dnssec.state === 'unsigning' ? (
        <section className="space-y-1" data-testid="unsign-steps">
          <p className="text-sm">{t('dnssec.unsigningIntro')}</p>
          <ol className="list-decimal pl-5 text-sm">
            {STEPS.map((s) => (
              <li key={s}>{t(`dnssec.steps.${s}`)}</li>
            ))}
          </ol>
        </section>
      ) : null}
      {dnssec.keys.length ? (
        <section className="space-y-2">
          <h3 className="font-semibold">DNSKEY</h3>
          <ul className="space-y-2">
            {dnssec.keys.map((k) => (
              <li key={k.id} className="rounded border border-slate-200 p-2 text-sm dark:border-slate-800">
                <p>
                  {k.keytype.toUpperCase()} · {k.algorithm} · {k.bits} bits · {k.active ? t('dnssec.active') : t('dnssec.inactive')}
                </p>
                <code className="block break-all text-xs">{k.dnskey}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {ds.length ? (
        <section className="space-y-2">
          <h3 className="font-semibold">DS</h3>
          <ul className="space-y-1">
            {ds.map((d) => (
              <li key={d}>
                <code className="break-all text-xs">{d}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canAdmin ? (
        <Form method="post" className="space-y-2">
          {dnssec.state === 'unsigned' ? (
            <Button type="submit" name="intent" value="sign">
              {t('dnssec.sign')}
            </Button>
          ) : null}
          {dnssec.state === 'signed' ? (
            <>
              <p className="text-sm">{t('dnssec.unsignHelp')}</p>
              <Button type="submit" name="intent" value="unsign" variant="outline">
                {t('dnssec.unsign')}
              </Button>
            </>
          ) : null}
        </Form>
      ) : null}
    </div>
  )
}

type DsRow = { key_tag: number; alg: number; digest_type: number; digest: string }

/** A domain whose zone is hosted elsewhere: the DS records the registry holds, added and removed here (issue 28, item 16). */
function Delegation({ name, ds, canManage, domainId }: { name: string; ds: DsRow[]; canManage: boolean; domainId: string | undefined }) {
  const { t } = useTranslation('dns')
  return (
    <div className="space-y-4" data-testid="ds-delegation">
      <h2 className="text-lg font-semibold">{t('dnssec.elsewhere')}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('dnssec.elsewhereIntro', { name })}</p>
      {ds.length ? (
        <ul className="space-y-2">
          {ds.map((d) => (
            <li key={dsKey(d)} className="flex flex-wrap items-center gap-3 rounded border border-slate-200 p-2 text-sm dark:border-slate-800" data-testid="ds-record">
              <code className="min-w-0 flex-1 break-all text-xs">
                {d.key_tag} {d.alg} {d.digest_type} {d.digest}
              </code>
              <span className="text-xs text-slate-600 dark:text-slate-400">
                {DS_ALGORITHMS[d.alg as keyof typeof DS_ALGORITHMS] ?? d.alg} · {DS_DIGEST_TYPES[d.digest_type as keyof typeof DS_DIGEST_TYPES]?.name ?? d.digest_type}
              </span>
              {canManage ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="ds-remove" />
                  <input type="hidden" name="ds" value={dsKey(d)} />
                  <Button type="submit" variant="outline" size="sm" aria-label={`${t('dnssec.removeDs')} ${d.key_tag}`}>
                    {t('dnssec.removeDs')}
                  </Button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm" data-testid="ds-none">
          {t('dnssec.dsNone')}
        </p>
      )}
      {canManage ? <AddDs /> : <p className="text-sm text-slate-600 dark:text-slate-400">{t('dnssec.dsReadOnly')}</p>}
      <div className="space-y-1 text-sm">
        <p>{t('dnssec.hostHere')}</p>
        <NoZone domainId={domainId} />
      </div>
    </div>
  )
}

function AddDs() {
  const { t } = useTranslation('dns')
  const actionData = useActionData<typeof action>()
  const [form, fields] = useZodForm(dsSchema(t), { id: 'ds-form', lastResult: actionData && 'result' in actionData ? actionData.result : undefined, defaultValue: { alg: '13', digest_type: '2' } })
  return (
    <Form method="post" {...getFormProps(form)} className="grid max-w-2xl gap-2 sm:grid-cols-[8rem_1fr_1fr]" aria-label={t('dnssec.addDs')} data-testid="ds-form">
      <input type="hidden" name="intent" value="ds-add" />
      <Field
        labelProps={{ children: t('dnssec.keyTag'), className: 'leading-5' }}
        inputProps={{ ...getInputProps(fields.key_tag, { type: 'text' }), inputMode: 'numeric' }}
        errors={fields.key_tag.errors}
      />
      <SelectField label={t('dnssec.algorithm')} selectProps={getSelectProps(fields.alg)} errors={fields.alg.errors}>
        {Object.entries(DS_ALGORITHMS).map(([n, mnemonic]) => (
          <option key={n} value={n}>
            {n} {mnemonic}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('dnssec.digestType')} selectProps={getSelectProps(fields.digest_type)} errors={fields.digest_type.errors}>
        {Object.entries(DS_DIGEST_TYPES).map(([n, type]) => (
          <option key={n} value={n}>
            {n} {type.name}
          </option>
        ))}
      </SelectField>
      <div className="sm:col-span-3">
        <Field labelProps={{ children: t('dnssec.digest') }} inputProps={{ ...getInputProps(fields.digest, { type: 'text' }), autoComplete: 'off', spellCheck: false }} errors={fields.digest.errors} />
        <p className="text-xs text-slate-600 dark:text-slate-400">{t('dnssec.digestHelp')}</p>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Button type="submit" className="justify-self-start">
        {t('dnssec.addDs')}
      </Button>
    </Form>
  )
}

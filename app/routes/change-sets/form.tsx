import { getFormProps, type SubmissionResult } from '@conform-to/react'
import type { TFunction } from 'i18next'
import { Form, useNavigation } from 'react-router'
import { z } from 'zod'
import { getInputProps, getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { Field, FormErrors, LabelledField, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Textarea } from '#app/components/ui/input.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CHANGE_KINDS, parseOperations, parseStages, printOperations, RECORD_TEMPLATE_NAMES, stagesProblem, TARGET_OF, type ChangeKind, type ChangeSpec } from '#common/change-sets.ts'
import { parsePql } from '#common/pql.ts'

/** The form of a change set and of a policy (its change and filter, without stages): one schema, one set of fields. */

/** The API's fields of a refusal, on the form's. */
export const refusalAlias: Record<string, string> = Object.fromEntries([
  ['change.template', 'template'],
  ['change.add', 'tags_add'],
  ['change.nameservers', 'nameservers'],
  ['change.operations', 'operations'],
  ...Array.from({ length: 20 }, (_, i) => [`change.operations.${i}`, 'operations']),
])

export const FIELDS = ['name', 'kind', 'filter', 'template', 'operations', 'auto_renew', 'registry_lock', 'tags_add', 'tags_remove', 'nameservers', 'stages'] as const
const listOf = (text: string | undefined) => (text ?? '').split(/[\s,]+/).filter(Boolean)

/** The form's rules (the API checks them again): a name, a readable filter, a change of the chosen kind, rising stages ending at 100 %. */
export const changeSetSchema = (t: TFunction, withStages = true) => {
  const rules = formRules(t)
  return z
    .object({
      name: rules.requiredText(200),
      kind: z.enum(CHANGE_KINDS),
      filter: z.string().trim().max(2000).optional(),
      template: z.union([z.literal(''), z.enum(RECORD_TEMPLATE_NAMES)]).optional(),
      operations: z.string().max(20_000).optional(),
      auto_renew: z.enum(['on', 'off']).default('on'),
      registry_lock: z.enum(['on', 'off']).default('on'),
      tags_add: z.string().max(2000).optional(),
      tags_remove: z.string().max(2000).optional(),
      nameservers: z.string().max(4000).optional(),
      stages: z.string().trim().default('1, 10, 100'),
    })
    .superRefine((value, ctx) => {
      const pql = parsePql(value.filter ?? '')
      if (!pql.ok) ctx.addIssue({ code: 'custom', path: ['filter'], message: t('change-sets:errors.filter', { position: pql.error.position + 1 }) })
      if (withStages && stagesProblem(parseStages(value.stages))) ctx.addIssue({ code: 'custom', path: ['stages'], message: t('change-sets:errors.stages') })
      if (value.kind === 'dns' && !value.template) {
        const { operations, problems } = parseOperations(value.operations ?? '')
        for (const p of problems) ctx.addIssue({ code: 'custom', path: ['operations'], message: t(`change-sets:errors.line.${p.code}`, { line: p.line }) })
        if (!problems.length && operations.length === 0) ctx.addIssue({ code: 'custom', path: ['operations'], message: t('change-sets:errors.operationsEmpty') })
      }
      if (value.kind === 'tags' && listOf(value.tags_add).length + listOf(value.tags_remove).length === 0)
        ctx.addIssue({ code: 'custom', path: ['tags_add'], message: t('change-sets:errors.tagsEmpty') })
      if (value.kind === 'nameservers' && listOf(value.nameservers).length === 0) ctx.addIssue({ code: 'custom', path: ['nameservers'], message: t('change-sets:errors.nameserversEmpty') })
    })
}
export type Values = z.infer<ReturnType<typeof changeSetSchema>>

/** The API's change from the form's values. */
export function changeOf(value: Values): ChangeSpec {
  switch (value.kind) {
    case 'dns':
      return value.template ? { kind: 'dns', template: value.template, operations: [] } : { kind: 'dns', operations: parseOperations(value.operations ?? '').operations }
    case 'auto_renew':
      return { kind: 'auto_renew', value: value.auto_renew === 'on' }
    case 'registry_lock':
      return { kind: 'registry_lock', value: value.registry_lock === 'on' }
    case 'tags':
      return { kind: 'tags', add: listOf(value.tags_add), remove: listOf(value.tags_remove) }
    case 'nameservers':
      return { kind: 'nameservers', nameservers: listOf(value.nameservers) }
  }
}

/** Creating needs the manager of what the change is over: dns-manager for records, domain-manager for the rest. */
export const managerOf = (kind: ChangeKind) => (TARGET_OF[kind] === 'zones' ? 'dns-manager' : 'domain-manager')

export function ChangeSetForm({
  kinds,
  kind,
  filter,
  lastResult,
  withStages = true,
  submitLabel,
}: {
  kinds: readonly ChangeKind[]
  kind: ChangeKind
  filter: string
  lastResult: SubmissionResult<string[]> | undefined
  withStages?: boolean
  submitLabel?: string
}) {
  const { t } = useTranslation('change-sets')
  const navigation = useNavigation()
  const [form, fields] = useZodForm(changeSetSchema(t, withStages), {
    id: 'change-set',
    lastResult,
    defaultValue: { kind, filter, stages: '1, 10, 100', auto_renew: 'on', registry_lock: 'on', template: '' },
  })
  // Each kind's fields show while that kind is chosen, with or without JavaScript (CSS :has on the form).
  const only = (k: ChangeKind) =>
    ({
      dns: 'hidden group-has-[option[value=dns]:checked]/cs:grid',
      auto_renew: 'hidden group-has-[option[value=auto_renew]:checked]/cs:grid',
      registry_lock: 'hidden group-has-[option[value=registry_lock]:checked]/cs:grid',
      tags: 'hidden group-has-[option[value=tags]:checked]/cs:grid',
      nameservers: 'hidden group-has-[option[value=nameservers]:checked]/cs:grid',
    })[k]
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="group/cs grid max-w-3xl gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900"
      data-testid="change-set-form"
    >
      <FormErrors id={form.errorId} errors={form.errors} testId="change-set-error" />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: t('form.name') }}
          inputProps={{ ...getInputProps(fields.name, { type: 'text' }), placeholder: t('form.namePlaceholder'), autoComplete: 'off' }}
          errors={fields.name.errors}
        />
        <SelectField label={t('form.kind')} selectProps={{ ...getSelectProps(fields.kind), id: fields.kind.id }} errors={fields.kind.errors}>
          {kinds.map((k) => (
            <option key={k} value={k}>
              {t(`kinds.${k}`)} — {t(`targets.${TARGET_OF[k]}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="grid gap-1">
        <Field
          labelProps={{ children: t('form.filter') }}
          inputProps={{ ...getInputProps(fields.filter, { type: 'text' }), placeholder: "name ends_with '.example'", autoComplete: 'off', spellCheck: false, className: 'font-mono' }}
          errors={fields.filter.errors}
        />
        <p className="-mt-1 text-xs text-slate-500 dark:text-slate-400">{t('form.filterHelp')}</p>
      </div>
      <fieldset className={`${only('dns')} gap-3`} data-testid="change-set-dns">
        <legend className="mb-2 text-sm font-semibold">{t('kinds.dns')}</legend>
        <SelectField label={t('form.template')} selectProps={{ ...getSelectProps(fields.template), id: fields.template.id }} errors={fields.template.errors}>
          <option value="">{t('form.templateNone')}</option>
          {RECORD_TEMPLATE_NAMES.map((name) => (
            <option key={name} value={name}>
              {t(`templates.${name}`)}
            </option>
          ))}
        </SelectField>
        <LabelledField label={t('form.operations')} errors={fields.operations.errors} errorId={fields.operations.errors?.length ? `${fields.operations.id}-error` : undefined}>
          <Textarea
            {...getTextareaProps(fields.operations)}
            rows={5}
            spellCheck={false}
            className="mt-1 font-mono text-xs"
            placeholder={'add www A 192.0.2.10\nreplace @ MX 10 mx1.example.net. | 20 mx2.example.net.\nremove old CNAME'}
          />
        </LabelledField>
        <p className="text-xs text-slate-500 dark:text-slate-400">{t('form.operationsHelp')}</p>
      </fieldset>
      <fieldset className={`${only('auto_renew')} gap-3`}>
        <legend className="mb-2 text-sm font-semibold">{t('kinds.auto_renew')}</legend>
        <SelectField label={t('form.autoRenew')} selectProps={{ ...getSelectProps(fields.auto_renew), id: fields.auto_renew.id }} errors={fields.auto_renew.errors}>
          <option value="on">{t('form.autoRenewOn')}</option>
          <option value="off">{t('form.autoRenewOff')}</option>
        </SelectField>
      </fieldset>
      <fieldset className={`${only('registry_lock')} gap-3`}>
        <legend className="mb-2 text-sm font-semibold">{t('kinds.registry_lock')}</legend>
        <SelectField label={t('form.registryLock')} selectProps={{ ...getSelectProps(fields.registry_lock), id: fields.registry_lock.id }} errors={fields.registry_lock.errors}>
          <option value="on">{t('form.registryLockOn')}</option>
          <option value="off">{t('form.registryLockOff')}</option>
        </SelectField>
      </fieldset>
      <fieldset className={`${only('tags')} gap-x-4 sm:grid-cols-2`}>
        <legend className="mb-2 text-sm font-semibold">{t('kinds.tags')}</legend>
        <Field labelProps={{ children: t('form.tagsAdd') }} inputProps={{ ...getInputProps(fields.tags_add, { type: 'text' }), placeholder: 'brand, eu' }} errors={fields.tags_add.errors} />
        <Field labelProps={{ children: t('form.tagsRemove') }} inputProps={{ ...getInputProps(fields.tags_remove, { type: 'text' }), placeholder: 'legacy' }} errors={fields.tags_remove.errors} />
      </fieldset>
      <fieldset className={`${only('nameservers')} gap-3`}>
        <legend className="mb-2 text-sm font-semibold">{t('kinds.nameservers')}</legend>
        <Field
          labelProps={{ children: t('form.nameservers') }}
          inputProps={{ ...getInputProps(fields.nameservers, { type: 'text' }), placeholder: 'ns1.example.net, ns2.example.net', className: 'font-mono' }}
          errors={fields.nameservers.errors}
        />
      </fieldset>
      {withStages ? (
        <div className="grid gap-1 sm:max-w-md">
          <Field labelProps={{ children: t('form.stages') }} inputProps={{ ...getInputProps(fields.stages, { type: 'text' }), inputMode: 'numeric' }} errors={fields.stages.errors} />
          <p className="-mt-1 text-xs text-slate-500 dark:text-slate-400">{t('form.stagesHelp')}</p>
        </div>
      ) : null}
      <div>
        <Button type="submit" disabled={navigation.state !== 'idle'} data-testid="change-set-submit">
          {submitLabel ?? t('form.submit')}
        </Button>
      </div>
    </Form>
  )
}

/** What the set changes, as a person reads it. */
export function ChangeText({ change }: { change: ChangeSpec }) {
  const { t } = useTranslation('change-sets')
  if (change.kind === 'dns')
    return (
      <div className="space-y-1">
        {change.template ? <p>{t(`templates.${change.template}`)}</p> : null}
        <pre className="whitespace-pre-wrap break-all font-mono text-xs">{printOperations(change.operations)}</pre>
        {change.operations.some((o) => o.op === 'replace' && o.match) ? <p className="text-xs text-slate-500">{t('detail.matchNote')}</p> : null}
      </div>
    )
  if (change.kind === 'auto_renew') return <>{change.value ? t('form.autoRenewOn') : t('form.autoRenewOff')}</>
  if (change.kind === 'registry_lock') return <>{change.value ? t('form.registryLockOn') : t('form.registryLockOff')}</>
  if (change.kind === 'tags') return <span className="font-mono text-xs">{[...change.add.map((x) => `+${x}`), ...change.remove.map((x) => `−${x}`)].join(' ')}</span>
  return <span className="font-mono text-xs">{change.nameservers.join(', ')}</span>
}

import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { Form } from 'react-router'
import { z } from 'zod'
import { ErrorList, Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { copyToClipboard } from '#app/components/toaster.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX, type WebhookEndpointView } from '#common/webhooks.ts'

const asList = (value: unknown) => (value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value])

/** The endpoint form: a URL, a description and the events it wants (checked boxes). */
export const endpointSchema = (t: TFunction) =>
  z.object({
    intent: z.enum(['endpoint-create', 'endpoint-update']),
    url: formRules(t).requiredText(WEBHOOK_URL_MAX),
    description: z.string().trim().max(200).optional().default(''),
    events: z.preprocess(asList, z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, t('webhooks:eventsRequired'))),
  })

export const ENDPOINT_FIELDS = ['url', 'description', 'events'] as const

/** Where the API keeps an account's endpoints (the account is the context). */
export const endpointsPath = (accountId: string) => `/groups/${accountId}/webhook_endpoints`

export function EndpointState({ endpoint }: { endpoint: WebhookEndpointView }) {
  const { t } = useTranslation('webhooks')
  if (!endpoint.enabled)
    return (
      <Badge color="red" title={endpoint.disabled_reason ?? undefined}>
        {t('state.disabled')}
      </Badge>
    )
  if (endpoint.failing_since) return <Badge color="amber">{t('state.failing')}</Badge>
  return <Badge color="green">{t('state.enabled')}</Badge>
}

/** A signing secret just made: shown this once, with a copy button. */
export function SecretShown({ secret, title }: { secret: string; title: string }) {
  const { t } = useTranslation('webhooks')
  return (
    <Alert variant="success" className="space-y-2" data-testid="webhook-secret-shown">
      <p className="font-medium">{title}</p>
      <p className="text-sm">{t('secretOnce')}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-slate-200 dark:bg-slate-950 dark:text-slate-100 dark:ring-slate-700"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <Button type="button" size="sm" variant="outline" onClick={() => copyToClipboard(secret, { copied: t('common:actions.copied'), failed: t('copyFailed') })}>
          {t('copy')}
        </Button>
      </div>
    </Alert>
  )
}

/** The id of an endpoint form, for a submit button outside it (a sheet's footer). */
export const endpointFormId = (intent: 'endpoint-create' | 'endpoint-update') => `webhook-${intent}`

export function EndpointForm({
  intent,
  lastResult,
  defaults,
  submitLabel,
  version,
  submitInFooter = false,
}: {
  intent: 'endpoint-create' | 'endpoint-update'
  lastResult: SubmissionResult<string[]> | undefined
  defaults?: WebhookEndpointView
  submitLabel: string
  version?: number
  /** In a sheet, whose footer holds the submit button (`endpointFormId`). */
  submitInFooter?: boolean
}) {
  const { t } = useTranslation('webhooks')
  const [form, fields] = useZodForm(endpointSchema(t), { id: endpointFormId(intent), lastResult, defaultValue: defaults ? { url: defaults.url, description: defaults.description } : undefined })
  const sent = lastResult?.initialValue ? asList(lastResult.initialValue.events).map(String) : null
  const checked = new Set(sent ?? defaults?.events ?? [])
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3">
      <input type="hidden" name="intent" value={intent} />
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          labelProps={{ children: t('fields.url') }}
          inputProps={{ ...getInputProps(fields.url, { type: 'url' }), id: `${intent}-url`, placeholder: 'https://hooks.example.com/registrar' }}
          errors={fields.url.errors}
        />
        <Field
          labelProps={{ children: t('fields.description') }}
          inputProps={{ ...getInputProps(fields.description, { type: 'text' }), id: `${intent}-description` }}
          errors={fields.description.errors}
        />
      </div>
      <fieldset className="space-y-2" aria-describedby={fields.events.errors?.length ? `${intent}-events-error` : undefined}>
        <legend className="text-sm font-medium">{t('fields.events')}</legend>
        <div className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-start gap-2 rounded border border-slate-200 px-2 py-1.5 text-sm dark:border-slate-800">
              <input type="checkbox" name="events" value={type} defaultChecked={checked.has(type)} className="mt-1" />
              <span>
                <span className="font-mono text-xs">{type}</span>
                <span className="block text-xs text-slate-500">{t(`events.${type.replace(/\./g, '_')}`)}</span>
              </span>
            </label>
          ))}
        </div>
        <ErrorList id={`${intent}-events-error`} errors={fields.events.errors} />
      </fieldset>
      {submitInFooter ? null : (
        <Button type="submit" className="justify-self-start" data-testid={`${intent}-submit`}>
          {submitLabel}
        </Button>
      )}
    </Form>
  )
}

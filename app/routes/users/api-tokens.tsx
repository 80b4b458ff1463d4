import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { Form, Link } from 'react-router'
import { z } from 'zod'
import { ErrorList, Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { copyToClipboard } from '#app/components/toaster.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { formatDate, formatDateTime } from '#app/lib/dates.ts'
import { formRules } from '#app/lib/form-messages.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CardTable, CardTableRow } from '#app/components/screen-parts.tsx'
import { useRoleLabel } from '#app/components/status-badge.tsx'
import { grantsSchema, RolesEditor, submittedGrants } from './roles.tsx'
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS, API_TOKEN_NAME_MAX, type ApiTokenView } from '#common/api-tokens.ts'

/** The expiries the form offers (days); the API takes any 1–365. */
export const EXPIRY_CHOICES = [7, 30, API_TOKEN_DEFAULT_DAYS, 180, API_TOKEN_MAX_DAYS] as const

const asList = (value: unknown) => (value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value])
const words = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split(/[\s,]+/)
      .map((w) => w.trim())
      .filter(Boolean),
  ),
]

/** The new-token form: a name, the permissions it holds (checked boxes), its limits and expiry. */
export const tokenSchema = (t: TFunction) => {
  const rules = formRules(t)
  return z.object({
    intent: z.literal('token-create'),
    name: rules.requiredText(API_TOKEN_NAME_MAX),
    permissions: z.preprocess(asList, z.array(z.string()).min(1, t('tokens:permissionsRequired'))),
    account_id: z.string().optional(),
    domain_tags: z.string().optional().transform(words),
    cidrs: z.string().optional().transform(words),
    expires_in_days: rules.integer().min(1).max(API_TOKEN_MAX_DAYS).default(API_TOKEN_DEFAULT_DAYS),
  })
}

export type TokenActionData =
  { intent: 'token-create'; result: SubmissionResult<string[]> } | { intent: 'token-created'; secret: string; name: string } | { intent: 'token-revoke'; formErrors: string[] }

type AccountChoice = { id: string; name: string }

const stateOf = (token: ApiTokenView, now: number) => (token.revoked_at ? 'revoked' : Date.parse(token.expires_at) <= now ? 'expired' : 'active')
const STATE_COLOR = { active: 'green', expired: 'amber', revoked: 'grey' } as const

/**
 * A user's API tokens (their own on /my-profile, a service user's on /users/{id}): the list with
 * each token's limits, expiry and last use, revoke behind a confirmation, and New API token, which
 * opens the new-token form in a sheet over the page (api-token-new.tsx).
 */
export function ApiTokensCard({
  tokens,
  accounts,
  newTo,
  actionData,
  now,
}: {
  tokens: ApiTokenView[]
  /** The accounts a token may be bound to (the user's own, or every account for staff): to name a token's account. */
  accounts: AccountChoice[]
  /** The new-token sheet's address (/my-profile/api-tokens/new, /users/{id}/api-tokens/new). */
  newTo: string
  actionData: TokenActionData | undefined
  now: number
}) {
  const { t, i18n } = useTranslation('tokens')
  const href = useContextHref()
  const roleLabel = useRoleLabel()
  const accountName = (id: string | null) => accounts.find((a) => a.id === id)?.name ?? id
  return (
    <Card data-testid="api-tokens">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <CardTitle>{t('title')}</CardTitle>
        {/* A new token's form is a sheet over this page; the secret is shown there, once. */}
        <Button asChild size="sm">
          <Link to={href(newTo)} preventScrollReset data-testid="token-new-open">
            {t('new')}
          </Link>
        </Button>
      </div>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('intro')}</p>
      {actionData?.intent === 'token-revoke' ? <FormErrors errors={actionData.formErrors} /> : null}
      <CardTable
        items={tokens}
        testId="token-table"
        minWidth="min-w-[40rem]"
        empty={{ text: t('empty'), testId: 'token-empty' }}
        headings={[
          { label: t('fields.name') },
          { label: t('fields.permissions') },
          { label: t('fields.limits') },
          { label: t('fields.expires_at') },
          { label: t('fields.last_used'), className: 'whitespace-nowrap' },
          { label: <span className="sr-only">{t('revoke')}</span> },
        ]}
        render={(token) => {
          const state = stateOf(token, now)
          const limits = [
            ...(token.account_id ? [t('limits.account', { name: accountName(token.account_id) })] : []),
            ...(token.domain_tags.length ? [t('limits.tags', { list: token.domain_tags.join(', ') })] : []),
            ...(token.cidrs.length ? [t('limits.cidrs', { list: token.cidrs.join(', ') })] : []),
          ]
          return (
            <CardTableRow key={token.id} testId={`token-row-${token.number}`}>
              <td className="py-2 pr-3">
                <div className="font-medium">{token.name}</div>
                <div className="flex items-center gap-2 text-xs text-slate-500">
                  <code className="font-mono">{token.hint}</code>
                  <span>#{token.number}</span>
                  <Badge color={STATE_COLOR[state]}>{t(`state.${state}`)}</Badge>
                </div>
              </td>
              <td className="py-2 pr-3 text-xs">
                {token.permissions.map((p, i) => (
                  <span key={p} title={p}>
                    {i ? ', ' : ''}
                    {roleLabel(p)}
                  </span>
                ))}
              </td>
              <td className="py-2 pr-3 text-xs">{limits.length ? limits.map((l) => <div key={l}>{l}</div>) : <span className="text-slate-500">{t('limits.none')}</span>}</td>
              <td className="whitespace-nowrap py-2 pr-3 text-xs" title={formatDateTime(token.expires_at, i18n.language)}>
                {formatDate(token.expires_at, i18n.language)}
              </td>
              <td className="py-2 pr-3 text-xs" data-testid="token-last-used">
                {token.last_used_at ? (
                  <>
                    <div className="whitespace-nowrap" title={formatDateTime(token.last_used_at, i18n.language)}>
                      {formatDate(token.last_used_at, i18n.language)}
                    </div>
                    <div className="font-mono text-slate-500">{token.last_used_address}</div>
                  </>
                ) : (
                  <span className="whitespace-nowrap text-slate-500">{t('never')}</span>
                )}
              </td>
              <td className="py-2 text-right">
                {state === 'active' ? (
                  <details className="relative inline-block text-left" data-testid={`token-revoke-${token.number}`}>
                    <summary className="inline-flex h-7 cursor-pointer list-none items-center rounded-md border border-slate-300 px-2.5 text-xs font-medium text-red-700 hover:bg-red-50 dark:border-slate-700 dark:text-red-400 dark:hover:bg-red-950/40 [&::-webkit-details-marker]:hidden">
                      {t('revoke')}
                    </summary>
                    <Form
                      method="post"
                      className="absolute right-0 z-10 mt-1 flex w-56 flex-col items-end gap-2 rounded-md border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-800 dark:bg-slate-900"
                    >
                      <input type="hidden" name="token_id" value={token.id} />
                      <p className="text-xs">{t('revokeQuestion', { name: token.name })}</p>
                      <Button type="submit" name="intent" value="token-revoke" variant="destructive" size="sm">
                        {t('revokeConfirm')}
                      </Button>
                    </Form>
                  </details>
                ) : null}
              </td>
            </CardTableRow>
          )
        }}
      />
    </Card>
  )
}

export function NewTokenForm({ permissions, accounts, lastResult }: { permissions: string[]; accounts: AccountChoice[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('tokens')
  // Permissions by their names from the registry (issue 28, item 7), the code on hover.
  const roleLabel = useRoleLabel()
  const [form, fields] = useZodForm(tokenSchema(t), { id: 'token-new', lastResult, defaultValue: { expires_in_days: String(API_TOKEN_DEFAULT_DAYS) } })
  const checked = new Set(asList(lastResult?.initialValue?.permissions).map(String))
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-3">
      <input type="hidden" name="intent" value="token-create" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        labelProps={{ children: t('fields.name') }}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: 'token-name', placeholder: t('namePlaceholder') }}
        errors={fields.name.errors}
      />
      <fieldset className="space-y-2" aria-describedby={fields.permissions.errors?.length ? 'token-permissions-error' : undefined}>
        <legend className="text-sm font-medium">{t('fields.permissions')}</legend>
        <p className="text-xs text-slate-500">{t('permissionsHint')}</p>
        <div className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
          {permissions.map((p) => (
            <label key={p} className="flex items-center gap-2 rounded border border-slate-200 px-2 py-1.5 text-sm dark:border-slate-800" data-testid={`token-permission-${p}`}>
              <input type="checkbox" name="permissions" value={p} defaultChecked={checked.has(p)} aria-invalid={fields.permissions.errors?.length ? true : undefined} />
              <span title={p}>{roleLabel(p)}</span>
            </label>
          ))}
        </div>
        <ErrorList id="token-permissions-error" errors={fields.permissions.errors} />
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField label={t('fields.account')} selectProps={{ ...getSelectProps(fields.account_id), id: 'token-account' }} errors={fields.account_id.errors}>
          <option value="">{t('anyAccount')}</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('fields.expires_in_days')} selectProps={{ ...getSelectProps(fields.expires_in_days), id: 'token-expiry' }} errors={fields.expires_in_days.errors}>
          {EXPIRY_CHOICES.map((days) => (
            <option key={days} value={days}>
              {t('days', { count: days })}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          labelProps={{ children: t('fields.domain_tags') }}
          inputProps={{ ...getInputProps(fields.domain_tags, { type: 'text' }), id: 'token-tags', placeholder: 'prod, brand' }}
          errors={fields.domain_tags.errors}
        />
        <Field
          labelProps={{ children: t('fields.cidrs') }}
          inputProps={{ ...getInputProps(fields.cidrs, { type: 'text' }), id: 'token-cidrs', placeholder: '203.0.113.0/24, 2001:db8::/32' }}
          errors={fields.cidrs.errors}
        />
      </div>
      <p className="-mt-2 text-xs text-slate-500">{t('limitsHint')}</p>
    </Form>
  )
}

/** The new token's secret, shown once in the sheet that made it, with a copy button. */
export function TokenSecretShown({ name, secret }: { name: string; secret: string }) {
  const { t } = useTranslation('tokens')
  return (
    <Alert variant="success" className="space-y-2" data-testid="token-secret-shown">
      <p className="font-medium">{t('createdTitle', { name })}</p>
      <p className="text-sm">{t('createdOnce')}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-slate-200 dark:bg-slate-950 dark:text-slate-100 dark:ring-slate-700"
          data-testid="token-secret"
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

/** The new-service-user form: a name and the grants (the API refuses any the admin does not hold). */
export const serviceUserSchema = (t: TFunction, staffOffered: boolean) => z.object({ intent: z.literal('service-user'), name: formRules(t).requiredText(200), ...grantsSchema(staffOffered) })

export function ServiceUserForm({ lastResult, staffOffered }: { lastResult: SubmissionResult<string[]> | undefined; staffOffered: boolean }) {
  const { t } = useTranslation('tokens')
  const [form, fields] = useZodForm(serviceUserSchema(t, staffOffered), { id: 'service-user', lastResult })
  const grants = submittedGrants(lastResult?.initialValue, { roles: [], abilities: [] })
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="service-user" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field
        className="max-w-md"
        labelProps={{ children: t('serviceUsers.name') }}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: 'service-user-name' }}
        errors={fields.name.errors}
      />
      <RolesEditor key={form.key} roles={grants.roles} abilities={grants.abilities} staffOffered={staffOffered} errors={fields.roles.errors} abilityErrors={fields.abilities.errors} />
    </Form>
  )
}

import type { TFunction } from 'i18next'
import { sayCode, type RefusalArea } from './coded-words.ts'
import { PlatformError } from './platform-client.ts'

/**
 * The one way a screen shows a Platform API refusal: the call's 4xx becomes a `Refusal`
 * (`refusalOf`, `attempt`), and the refusal becomes words in the user's language — beside its
 * fields for a form (`refusalErrors`, conform's `submission.reply(…)`), or one sentence for the
 * page's alert or snackbar (`refusalText`). A problem document never reaches the screen as it is.
 */

/** What the API says when it refuses (server/platform/core/errors.ts: problem+json with our code). */
export type Problem = {
  code?: string
  /** The orders' reason (`period-not-allowed`, …), with its own details beside it. */
  reason?: string
  title?: string
  detail?: string
  errors?: { field?: string; code?: string; message?: string }[]
  [detail: string]: unknown
}

export type Refusal = { ok: false; status: number; problem: Problem }

/**
 * A refused platform call as its status and problem. Anything that is not a refusal — a 5xx, a
 * bug — is thrown on to the error screen, and so are the `screens` statuses (a form about an
 * entity that is gone or forbidden shows the 404 or 403 screen).
 */
export function refusalOf(error: unknown, options: { screens?: readonly number[] } = {}): Refusal {
  if (!(error instanceof PlatformError) || error.status >= 500 || options.screens?.includes(error.status)) throw error
  const problem = error.data && typeof error.data === 'object' ? (error.data as Problem) : { detail: error.message }
  return { ok: false, status: error.status, problem }
}

/** Runs a platform call: its value, or its refusal (anything else is thrown on, as `refusalOf`). */
export async function attempt<T>(run: () => Promise<T>, options: { screens?: readonly number[] } = {}): Promise<{ ok: true; value: T } | Refusal> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    return refusalOf(error, options)
  }
}

/** The orders' refusal reasons the portal says in its own words (`orders:errors.<reason>`). */
const REASONS = new Set([
  'invalid-name',
  'tld-not-offered',
  'period-not-allowed',
  'auth-code-required',
  'unavailable',
  'not-registered',
  'already-held',
  'in-cart',
  'no-registry',
  'not-held',
  'cart-empty',
  'not-retryable',
  'nothing-to-cancel',
  'no-exchange-rate',
  'price-changed',
])

function sayReason(t: TFunction, problem: Problem): string | null {
  const reason = problem.reason
  if (!reason || !REASONS.has(reason)) return null
  const allowed = Array.isArray(problem.allowed_periods) ? problem.allowed_periods.map((y) => t('orders:cart.years', { count: Number(y) })).join(', ') : ''
  const text = t(`orders:errors.${reason}`, { allowed, from: String(problem.from_currency ?? ''), to: String(problem.to_currency ?? '') })
  // A name refused by a rule of its own (an invisible character, mixed scripts, …) says that rule.
  if (reason === 'invalid-name' && typeof problem.name_error === 'string') return t(`domains:nameErrors.${problem.name_error}`, { defaultValue: text })
  // The registry's reason (e.g. "In use") adds to an unavailable name.
  return reason === 'unavailable' && typeof problem.registry_reason === 'string' ? `${text} (${problem.registry_reason})` : text
}

/**
 * The refusal as one sentence for the page: a known reason or code in the user's words, else the
 * API's own detail followed by what it says of each field (in the user's words where coded).
 */
export function refusalText(t: TFunction, problem: Problem, options: { fallback?: string; withFields?: boolean } = {}): string {
  const reason = sayReason(t, problem)
  if (reason) return reason
  // A rule's own code (`area.rule`) in the user's words; a class of refusal (`invalid-request`,
  // `conflict`) says less than the API's detail, so it only stands in when there is none.
  const said = problem.code?.includes('.') ? sayCode(t, problem.code, UNSAID, problem) : UNSAID
  if (said !== UNSAID) return said
  const detail = problem.detail ?? problem.title ?? options.fallback ?? sayCode(t, problem.code, t('directory:errors.unknown'))
  // A screen that shows each field's error beside its field says only the whole.
  const fields = options.withFields === false ? [] : (problem.errors ?? []).map((e) => sayCode(t, e.code, e.message ?? '')).filter((m) => m && m !== detail)
  return [detail, ...new Set(fields)].join(' — ')
}
const UNSAID = '\u0000'

/** A refused call as one sentence for a snackbar or the page's alert (anything else is thrown on). */
export const refusalTextOf = (t: TFunction, error: unknown, options: { fallback?: string; withFields?: boolean } = {}) => refusalText(t, refusalOf(error).problem, options)

/**
 * The refusal as conform's errors: each field error in the user's words beside its field (array
 * items such as `roles.0` beside their array; `alias` renames an API field to the form's), the
 * rest as the form's errors; a refusal naming no field of the form is the form's error.
 */
export function refusalErrors(
  t: TFunction,
  problem: Problem,
  fields: readonly string[],
  alias: Record<string, string> = {},
  area?: RefusalArea,
): { fieldErrors: Record<string, string[]>; formErrors: string[] } {
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  const unknown = t('directory:errors.unknown')
  // The field an API field is on the form: itself, its alias, its array (roles.2) or its last step (items.0.period).
  const fieldOf = (raw: string) => [alias[raw], raw, raw.split('.')[0], raw.split('.').at(-1)].find((name) => name !== undefined && fields.includes(name))
  const put = (field: string | undefined, message: string) => {
    if (field) (fieldErrors[field] ??= []).push(message)
    else if (!formErrors.includes(message)) formErrors.push(message)
  }
  const reason = sayReason(t, problem)
  // An order's reason is one sentence, beside the field it is about.
  if (reason) put(fieldOf(problem.errors?.[0]?.field ?? ''), reason)
  else for (const e of problem.errors ?? []) put(fieldOf(e.field ?? ''), sayCode(t, e.code, e.message ?? unknown, { ...problem, ...e }, area))
  if (Object.keys(fieldErrors).length === 0 && formErrors.length === 0) formErrors.push(sayCode(t, problem.code, problem.detail ?? unknown, problem, area))
  return { fieldErrors, formErrors }
}

/** A form action's refusal as conform's errors (`submission.reply(…)`); a 403 or 404 is its screen. */
export function formErrorsOf(t: TFunction, error: unknown, fields: readonly string[], alias: Record<string, string> = {}, area?: RefusalArea) {
  return refusalErrors(t, refusalOf(error, { screens: [403, 404] }).problem, fields, alias, area)
}

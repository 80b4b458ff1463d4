import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getTextareaProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import { ErrorList, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform, PlatformError } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/approval.ts'
import type { Answer } from '#app/lib/platform-api.ts'

type Approval = Answer<'/approvals/{id}'>

/** The decision form: the mailed token, approve or reject (the button pressed), an optional comment. */
const decisionSchema = (t: (key: string, options?: Record<string, unknown>) => string) =>
  z.object({
    token: z.string().min(20),
    decision: z.enum(['approve', 'reject']),
    comment: z
      .string()
      .max(2000, t('approval.commentTooLong', { max: 2000 }))
      .optional(),
  })

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DECISION_STATES = ['approved', 'applied', 'rejected']
const notFound = (path: string) => data(`Page Not Found ${path}`, { status: 404 })

/** Public (no login): the mailed link's token is the only credential; a bad one is 404, a used one says what was decided and when. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const url = requestUrl(request)
  const token = url.searchParams.get('token') ?? ''
  // After a decision posted without JavaScript the action redirects here without the spent token;
  // the page then only thanks the approver and shows nothing of the request.
  const recorded = url.searchParams.get('decided')
  if (UUID.test(params.id ?? '') && !token && recorded && DECISION_STATES.includes(recorded)) {
    return { recorded, meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'material')('approval.title')) }
  }
  if (!UUID.test(params.id ?? '') || token.length < 20) throw notFound(url.pathname)
  const platform = await getPlatform(request, context)
  try {
    const approval = await platform.get('/approvals/{id}', { path: { id: params.id }, query: { token } })
    return { approval, token, decided: null as Approval | null, meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'material')('approval.title')) }
  } catch (error) {
    // A used link: the API says what became of the request and when (409 approval.decided).
    const used = error instanceof PlatformError && error.status === 409 ? (error.data as { code?: string; state?: Approval['state']; decided_at?: string; decided_by?: string | null } | null) : null
    if (used?.code === 'approval.decided' && used.state && used.decided_at) {
      const meta = pageMeta(request, context, getInstance(context).getFixedT(null, 'material')('approval.title'))
      return data({ used: { state: used.state, decided_at: used.decided_at, decided_by: used.decided_by ?? null }, meta }, { status: 409 })
    }
    if (error instanceof PlatformError && (error.status === 404 || error.status === 400 || error.status === 409)) throw notFound(url.pathname)
    throw error
  }
}

// same-origin, not no-referrer: the token must not leak to other sites, but a form post without
// JavaScript needs its real Origin header (no-referrer makes Chromium send `Origin: null`, which the
// CSRF check refuses).
export const meta: Route.MetaFunction = ({ loaderData }) => [...metaTags(loaderData?.meta), { name: 'robots', content: 'noindex' }, { name: 'referrer', content: 'same-origin' }]

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const submission = parseWithZod(await request.formData(), { schema: decisionSchema(getInstance(context).getFixedT(null, 'material')) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { token, decision, comment } = submission.value
  const platform = await getPlatform(request, context)
  try {
    const decided = await platform.post('/approvals/{id}', { path: { id: params.id }, body: { token, decision, comment: comment ?? '' } })
    // A document POST (no JavaScript) is followed by a full render whose loader would meet the spent
    // token: send the browser to the thank-you address instead. Client submissions go to `.data`.
    if (!new URL(request.url).pathname.endsWith('.data')) {
      throw redirect(`${requestUrl(request).pathname}?decided=${encodeURIComponent(decided.state)}`)
    }
    return { decided }
  } catch (error) {
    if (error instanceof PlatformError && error.status === 404) throw notFound(requestUrl(request).pathname)
    if (error instanceof PlatformError && error.status === 409) return { result: submission.reply({ formErrors: [getInstance(context).getFixedT(null, 'material')('approval.conflict')] }) }
    throw error
  }
}

// The link works once: after a decision the loader would answer 404 for the spent token, so the
// screen keeps showing the decision the action returned instead of reloading.
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: { actionResult?: unknown; defaultShouldRevalidate: boolean }) {
  if (actionResult && typeof actionResult === 'object' && 'decided' in actionResult) return false
  return defaultShouldRevalidate
}

function ChangeList({ change }: { change: Approval['change'] }) {
  const { t } = useTranslation('material')
  return (
    <ul className="list-disc pl-6" data-testid="approval-change">
      {Object.entries(change.contacts ?? {}).map(([role, id]) => (
        <li key={role}>{t('change.contact', { role: t(`roles.${role}`), id })}</li>
      ))}
      {change.nameservers ? <li>{t('change.nameservers', { list: change.nameservers.join(', ') })}</li> : null}
    </ul>
  )
}

export default function ApprovalScreen({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('material')
  if ('recorded' in loaderData) {
    return (
      <p role="status" data-testid="approval-recorded">
        {t(`approval.done.${loaderData.recorded}`)}
      </p>
    )
  }
  if ('used' in loaderData) {
    const { used } = loaderData
    return (
      <p role="status" data-testid="approval-used" data-state={used.state}>
        {t('approval.used', { date: formatDateTime(used.decided_at, i18n.language), by: used.decided_by ? t('approval.usedBy', { who: used.decided_by }) : '', state: t(`states.${used.state}`) })}
      </p>
    )
  }
  const decided = actionData && 'decided' in actionData ? actionData.decided : null
  const approval = decided ?? loaderData.approval
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('approval.heading', { domain: approval.domain_name })}</h1>
      <p>{t('approval.asked', { who: approval.requested_by_label })}</p>
      <ChangeList change={approval.change} />
      <p data-testid="approval-state" data-state={approval.state}>
        {t(`states.${approval.state}`)}
      </p>
      {decided ? <p role="status">{t(`approval.done.${decided.state}`, { defaultValue: t('approval.done.approved') })}</p> : null}
      {approval.error ? (
        <p role="alert" className="text-red-700">
          {approval.error}
        </p>
      ) : null}
      {approval.state === 'pending' && !decided ? (
        <DecisionForm token={loaderData.token} approval={approval} lastResult={actionData && 'result' in actionData ? (actionData.result ?? null) : null} />
      ) : null}
    </div>
  )
}

function DecisionForm({ token, approval, lastResult }: { token: string; approval: Approval; lastResult: SubmissionResult<string[]> | null }) {
  const { t, i18n } = useTranslation('material')
  const [form, fields] = useZodForm(decisionSchema(t), { id: 'approval-decision', lastResult })
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name={fields.token.name} value={token} />
      <p className="text-sm">{t('approval.as', { email: approval.approver, expires: formatDateTime(approval.expires_at, i18n.language) })}</p>
      <label className="block" htmlFor={fields.comment.id}>
        {t('approval.comment')}
      </label>
      <textarea
        {...getTextareaProps(fields.comment)}
        rows={3}
        className="mt-1 block w-full rounded border border-slate-300 px-2 py-1 aria-[invalid=true]:border-red-600 dark:border-slate-700 dark:bg-slate-900"
      />
      <ErrorList id={fields.comment.errorId} errors={fields.comment.errors} />
      <div className="flex gap-2">
        <Button type="submit" name={fields.decision.name} value="approve">
          {t('approval.approve')}
        </Button>
        <Button type="submit" name={fields.decision.name} value="reject" variant="outline">
          {t('approval.reject')}
        </Button>
      </div>
    </Form>
  )
}

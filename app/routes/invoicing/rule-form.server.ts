import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { data, redirect } from 'react-router'
import { flashHeader } from '#app/lib/flash.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { getPlatform } from '#app/lib/platform.server.ts'
import { refusalErrors, refusalOf } from '#app/lib/refusal.server.ts'
import { rulePath, type RuleSet } from './shared.tsx'
import type { RulePreview } from './rule-form.tsx'
import { RULE_ALIAS, RULE_FIELDS, ruleBody, ruleSchema } from './pricing-forms.ts'

type Platform = Awaited<ReturnType<typeof getPlatform>>

/**
 * The one action of the rule forms (conform + zod, `ruleSchema`): `preview` shows the prices the
 * change moves (nothing saved), `save` saves it (a new window, or `window_id` changed with its
 * version) and goes to the rule's page; a refusal — a field the schema or the API refuses, below
 * cost without a reason, an overlapping window — stays on the form with what was typed, beside its
 * field, the preview beside it. `window_id` says which of a page's forms answers. `kind` (no
 * JavaScript) only shows the form again for the kind chosen.
 */
export async function ruleAction(request: Request, platform: Platform, t: TFunction, set: RuleSet, custom: boolean, form: FormData) {
  const submission = parseWithZod(form, { schema: ruleSchema(t, { custom, entity: set === 'entity' }) })
  const window_id = String(form.get('window_id') ?? '')
  // Without JavaScript the kind is chosen first (RuleForm's "Show the fields of this kind"): the same form again, of that kind, what was typed kept, nothing refused yet.
  if (form.get('intent') === 'kind') return data({ window_id, result: { initialValue: submission.payload } as SubmissionResult<string[]>, preview: null as RulePreview | null })
  if (submission.status !== 'success') return data({ window_id, result: submission.reply(), preview: null as RulePreview | null }, { status: 400 })
  const value = submission.value
  const body = ruleBody(value)
  try {
    if (value.intent === 'preview') {
      const preview = await platform.post('/pricing-rules/{set}/preview', { path: { set }, query: value.window_id ? { replacing: value.window_id } : {}, body })
      return data({ window_id, result: submission.reply(), preview })
    }
    const saved = value.window_id
      ? await platform.patch('/pricing-rules/{set_or_id}', { path: { set_or_id: value.window_id }, body: { ...body, version: value.version! } })
      : await platform.post('/pricing-rules/{set_or_id}', { path: { set_or_id: set }, body })
    const to = carryContext(rulePath({ ...saved.rule, level: set }), requestUrl(request).searchParams)
    return redirect(to, { headers: { 'Set-Cookie': flashHeader(request, { content: t('pricing:saved'), color: 'success' }) } })
  } catch (error) {
    const { problem } = refusalOf(error, { screens: [403, 404] })
    const preview = (problem.preview as RulePreview | undefined) ?? null
    return data({ window_id, result: submission.reply(refusalErrors(t, problem, RULE_FIELDS, RULE_ALIAS, 'pricing')), preview }, { status: 400 })
  }
}

import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { getInputProps, getSelectProps, getTextareaProps } from '#app/components/field-props.ts'
import { Field, FormErrors, LabelledField, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Sheet, SheetSubmit } from '#app/components/sheet.tsx'
import { Textarea } from '#app/components/ui/input.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { carryContext } from '#app/lib/context-param.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CASE_ACTIONS, NOTICE_LANGUAGES, noticeLanguageOf, RESOLUTIONS, TRIAGES, type CaseState } from '#common/watch.ts'
import type { Route } from './+types/step.ts'
import { useCase } from './case.tsx'
import { watchScreen } from './shared.server.ts'

/** The steps a case in `state` may take, as `to:detail` (the API refuses the rest again). */
export function stepsFrom(state: CaseState, triage: string | null): string[] {
  if (state === 'resolved') return []
  const triages = TRIAGES.map((x) => `triaged:${x}`)
  const actions = CASE_ACTIONS.map((x) => `action:${x}`)
  const resolutions = RESOLUTIONS.map((x) => `resolved:${x}`)
  if (state === 'new') return [...triages, 'resolved:dismissed']
  if (triage === 'false-positive') return state === 'triaged' ? [...triages, 'resolved:dismissed'] : resolutions
  return state === 'triaged' ? [...actions, ...triages, ...resolutions] : [...actions, ...resolutions]
}

const stepSchema = (t: TFunction) =>
  z.object({
    step: z.string({ message: t('validation:required') }).regex(/^(triaged|action|resolved):[a-z-]+$/, t('validation:required')),
    notice_to: z.email().max(254).optional(),
    language: z.enum(NOTICE_LANGUAGES).optional(),
    commenced_at: z.string().max(40).optional(),
    note: z.string().trim().max(2000).optional(),
  })

/** /watch/{id}/cases/{caseId}/step: the case's next step, a sheet over the case (a brand manager's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const t = getInstance(context).t
  return { meta: pageMeta(request, context, t('watch:step.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await watchScreen(request, context, params)
  requireChange(request, screen.user, 'brand-manager')
  const t = getInstance(context).t
  const url = requestUrl(request)
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema: stepSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  const [to, detail] = v.step.split(':') as ['triaged' | 'action' | 'resolved', string]
  const body = {
    version: Number(formData.get('version')),
    to,
    ...(to === 'triaged'
      ? { triage: detail as (typeof TRIAGES)[number] }
      : to === 'action'
        ? { action: detail as (typeof CASE_ACTIONS)[number] }
        : { resolution: detail as (typeof RESOLUTIONS)[number] }),
    ...(v.note ? { note: v.note } : {}),
    ...(detail === 'notice-sent' ? { ...(v.notice_to ? { notice_to: v.notice_to } : {}), ...(v.language ? { language: v.language } : {}) } : {}),
    ...((detail === 'udrp' || detail === 'urs') && v.commenced_at ? { commenced_at: v.commenced_at } : {}),
  }
  try {
    await screen.platform.post('/groups/{context}/watch-cases/{id}/steps', { path: { context: screen.groupContext, id: params.caseId }, body })
  } catch (error) {
    // The API names the step's parts (to, triage, action, resolution); here they are one field.
    const alias = { to: 'step', triage: 'step', action: 'step', resolution: 'step' }
    return data({ result: submission.reply(formErrorsOf(t, error, ['step', 'notice_to', 'language', 'commenced_at', 'note'], alias, 'watch')) }, { status: 400 })
  }
  return redirect(carryContext(`/watch/${params.id}/cases/${params.caseId}`, url.searchParams), {
    headers: { 'Set-Cookie': flashHeader(request, { content: t(detail === 'notice-sent' ? 'watch:done.noticeSent' : 'watch:done.stepped'), color: 'success' }) },
  })
}

export default function CaseStep({ actionData, params }: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const { detail } = useCase()
  const c = detail.case
  const [form, fields] = useZodForm(stepSchema(t), {
    id: `case-step-${c.id}-${c.version}`,
    lastResult: actionData?.result,
    defaultValue: { notice_to: detail.detection.abuse_email ?? undefined, language: noticeLanguageOf(c.tld) },
  })
  const closeTo = `/watch/${params.id}/cases/${c.id}`
  const steps = stepsFrom(c.state, c.triage)
  const label = (s: string) => {
    const [to, d] = s.split(':')
    return `${t(`state.${to}`)} — ${t(`${to === 'triaged' ? 'triage' : to === 'resolved' ? 'resolution' : 'action'}.${d}`)}`
  }
  return (
    <Sheet
      title={t('step.title')}
      description={c.names[0]}
      closeTo={closeTo}
      testId="case-step-sheet"
      footer={
        <SheetSubmit closeTo={closeTo} form={form.id} testId="case-step-save">
          {t('step.submit')}
        </SheetSubmit>
      }
    >
      <Form method="post" className="space-y-3" {...getFormProps(form)}>
        <input type="hidden" name="version" value={c.version} />
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField label={t('step.step')} selectProps={getSelectProps(fields.step)} errors={fields.step.errors}>
          <option value="">{t('step.pick')}</option>
          {steps.map((s) => (
            <option key={s} value={s}>
              {label(s)}
            </option>
          ))}
        </SelectField>
        <p className="text-xs text-slate-500">{t('step.noticeHelp', { abuse: detail.detection.abuse_email ?? t('step.noAbuse') })}</p>
        <Field labelProps={{ children: t('fields.notice_to') }} inputProps={{ ...getInputProps(fields.notice_to, { type: 'email' }), autoComplete: 'off' }} errors={fields.notice_to.errors} />
        <SelectField label={t('step.language')} selectProps={getSelectProps(fields.language)} errors={fields.language.errors}>
          {NOTICE_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`common:languages.${l}`)}
            </option>
          ))}
        </SelectField>
        <Field labelProps={{ children: t('step.commenced') }} inputProps={{ ...getInputProps(fields.commenced_at, { type: 'date' }) }} errors={fields.commenced_at.errors} />
        <LabelledField label={t('step.note')} errors={fields.note.errors} errorId={fields.note.errorId}>
          <Textarea {...getTextareaProps(fields.note)} rows={3} className="mt-1.5" />
        </LabelledField>
      </Form>
    </Sheet>
  )
}

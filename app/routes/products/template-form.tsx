import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { Form } from 'react-router'
import { z } from 'zod'
import { Field, FormErrors, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { classifyJsonError } from '#common/json-text.ts'
import { SchemaEditor } from './schema-editor.tsx'

/** The schema field as JSON: its object, or spec §5's parse message in the user's language. */
export function readSchemaText(text: string, t: TFunction): { ok: true; value: Record<string, unknown> } | { ok: false; errors: string[] } {
  try {
    const value: unknown = JSON.parse(text)
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, errors: [t('pricing:errors.template.not_object')] }
    return { ok: true, value: value as Record<string, unknown> }
  } catch (error) {
    const parsed = classifyJsonError(text, error)
    return { ok: false, errors: [t(`validation:${parsed.kind}`, { position: parsed.position ?? 0, token: parsed.token ?? '' })] }
  }
}

/** A registrar template as both its screens post it (a new one, an edited one): a name and its JSON Schema, parsed. */
export const templateSchema = (t: TFunction) =>
  z.object({
    name: formRules(t).requiredText(200),
    schema: z.string({ error: t('validation:required') }).transform((text, ctx) => {
      const read = readSchemaText(text, t)
      if (read.ok) return read.value
      for (const message of read.errors) ctx.addIssue({ code: 'custom', message })
      return z.NEVER
    }),
    version: z.coerce.number().int().optional(),
  })

/** The template form (conform + zod): checked as JSON while typed and when sent, refused as JSON Schema by the API beside the field. */
export function TemplateForm({
  id,
  lastResult,
  defaults,
  version,
  submitLabel,
  testId,
}: {
  id: string
  lastResult: SubmissionResult<string[]> | undefined
  defaults: { name: string; schema: string }
  version?: number
  submitLabel: string
  testId?: string
}) {
  const { t } = useTranslation('pricing')
  const [form, fields] = useZodForm(templateSchema(t), { id, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3" data-testid={testId}>
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field labelProps={{ children: t('templates.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: 200 }} errors={fields.name.errors} />
      <SchemaEditor key={fields.schema.key} id={fields.schema.id} name={fields.schema.name} defaultValue={fields.schema.initialValue ?? ''} errors={fields.schema.errors} />
      <Button type="submit">{submitLabel}</Button>
    </Form>
  )
}

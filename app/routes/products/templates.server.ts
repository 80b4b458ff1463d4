import type { TFunction } from 'i18next'
import { classifyJsonError } from '#common/json-text.ts'

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

/**
 * The template form as both its screens post it (a new template, an edited one): the values as
 * typed, the schema parsed, and the errors beside their fields.
 */
export function readTemplateForm(form: FormData, t: TFunction) {
  const values = { name: String(form.get('name') ?? '').trim(), schema: String(form.get('schema') ?? '') }
  const fieldErrors: Record<string, string[]> = {}
  if (!values.name) fieldErrors.name = [t('validation:required')]
  const schema = readSchemaText(values.schema, t)
  if (!schema.ok) fieldErrors.schema = schema.errors
  return schema.ok && Object.keys(fieldErrors).length === 0 ? { ok: true as const, values, schema: schema.value } : { ok: false as const, values, fieldErrors }
}

import { useState } from 'react'
import { ErrorList } from '#app/components/forms.tsx'
import { Select } from '#app/components/ui/select.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { classifyJsonError } from '#common/json-text.ts'

/**
 * The JSON text of a registrar template: said as you type when it is not JSON (spec §5's parse
 * messages, in the user's language), and checked as a JSON Schema by the API on submit. Without
 * JavaScript it is a plain textarea and the submit says the same.
 */
export function SchemaEditor({ id, name, defaultValue, errors }: { id: string; name: string; defaultValue: string; errors?: string[] | undefined }) {
  const { t } = useTranslation('pricing')
  const [live, setLive] = useState<string | null>(null)
  const onChange = (event: React.ChangeEvent<HTMLTextAreaElement>) => {
    const text = event.target.value
    try {
      JSON.parse(text)
      setLive(null)
    } catch (error) {
      const parsed = classifyJsonError(text, error)
      setLive(t(`validation:${parsed.kind}`, { position: parsed.position ?? 0, token: parsed.token ?? '' }))
    }
  }
  const shown = live ? [live] : errors
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {t('templates.fields.schema')}
      </label>
      <textarea
        id={id}
        name={name}
        defaultValue={defaultValue}
        onChange={onChange}
        rows={18}
        spellCheck={false}
        aria-invalid={shown?.length ? true : undefined}
        aria-describedby={shown?.length ? `${id}-error` : undefined}
        className="rounded-md border border-slate-300 bg-transparent px-3 py-2 font-mono text-xs leading-5 aria-[invalid=true]:border-red-600 dark:border-slate-700"
      />
      <ErrorList id={`${id}-error`} errors={shown} />
    </div>
  )
}

type FieldSchema = { type?: string | string[]; enum?: unknown[]; maxLength?: number; ui?: { widget?: string; label?: Record<string, string> | string; help?: string | Record<string, string> } }
export type TemplateSchema = { properties?: Record<string, FieldSchema>; required?: string[] }

type TemplateFieldsProps = {
  schema: TemplateSchema
  lng: string
  /** The form names' prefix: `template.` in the editor's preview, `template.<cart item id>.` in the cart. */
  prefix?: string
  values?: Record<string, string> | undefined
  errors?: Record<string, string[]> | undefined
}

/** The fields a template asks for, rendered as the cart renders them (server-side, no JavaScript needed). */
export function TemplateFields({ schema, lng, prefix = 'template.', values, errors }: TemplateFieldsProps) {
  const say = (text: string | Record<string, string> | undefined, fallback: string) => (typeof text === 'string' ? text : (text?.[lng] ?? text?.[lng.split('-')[0]!] ?? text?.en ?? fallback))
  const required = new Set(schema.required ?? [])
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="template-fields">
      {Object.entries(schema.properties ?? {}).map(([key, field]) => {
        const id = `${prefix}${key}`.replace(/[^a-zA-Z0-9_-]/g, '-')
        const fieldErrors = errors?.[key]
        const common = { id, name: `${prefix}${key}`, defaultValue: values?.[key] ?? '', 'aria-invalid': fieldErrors ? true : undefined, 'aria-describedby': fieldErrors ? `${id}-error` : undefined }
        return (
          <div key={key} className="flex flex-col gap-1.5 text-sm">
            <label htmlFor={id} className="font-medium">
              {say(field.ui?.label, key)}
              {required.has(key) ? ' *' : ''}
            </label>
            {field.enum ? (
              <Select {...common}>
                <option value="">—</option>
                {field.enum.map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </Select>
            ) : (
              <Input {...common} maxLength={field.maxLength} />
            )}
            {field.ui?.help ? <span className="text-xs text-slate-500">{say(field.ui.help, '')}</span> : null}
            <ErrorList id={`${id}-error`} errors={fieldErrors} />
          </div>
        )
      })}
    </div>
  )
}

/**
 * A template's form values as JSON for its schema: an empty field is left out (or null when the
 * schema allows null), a number or a boolean where the schema asks for one and the text is one.
 */
export function templateValuesOf(schema: TemplateSchema, get: (key: string) => string | null): { values: Record<string, unknown>; texts: Record<string, string> } {
  const values: Record<string, unknown> = {}
  const texts: Record<string, string> = {}
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const text = (get(key) ?? '').trim()
    texts[key] = text
    const types = Array.isArray(field.type) ? field.type : field.type ? [field.type] : []
    if (text === '') {
      if (types.includes('null')) values[key] = null
      continue
    }
    if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text) && !types.includes('string')) values[key] = Number(text)
    else if (types.includes('boolean') && (text === 'true' || text === 'false') && !types.includes('string')) values[key] = text === 'true'
    else values[key] = text
  }
  return { values, texts }
}

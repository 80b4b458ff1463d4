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
      <label htmlFor={id} className="text-sm font-medium">{t('templates.fields.schema')}</label>
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

type FieldSchema = { type?: string | string[]; enum?: unknown[]; maxLength?: number; ui?: { widget?: string; label?: Record<string, string>; help?: string | Record<string, string> } }

/** The fields a template asks for, rendered as the cart will render them (server-side, no JavaScript needed). */
export function TemplateFields({ schema, lng }: { schema: { properties?: Record<string, FieldSchema>; required?: string[] }; lng: string }) {
  const say = (text: string | Record<string, string> | undefined, fallback: string) => (typeof text === 'string' ? text : (text?.[lng] ?? text?.en ?? fallback))
  const required = new Set(schema.required ?? [])
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="template-fields">
      {Object.entries(schema.properties ?? {}).map(([key, field]) => (
        <label key={key} className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium">
            {say(field.ui?.label, key)}
            {required.has(key) ? ' *' : ''}
          </span>
          {field.enum ? (
            <Select name={`template.${key}`} defaultValue="">
              <option value="">—</option>
              {field.enum.map((v) => <option key={String(v)} value={String(v)}>{String(v)}</option>)}
            </Select>
          ) : (
            <Input name={`template.${key}`} maxLength={field.maxLength} />
          )}
          {field.ui?.help ? <span className="text-xs text-slate-500">{say(field.ui.help, '')}</span> : null}
        </label>
      ))}
    </div>
  )
}

import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import localize from 'ajv-i18n'
import { classifyJsonError } from './json-text.ts'

// ajv and ajv-formats are CommonJS with a `default` export; unwrap for either module system.
type AjvClass = typeof AjvModule.default
const Ajv: AjvClass = (AjvModule as unknown as { default?: AjvClass }).default ?? (AjvModule as unknown as AjvClass)
type AddFormats = typeof addFormatsModule.default
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)

/**
 * The schema validation helper of spec §5: 'ui' keys are removed before compiling, all errors
 * are collected, union types are accepted. Errors come back as data path, message and (when
 * present) the allowed values joined by commas, in the requested language.
 */
export type SchemaError = { path: string; message: string; allowed?: string }
export type Translate = (key: string, values?: Record<string, unknown>) => string
type Schema = Record<string, unknown>

const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strict: false })
addFormats(ajv)
const compiled = new WeakMap<Schema, ValidateFunction>()

/** Deep copy of a schema without its `ui` keys (display hints that are not JSON Schema). */
export function stripUiKeys<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(stripUiKeys) as T
  if (!schema || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(schema)) if (k !== 'ui') out[k] = stripUiKeys(v)
  return out as T
}

function compile(schema: Schema): ValidateFunction {
  let fn = compiled.get(schema)
  if (!fn) {
    fn = ajv.compile(stripUiKeys(schema))
    compiled.set(schema, fn)
  }
  return fn
}

const localizers = localize as unknown as Record<string, ((errors: ErrorObject[] | null | undefined) => void) | undefined>

function toErrors(errors: ErrorObject[] | null | undefined, lng: string): SchemaError[] {
  if (!errors?.length) return []
  const copy = errors.map((e) => ({ ...e }))
  ;(localizers[lng] ?? localizers[lng.split('-')[0]!] ?? localizers.en)?.(copy)
  return copy.map((e) => {
    const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues
    // An undeclared or a missing property is reported at its own path, so a form shows it beside its field.
    const path =
      e.keyword === 'additionalProperties'
        ? `${e.instancePath}/${String((e.params as { additionalProperty?: string }).additionalProperty)}`
        : e.keyword === 'required'
          ? `${e.instancePath}/${String((e.params as { missingProperty?: string }).missingProperty)}`
          : e.instancePath
    return { path: path || '/', message: e.message ?? '', ...(allowed ? { allowed: allowed.map(String).join(', ') } : {}) }
  })
}

/** Validates data against a schema; an empty list means valid. */
export function validate(schema: Schema, data: unknown, lng = 'en'): SchemaError[] {
  const fn = compile(schema)
  return fn(data) ? [] : toErrors(fn.errors, lng)
}

export { classifyJsonError, type JsonParseErrorKind } from './json-text.ts'

/**
 * A validator for JSON text: parse first (localised parse errors), then validate against the
 * schema (ajv-i18n messages in the language).
 */
export function jsonTextValidator(schema: Schema, t: Translate, lng = 'en') {
  return (text: string): { ok: true; value: unknown } | { ok: false; errors: SchemaError[] } => {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      const parsed = classifyJsonError(text, error)
      return { ok: false, errors: [{ path: '/', message: t(`validation:${parsed.kind}`, { position: parsed.position ?? 0, token: parsed.token ?? '' }) }] }
    }
    const errors = validate(schema, value, lng)
    return errors.length ? { ok: false, errors } : { ok: true, value }
  }
}

/**
 * Why a schema is not a JSON Schema ajv can compile (its `ui` keys removed first), or an empty
 * list: each problem as path and message, as `validate` reports data errors.
 */
export function schemaProblems(schema: unknown): SchemaError[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return [{ path: '/', message: 'must be an object' }]
  const stripped = stripUiKeys(schema as Schema)
  if (!ajv.validateSchema(stripped)) return toErrors(ajv.errors, 'en')
  try {
    ajv.compile(stripped)
    return []
  } catch (error) {
    return [{ path: '/', message: error instanceof Error ? error.message : String(error) }]
  }
}

/** Properties of an object that the schema does not declare. */
export function undeclaredProperties(schema: Schema, data: unknown): string[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return []
  const declared = new Set(Object.keys((stripUiKeys(schema).properties as Record<string, unknown> | undefined) ?? {}))
  return Object.keys(data).filter((k) => !declared.has(k))
}

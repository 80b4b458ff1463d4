import { getInputProps as conformInputProps, getSelectProps as conformSelectProps, getTextareaProps as conformTextareaProps, type FieldMetadata } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import type { z } from 'zod'

/**
 * The attributes of a form control from its conform field: conform's `getInputProps`,
 * `getSelectProps` and `getTextareaProps`, the same attributes in the same order, at a third of
 * the cost on the server (issue 13).
 *
 * Each property read on a conform field builds that field's whole metadata anew (a Proxy over an
 * object of sixteen getters), and conform's helpers read up to sixteen of them per control — two
 * fields cost the sign-in page ~15 % of its server CPU. The constraint attributes (required,
 * minLength, pattern …) never change, and the form knew them before the field existed: the fields
 * of `useZodForm` answer those themselves (`withConstraints`), so a control costs two reads of
 * conform's field (errors, initial value). Those reads are the ones that tell conform what the
 * component shows, so it re-renders the control as before when its errors or value change. A field that did not come
 * from `useZodForm` (a fieldset's, a list's) and the options this path does not know go to conform's
 * own helper.
 */

type Constraint = {
  required?: boolean
  minLength?: number
  maxLength?: number
  min?: string | number
  max?: string | number
  step?: string | number
  pattern?: string
  multiple?: boolean
  accept?: string
}
type Field = FieldMetadata<any, any, any>
type AriaOptions = { ariaAttributes?: boolean; ariaInvalid?: 'errors' | 'allErrors'; ariaDescribedBy?: string }
type InputOptions = AriaOptions & { type: Parameters<typeof conformInputProps>[1]['type']; value?: string | boolean }
type ValueOptions = AriaOptions & { value?: boolean }

const constraints = new WeakMap<z.ZodType, ReturnType<typeof getZodConstraint>>()

/** conform's field constraints of a schema (required, maxLength …), worked out once per schema. */
export function constraintOf(schema: z.ZodType): ReturnType<typeof getZodConstraint> {
  let constraint = constraints.get(schema)
  if (!constraint) constraints.set(schema, (constraint = getZodConstraint(schema)))
  return constraint
}

const KNOWN = Symbol('known')
const CONFORM = Symbol('conform')
type Known = { name: string; id: string; formId: string; constraint: Constraint }
const CONSTRAINT_KEYS = new Set(['required', 'minLength', 'maxLength', 'min', 'max', 'step', 'pattern', 'multiple', 'accept'])

/**
 * The fields of a form whose id and constraint are known. A field read from them answers what
 * never changes — its name, its ids (`${formId}-${name}`, as conform makes them), its constraint
 * attributes — itself, and hands every other read (errors, initial value …) to conform's field.
 */
export function withConstraints<Fields extends object>(fields: Fields, formId: string, constraint: Record<string, Constraint> | undefined): Fields {
  if (!constraint) return fields
  return new Proxy(fields, {
    get(target, key) {
      const field: unknown = Reflect.get(target, key)
      if (typeof key !== 'string' || typeof field !== 'object' || field === null) return field
      const id = `${formId}-${key}`
      const known: Known = { name: key, id, formId, constraint: constraint[key] ?? {} }
      const fixed: Record<string, unknown> = { name: key, id, formId, errorId: `${id}-error`, descriptionId: `${id}-description` }
      return new Proxy(field, {
        get(inner, property) {
          if (property === KNOWN) return known
          if (property === CONFORM) return inner
          if (typeof property === 'string') {
            if (property in fixed) return fixed[property]
            if (CONSTRAINT_KEYS.has(property)) return known.constraint[property as keyof Constraint]
          }
          return Reflect.get(inner, property)
        },
      })
    },
  })
}

/** conform's own field behind one of `withConstraints` (what the tests compare with). */
export const conformField = <F extends object>(field: F): F => (field as unknown as Record<symbol, F | undefined>)[CONFORM] ?? field

/** What the fast path needs of a field, or null when conform's own helper must answer. */
function control(field: Field, options: AriaOptions) {
  const known = (field as unknown as Record<symbol, Known | undefined>)[KNOWN]
  if (!known || options.ariaInvalid === 'allErrors') return null
  const { name, id, formId, constraint } = known
  const errors: unknown = field.errors
  const invalid = typeof errors !== 'undefined'
  const props: Record<string, unknown> = {}
  if (constraint.required) props.required = true
  props.id = id
  props.name = name
  props.form = formId
  if (options.ariaAttributes === undefined || options.ariaAttributes) {
    if (invalid) props['aria-invalid'] = true
    const describedBy = invalid ? `${id}-error ${options.ariaDescribedBy ?? ''}`.trim() : options.ariaDescribedBy
    if (describedBy !== undefined) props['aria-describedby'] = describedBy
  }
  return { props, constraint, initialValue: field.initialValue as unknown }
}

function assign(props: Record<string, unknown>, key: string, value: unknown) {
  if (value !== undefined) props[key] = value
}

export function getInputProps(field: Field, options: InputOptions): ReturnType<typeof conformInputProps> {
  const found = control(field, options)
  if (!found) return conformInputProps(field, options as never)
  const { props, constraint, initialValue } = found
  props.type = options.type
  assign(props, 'minLength', constraint.minLength)
  assign(props, 'maxLength', constraint.maxLength)
  assign(props, 'min', constraint.min)
  assign(props, 'max', constraint.max)
  assign(props, 'step', constraint.step)
  assign(props, 'pattern', constraint.pattern)
  assign(props, 'multiple', constraint.multiple)
  assign(props, 'accept', constraint.accept)
  if (typeof options.value === 'undefined' || options.value) {
    if (options.type === 'checkbox' || options.type === 'radio') {
      props.value = typeof options.value === 'string' ? options.value : 'on'
      props.defaultChecked = Array.isArray(initialValue) ? initialValue.includes(options.value) : initialValue === props.value
    } else if (typeof initialValue === 'string') {
      props.defaultValue = initialValue
    }
  }
  return props as ReturnType<typeof conformInputProps>
}

export function getSelectProps(field: Field, options: ValueOptions = {}): ReturnType<typeof conformSelectProps> {
  const found = control(field, options)
  if (!found) return conformSelectProps(field, options)
  const { props, constraint, initialValue } = found
  assign(props, 'multiple', constraint.multiple)
  if (typeof options.value === 'undefined' || options.value) {
    assign(props, 'defaultValue', Array.isArray(initialValue) ? initialValue.map((item) => `${item ?? ''}`) : (initialValue as { toString(): string } | null | undefined)?.toString())
  }
  return props as ReturnType<typeof conformSelectProps>
}

export function getTextareaProps(field: Field, options: ValueOptions = {}): ReturnType<typeof conformTextareaProps> {
  const found = control(field, options)
  if (!found) return conformTextareaProps(field, options)
  const { props, constraint, initialValue } = found
  assign(props, 'minLength', constraint.minLength)
  assign(props, 'maxLength', constraint.maxLength)
  if (typeof options.value === 'undefined' || options.value) assign(props, 'defaultValue', (initialValue as { toString(): string } | null | undefined)?.toString())
  return props as ReturnType<typeof conformTextareaProps>
}

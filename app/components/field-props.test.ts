import { getInputProps as conformInputProps, getSelectProps as conformSelectProps, getTextareaProps as conformTextareaProps, type SubmissionResult } from '@conform-to/react'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { conformField, getInputProps, getSelectProps, getTextareaProps } from './field-props.ts'
import { useZodForm } from './forms.tsx'

// The fast path must give exactly what conform's helpers give (same attributes, same order, so the
// same HTML and no hydration difference), for every kind of field and state it takes.
const schema = z.object({
  name: z.string().min(2).max(40),
  code: z.string().regex(/^[A-Z]{3}$/),
  note: z.string().max(500).optional(),
  amount: z.number().min(1).max(99),
  agree: z.boolean(),
  colour: z.enum(['red', 'blue']),
  tags: z.array(z.string()).min(1),
  file: z.instanceof(File).optional(),
})

type Props = Record<string, unknown>
function rendered(lastResult: SubmissionResult<string[]> | null, defaultValue?: Record<string, unknown>) {
  const pairs: Array<[string, Props, Props]> = []
  function Probe() {
    const [, fields] = useZodForm(schema, { id: 'probe', lastResult, ...(defaultValue ? { defaultValue } : {}) })
    for (const type of ['text', 'email', 'password', 'number', 'hidden'] as const) {
      pairs.push([`name as ${type}`, getInputProps(fields.name, { type }), conformInputProps(conformField(fields.name), { type })])
    }
    pairs.push(['code', getInputProps(fields.code, { type: 'text' }), conformInputProps(conformField(fields.code), { type: 'text' })])
    pairs.push(['code without value', getInputProps(fields.code, { type: 'text', value: false }), conformInputProps(conformField(fields.code), { type: 'text', value: false })])
    pairs.push(['code described', getInputProps(fields.code, { type: 'text', ariaDescribedBy: 'hint' }), conformInputProps(conformField(fields.code), { type: 'text', ariaDescribedBy: 'hint' })])
    pairs.push(['code without aria', getInputProps(fields.code, { type: 'text', ariaAttributes: false }), conformInputProps(conformField(fields.code), { type: 'text', ariaAttributes: false })])
    pairs.push(['amount', getInputProps(fields.amount, { type: 'number' }), conformInputProps(conformField(fields.amount), { type: 'number' })])
    pairs.push(['agree', getInputProps(fields.agree, { type: 'checkbox' }), conformInputProps(conformField(fields.agree), { type: 'checkbox' })])
    pairs.push(['colour red', getInputProps(fields.colour, { type: 'radio', value: 'red' }), conformInputProps(conformField(fields.colour), { type: 'radio', value: 'red' })])
    pairs.push(['colour blue', getInputProps(fields.colour, { type: 'radio', value: 'blue' }), conformInputProps(conformField(fields.colour), { type: 'radio', value: 'blue' })])
    pairs.push(['tag', getInputProps(fields.tags, { type: 'checkbox', value: 'a' }), conformInputProps(conformField(fields.tags), { type: 'checkbox', value: 'a' })])
    pairs.push(['file', getInputProps(fields.file, { type: 'file' }), conformInputProps(conformField(fields.file), { type: 'file' })])
    pairs.push(['colour select', getSelectProps(fields.colour), conformSelectProps(conformField(fields.colour))])
    pairs.push(['tags select', getSelectProps(fields.tags), conformSelectProps(conformField(fields.tags))])
    pairs.push(['note', getTextareaProps(fields.note), conformTextareaProps(conformField(fields.note))])
    pairs.push(['note without value', getTextareaProps(fields.note, { value: false }), conformTextareaProps(conformField(fields.note), { value: false })])
    const field = fields.name
    pairs.push(['the fields of useZodForm answer for themselves', { wrapped: true }, { wrapped: conformField(field) !== field }])
    // What a screen reads of a field itself (its ids, its constraint) is conform's answer too.
    for (const name of ['name', 'code', 'note', 'amount', 'agree', 'colour', 'tags', 'file'] as const) {
      const ours = fields[name] as unknown as Record<string, unknown>
      const conforms = conformField(fields[name]) as unknown as Record<string, unknown>
      const keys = ['id', 'name', 'formId', 'errorId', 'descriptionId', 'required', 'minLength', 'maxLength', 'min', 'max', 'step', 'pattern', 'multiple', 'accept', 'errors', 'initialValue']
      pairs.push([`${name} metadata`, Object.fromEntries(keys.map((key) => [key, ours[key]])), Object.fromEntries(keys.map((key) => [key, conforms[key]]))])
    }
    return null
  }
  renderToString(createElement(Probe))
  return pairs
}

function expectSame(pairs: Array<[string, Props, Props]>) {
  for (const [what, ours, conforms] of pairs) expect({ what, props: Object.entries(ours) }).toEqual({ what, props: Object.entries(conforms) })
}

describe('field props', () => {
  it('are conform’s for an empty form', () => {
    expectSame(rendered(null))
  })

  it('are conform’s with default values', () => {
    expectSame(rendered(null, { name: 'Ada', code: 'ABC', note: 'n', amount: 5, agree: true, colour: 'blue', tags: ['a', 'b'] }))
  })

  it('are conform’s for an answer with errors and what was typed', () => {
    const lastResult: SubmissionResult<string[]> = {
      status: 'error',
      initialValue: { name: 'A', code: 'abc', note: 'x', amount: '0', agree: 'on', colour: 'red', tags: ['a'] },
      error: { name: ['Too short'], code: ['Bad code'], amount: ['Too small'], tags: ['Pick one'], colour: ['Pick one'], note: ['Too long'] },
    }
    const pairs = rendered(lastResult)
    expectSame(pairs)
    // The answer really reached the fields (an invalid field says so, and keeps what was typed).
    expect(pairs.find(([what]) => what === 'code')![1]).toMatchObject({ required: true, 'aria-invalid': true, 'aria-describedby': 'probe-code-error', defaultValue: 'abc' })
    expect(pairs.find(([what]) => what === 'name as text')![1]).toMatchObject({ required: true, defaultValue: 'A' })
  })
})

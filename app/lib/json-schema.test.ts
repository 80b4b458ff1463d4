import i18next from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { serverI18nOptions } from './i18n-resources.server.ts'
import { classifyJsonError, jsonTextValidator, schemaProblems, stripUiKeys, undeclaredProperties, validate } from './json-schema.ts'

const schema = {
  type: 'object',
  ui: { order: ['name'] },
  properties: { name: { type: 'string', ui: { widget: 'text' } }, ttl: { type: ['integer', 'string'] }, kind: { enum: ['a', 'b'] } },
  required: ['name'],
  additionalProperties: false,
}

const kindOf = (text: string) => {
  try {
    JSON.parse(text)
    return null
  } catch (error) {
    return classifyJsonError(text, error).kind
  }
}

describe('schema helper', () => {
  beforeAll(async () => {
    await i18next.init({ ...serverI18nOptions, lng: 'en' })
  })

  it('removes ui keys before compiling', () => {
    expect(stripUiKeys(schema)).not.toHaveProperty('ui')
    expect(stripUiKeys(schema).properties.name).toEqual({ type: 'string' })
  })

  it('collects all errors, accepts union types and joins allowed values', () => {
    expect(validate(schema, { name: 'x', ttl: '300' })).toEqual([])
    expect(validate(schema, { name: 'x', ttl: 300 })).toEqual([])
    const errors = validate(schema, { ttl: true, kind: 'c', extra: 1 })
    expect(errors.length).toBeGreaterThanOrEqual(4)
    expect(errors.find((e) => e.path === '/kind')).toMatchObject({ allowed: 'a, b' })
    expect(errors.find((e) => e.path === '/extra')).toBeTruthy()
  })

  it('translates schema messages with ajv-i18n', () => {
    const [en] = validate(schema, {}, 'en')
    const [es] = validate(schema, {}, 'es')
    expect(en!.message).not.toBe(es!.message)
  })

  it('lists undeclared properties', () => {
    expect(undeclaredProperties(schema, { name: 'x', extra: 1, more: 2 })).toEqual(['extra', 'more'])
  })

  it('classifies every parse-error kind', () => {
    expect(kindOf('{"a":}')).toBe('jsonUnexpectedToken')
    expect(kindOf('[1] 2')).toBe('jsonNonWhitespace')
    expect(kindOf('{"a":1')).toBe('jsonUnexpectedEnd')
    expect(kindOf('')).toBe('jsonUnexpectedEnd')
    expect(kindOf('"a\tb"')).toBe('jsonInvalidCharacter')
    expect(kindOf('{a:1}')).toBe('jsonParseError')
  })

  it('gives localised parse messages from the JSON text validator', () => {
    const en = jsonTextValidator(schema, i18next.getFixedT('en'), 'en')
    const ja = jsonTextValidator(schema, i18next.getFixedT('ja'), 'ja')
    expect(en('[1] 2')).toEqual({ ok: false, errors: [{ path: '/', message: 'Unexpected text after the JSON at position 4' }] })
    expect(ja('{"a":1')).toEqual({ ok: false, errors: [{ path: '/', message: 'JSON が途中で終わっています' }] })
    expect(en('{"name":"x"}')).toEqual({ ok: true, value: { name: 'x' } })
    expect(en('{}')).toMatchObject({ ok: false })
  })
})

describe('schemaProblems', () => {
  it('accepts a JSON Schema with ui keys and names what makes another one invalid', () => {
    expect(schemaProblems({ type: 'object', properties: { a: { type: ['string', 'null'], ui: { widget: 'text' } } } })).toEqual([])
    expect(schemaProblems({ type: 'strin' })[0]!.path).toBe('/type')
    expect(schemaProblems([])).toEqual([{ path: '/', message: 'must be an object' }])
  })
})

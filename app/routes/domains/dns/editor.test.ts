import { parseWithZod } from '@conform-to/zod/v4'
import i18next, { type TFunction } from 'i18next'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { refusalErrors } from '#app/lib/refusal.server.ts'
import { editorSchema, origOf, rowFields, toChanges } from './editor.ts'

const t = ((key: string) => key) as unknown as TFunction

function form(rows: Record<string, string>[], extra: Record<string, string> = {}) {
  const f = new FormData()
  rows.forEach((r, i) => {
    for (const [k, v] of Object.entries(r)) f.append(`records[${i}].${k}`, v)
  })
  for (const [k, v] of Object.entries(extra)) f.append(k, v)
  return f
}

describe('record editor rows', () => {
  const orig = origOf({ name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1' })

  it('turns changed, removed and new rows into one change set, skipping unchanged and blank rows', () => {
    const submission = parseWithZod(
      form(
        [
          { id: 'id-a', orig, name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1' },
          { id: 'id-b', orig, name: 'www', type: 'A', ttl: '300', content: '192.0.2.2' },
          { id: 'id-c', orig, name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1', remove: 'on' },
          { name: '@', type: 'mx', ttl: '', content: ' 10 mail ' },
          { name: '', type: 'A', ttl: '', content: '' },
        ],
        { intent: 'preview' },
      ),
      { schema: editorSchema(t) },
    )
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    const { changes, index } = toChanges(submission.value.records)
    expect(changes).toEqual([
      { action: 'update', id: 'id-b', ttl: 300, content: '192.0.2.2' },
      { action: 'delete', id: 'id-c' },
      { action: 'add', name: '@', type: 'MX', content: '10 mail' },
    ])
    expect(index).toEqual([1, 2, 3])
  })

  it('refuses a TTL that is not a number and a new row without content beside the row, everything typed kept', () => {
    const submission = parseWithZod(
      form([
        { name: 'x', type: 'A', ttl: 'soon', content: '192.0.2.1' },
        { name: 'y', type: 'A', ttl: '', content: '' },
      ]),
      { schema: editorSchema(t) },
    )
    expect(submission.status).toBe('error')
    const reply = submission.reply()
    expect(reply.error).toEqual({ 'records[0].ttl': ['dns:editor.ttlNumber'], 'records[1].content': ['dns:editor.contentRequired'] })
    expect(reply.initialValue).toEqual({
      records: [
        { name: 'x', type: 'A', ttl: 'soon', content: '192.0.2.1' },
        { name: 'y', type: 'A' },
      ],
    })
  })

  it('"Add a row" without JavaScript: the rows as typed and one more', () => {
    const f = form([{ name: 'x', type: 'A', ttl: '60', content: '192.0.2.1' }])
    f.append('__intent__', JSON.stringify({ type: 'insert', payload: { name: 'records', defaultValue: { type: 'A' } } }))
    const submission = parseWithZod(f, { schema: editorSchema(t) })
    expect(submission.status).toBeUndefined()
    expect(submission.reply().initialValue).toEqual({ records: [{ name: 'x', type: 'A', ttl: '60', content: '192.0.2.1' }, { type: 'A' }] })
  })

  it('puts the platform errors of change i on the row of change i', () => {
    const { fields, alias } = rowFields([1, 3])
    const errors = refusalErrors(
      t,
      {
        errors: [
          { field: 'changes.1.content', message: 'bad address' },
          { field: 'changes.0', message: 'CNAME not alone' },
          { field: 'changes', message: 'needs NS' },
        ],
      },
      fields,
      alias,
    )
    expect(errors).toEqual({ fieldErrors: { 'records[3].content': ['bad address'], 'records[1]': ['CNAME not alone'] }, formErrors: ['needs NS'] })
  })
})

describe("the platform's record refusals in the user's words (issue 28)", () => {
  const words = async (lng: string) => {
    const messages = (l: string) => ({ dns: JSON.parse(readFileSync(new URL(`../../../../locales/${l}/dns.json`, import.meta.url), 'utf8')) })
    const i18n = i18next.createInstance()
    await i18n.init({ lng, fallbackLng: 'en', resources: { en: messages('en'), ja: messages('ja') }, interpolation: { escapeValue: false } })
    return i18n.t
  }
  // As POST …/changes answers a CNAME to an address (server/platform/dns/changes.ts).
  const problem = {
    type: 'https://registrar.example/problems/invalid-request',
    code: 'invalid-request',
    detail: 'The change set is not valid',
    errors: [
      {
        field: 'changes.0.content',
        code: 'dns.record.target-address',
        message: "CNAME target '192.0.2.159' is an IP address, not a host name: an address belongs in an A or AAAA record",
        record_type: 'CNAME',
        value: '192.0.2.159',
        example: 'www.example.com.',
      },
    ],
  }

  it('says a coded error beside its row and field, naming the field, in English and Japanese, never a column', async () => {
    const { fields, alias } = rowFields([2])
    const en = refusalErrors(await words('en'), problem, fields, alias, 'dns')
    expect(en).toEqual({
      fieldErrors: { 'records[2].content': ['Content: 192.0.2.159 is an IP address, but a CNAME record points to a host name: put an address in an A or AAAA record. Example: www.example.com.'] },
      formErrors: [],
    })
    const ja = refusalErrors(await words('ja'), problem, fields, alias, 'dns')
    expect(ja.fieldErrors['records[2].content']).toEqual([
      '内容: 192.0.2.159 は IP アドレスですが、CNAME レコードはホスト名を指します。アドレスは A または AAAA レコードに入れてください。例: www.example.com.',
    ])
  })
})

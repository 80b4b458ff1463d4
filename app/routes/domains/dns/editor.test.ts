import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
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

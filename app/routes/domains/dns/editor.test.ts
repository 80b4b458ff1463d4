import { describe, expect, it } from 'vitest'
import { errorsOnRows, origOf, readRows, toChanges } from './editor.ts'

const messages = { ttlNumber: 'ttl must be a number', contentRequired: 'content required' }

function form(rows: Record<string, string>[]) {
  const f = new FormData()
  for (const r of rows) {
    f.append('row', r.key!)
    for (const [k, v] of Object.entries(r)) if (k !== 'key') f.append(`${r.key}.${k}`, v)
  }
  return f
}

describe('record editor rows', () => {
  const orig = origOf({ name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1' })

  it('turns changed, removed and new rows into one change set, skipping unchanged and blank rows', () => {
    const rows = readRows(
      form([
        { key: 'a', id: 'id-a', orig, name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1' },
        { key: 'b', id: 'id-b', orig, name: 'www', type: 'A', ttl: '300', content: '192.0.2.2' },
        { key: 'c', id: 'id-c', orig, name: 'www', type: 'A', ttl: '3600', content: '192.0.2.1', remove: 'on' },
        { key: 'new-0', name: '@', type: 'mx', ttl: '', content: '10 mail' },
        { key: 'new-1', name: '', type: 'A', ttl: '', content: '' },
      ]),
    )
    const { changes, index, errors } = toChanges(rows, messages)
    expect(changes).toEqual([
      { action: 'update', id: 'id-b', ttl: 300, content: '192.0.2.2' },
      { action: 'delete', id: 'id-c' },
      { action: 'add', name: '@', type: 'MX', content: '10 mail' },
    ])
    expect(index).toEqual(['b', 'c', 'new-0'])
    expect(errors).toEqual({})
  })

  it('reports a TTL that is not a number and a new row without content on the row', () => {
    const rows = readRows(
      form([
        { key: 'new-0', name: 'x', type: 'A', ttl: 'soon', content: '192.0.2.1' },
        { key: 'new-1', name: 'y', type: 'A', ttl: '', content: '' },
      ]),
    )
    expect(toChanges(rows, messages).errors).toEqual({ 'new-0': { ttl: ['ttl must be a number'] }, 'new-1': { content: ['content required'] } })
  })

  it('puts the platform errors of change i on the row of change i', () => {
    const errors = errorsOnRows(
      [
        { field: 'changes.1.content', message: 'bad address' },
        { field: 'changes.0', message: 'CNAME not alone' },
        { field: 'changes', message: 'needs NS' },
      ],
      ['b', 'new-0'],
    )
    expect(errors).toEqual({ 'new-0': { content: ['bad address'] }, b: { row: ['CNAME not alone'] }, '': { form: ['needs NS'] } })
  })
})

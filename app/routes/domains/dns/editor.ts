/**
 * The multi-record editor as a plain form: one row per record (existing rows carry their id and
 * original values), blank rows add records. The server turns the rows into one change set and
 * maps the platform's per-change errors (`changes.<i>.<field>`) back onto the rows, so a refused
 * edit comes back exactly as typed with each message beside its field.
 */
export type EditorRow = { key: string; id: string; name: string; type: string; ttl: string; content: string; remove: boolean; orig: string }
export type RecordChange =
  | { action: 'add'; name: string; type: string; ttl?: number; content: string }
  | { action: 'update'; id: string; name?: string; type?: string; ttl?: number; content?: string }
  | { action: 'delete'; id: string }
export type RowErrors = Record<string, Record<string, string[]>>

const MAX_ROWS = 2000
const text = (form: FormData, name: string, max: number) => {
  const v = form.get(name)
  return typeof v === 'string' ? v.slice(0, max) : ''
}

/** The rows of a posted editor form, in the order of the form. */
export function readRows(form: FormData): EditorRow[] {
  const keys = form.getAll('row').filter((k): k is string => typeof k === 'string' && /^[\w-]{1,64}$/.test(k))
  return [...new Set(keys)].slice(0, MAX_ROWS).map((key) => ({
    key,
    id: text(form, `${key}.id`, 64),
    name: text(form, `${key}.name`, 300).trim(),
    type: text(form, `${key}.type`, 10).trim().toUpperCase(),
    ttl: text(form, `${key}.ttl`, 12).trim(),
    content: text(form, `${key}.content`, 70_000).trim(),
    remove: form.get(`${key}.remove`) === 'on',
    orig: text(form, `${key}.orig`, 71_000),
  }))
}

/** The original values of an existing row, as they were shown (JSON in a hidden field). */
export const origOf = (values: { name: string; type: string; ttl: string; content: string }) => JSON.stringify(values)

/** Rows → one change set; `index[i]` is the row of change i. Local problems (a TTL that is no number) come back as row errors. */
export function toChanges(rows: EditorRow[], messages: { ttlNumber: string; contentRequired: string }): { changes: RecordChange[]; index: string[]; errors: RowErrors } {
  const changes: RecordChange[] = []
  const index: string[] = []
  const errors: RowErrors = {}
  const problem = (key: string, field: string, message: string) => ((errors[key] ??= {})[field] ??= []).push(message)
  for (const row of rows) {
    let ttl: number | undefined
    if (row.ttl !== '') {
      if (!/^\d{1,10}$/.test(row.ttl)) {
        problem(row.key, 'ttl', messages.ttlNumber)
        continue
      }
      ttl = Number(row.ttl)
    }
    if (row.id) {
      if (row.remove) {
        changes.push({ action: 'delete', id: row.id })
        index.push(row.key)
        continue
      }
      let orig: Record<string, string>
      try {
        orig = JSON.parse(row.orig) as Record<string, string>
      } catch {
        orig = {}
      }
      const update: RecordChange & { action: 'update' } = { action: 'update', id: row.id }
      if (row.name !== orig.name) update.name = row.name || '@'
      if (row.type !== orig.type) update.type = row.type
      if (row.ttl !== orig.ttl && ttl !== undefined) update.ttl = ttl
      if (row.content !== orig.content) update.content = row.content
      if (Object.keys(update).length > 2) {
        changes.push(update)
        index.push(row.key)
      }
      continue
    }
    // A blank new row is simply unused.
    if (!row.content && !row.name && row.ttl === '') continue
    if (!row.content) {
      problem(row.key, 'content', messages.contentRequired)
      continue
    }
    changes.push({ action: 'add', name: row.name || '@', type: row.type || 'A', ...(ttl !== undefined ? { ttl } : {}), content: row.content })
    index.push(row.key)
  }
  return { changes, index, errors }
}

/** The platform's field errors (`changes.3.content`, `changes.3`, `changes`) on the rows; '' is the form. */
export function errorsOnRows(fieldErrors: { field?: string; message?: string }[], index: string[]): RowErrors {
  const out: RowErrors = {}
  for (const e of fieldErrors) {
    const m = /^changes\.(\d+)(?:\.(\w+))?$/.exec(e.field ?? '')
    const key = m ? index[Number(m[1])] : undefined
    const field = key ? (m?.[2] === 'id' ? 'row' : (m?.[2] ?? 'row')) : 'form'
    ;((out[key ?? ''] ??= {})[field] ??= []).push(e.message ?? '')
  }
  return out
}

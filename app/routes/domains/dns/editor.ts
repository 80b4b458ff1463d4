import type { TFunction } from 'i18next'
import { z } from 'zod'

/**
 * The record editor's form (conform + zod, like every form): a field list `records`, one item per
 * row — a saved record carries its `id` and the values it was shown with (`orig`), a new row has
 * neither; `remove` is a saved record's box. The server turns the rows into one change set and
 * puts the platform's per-change errors (`changes.<i>.<field>`) back on their rows
 * (`records[<row>].<field>`), so a refused edit comes back exactly as typed with each message
 * beside its field.
 */
export type RecordChange =
  | { action: 'add'; name: string; type: string; ttl?: number; content: string }
  | { action: 'update'; id: string; name?: string; type?: string; ttl?: number; content?: string }
  | { action: 'delete'; id: string }

/** The most rows one post may carry (a page of the list and the rows added to it). */
export const MAX_ROWS = 2000
const FIELDS = ['name', 'type', 'ttl', 'content'] as const

export function editorSchema(t: TFunction) {
  const max = (n: number) => t('validation:maxLength', { max: n })
  const row = z
    .object({
      id: z.string().max(64).optional(),
      orig: z.string().max(71_000).optional(),
      name: z.string().trim().max(300, max(300)).optional(),
      type: z.string().trim().toUpperCase().max(10, max(10)).optional(),
      ttl: z
        .string()
        .trim()
        .regex(/^\d{1,10}$/, t('dns:editor.ttlNumber'))
        .optional(),
      content: z.string().trim().max(70_000, max(70_000)).optional(),
      remove: z.boolean().optional(),
    })
    // A blank new row is simply unused; one with a name or TTL needs its content.
    .superRefine((r, ctx) => {
      if (!r.id && !r.content && (r.name || r.ttl)) ctx.addIssue({ code: 'custom', path: ['content'], message: t('dns:editor.contentRequired') })
    })
  return z.object({
    intent: z.enum(['preview', 'apply']).optional(),
    records: z.array(row).max(MAX_ROWS, max(MAX_ROWS)).default([]),
  })
}

export type EditorValue = z.output<ReturnType<typeof editorSchema>>
export type RecordRow = EditorValue['records'][number]

/** A row's values as shown, kept in the row (`orig`) so that only what is changed is sent. */
export const origOf = (values: { name: string; type: string; ttl: string; content: string }) => JSON.stringify(values)

/** Rows → one change set; `index[i]` is the row of change i. Unchanged saved rows and blank new rows send nothing. */
export function toChanges(rows: RecordRow[]): { changes: RecordChange[]; index: number[] } {
  const changes: RecordChange[] = []
  const index: number[] = []
  rows.forEach((row, i) => {
    const name = row.name ?? ''
    const content = row.content ?? ''
    const ttl = row.ttl === undefined || row.ttl === '' ? undefined : Number(row.ttl)
    if (row.id) {
      if (row.remove) {
        changes.push({ action: 'delete', id: row.id })
        index.push(i)
        return
      }
      let orig: Record<string, string>
      try {
        orig = JSON.parse(row.orig ?? '') as Record<string, string>
      } catch {
        orig = {}
      }
      const update: RecordChange & { action: 'update' } = { action: 'update', id: row.id }
      if (name !== orig.name) update.name = name || '@'
      if ((row.type ?? '') !== orig.type) update.type = row.type ?? ''
      if ((row.ttl ?? '') !== orig.ttl && ttl !== undefined) update.ttl = ttl
      if (content !== orig.content) update.content = content
      if (Object.keys(update).length > 2) {
        changes.push(update)
        index.push(i)
      }
      return
    }
    if (!content) return
    changes.push({ action: 'add', name: name || '@', type: row.type || 'A', ...(ttl !== undefined ? { ttl } : {}), content })
    index.push(i)
  })
  return { changes, index }
}

/**
 * The platform's fields of a change set as the form's: `changes.<i>.<field>` is the field of the
 * row of change i, `changes.<i>` (and its `.id`) that row; anything else is the form's. For
 * `refusalErrors(t, problem, fields, alias)`.
 */
export function rowFields(index: number[]): { fields: string[]; alias: Record<string, string> } {
  const alias: Record<string, string> = {}
  index.forEach((row, i) => {
    alias[`changes.${i}`] = alias[`changes.${i}.id`] = `records[${row}]`
    for (const field of FIELDS) alias[`changes.${i}.${field}`] = `records[${row}].${field}`
  })
  return { fields: [...new Set(Object.values(alias))], alias }
}

import type { Kysely } from 'kysely'
import { schemaProblems, undeclaredProperties, validate, type SchemaError } from '#common/json-schema.ts'
import { REGISTRAR_TEMPLATES_LIST } from '#common/lists/pricing.ts'
import type { DB } from '#server/db/schema.ts'
import type { RegistrarTemplate } from '#server/db/schema-pricing.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'

/**
 * Registrar templates (issue 17): the extra fields a registry needs for a TLD as a JSON Schema with
 * `ui` keys for the form, checked with spec §5's helper (ui keys removed, then compiled by ajv).
 */

export const templatesResource = listResource(REGISTRAR_TEMPLATES_LIST, {
  from: 'registrar_templates rt',
  tiebreak: 'rt.id',
  columns: {
    id: 'rt.id',
    name: 'rt.name',
    products: { column: '(SELECT count(*)::int FROM products p WHERE p.registrar_template_id = rt.id)', joined: true },
    version: 'rt.version',
    created_at: 'rt.created_at',
    updated_at: 'rt.updated_at',
  },
})

export const templateJson = (row: RegistrarTemplate) => ({ ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() })
export type TemplateJson = ReturnType<typeof templateJson>

function templateErrors(input: { name?: string; schema?: unknown }): CodedFieldError[] {
  const errors: CodedFieldError[] = []
  if (input.name !== undefined && !input.name.trim()) errors.push(fieldError('name', 'required', 'A name is required'))
  if (input.schema !== undefined) {
    const problems = schemaProblems(input.schema)
    if (problems.length) errors.push(fieldError('schema', 'template.schema_invalid', problems.map((p) => `${p.path}: ${p.message}${p.allowed ? ` (${p.allowed})` : ''}`).join('; ')))
  }
  return errors
}

export async function getTemplate(db: Kysely<DB>, scope: Scope, id: string): Promise<TemplateJson> {
  requirePermission(scope.actor, 'staff')
  const row = await db.selectFrom('registrar_templates').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Registrar template not found')
  return templateJson(row)
}

/** Makes a template (staff); a schema that is not valid JSON Schema is refused beside its field. */
export async function createTemplate(db: Kysely<DB>, scope: Scope, input: { name: string; schema: Record<string, unknown> }): Promise<TemplateJson> {
  requirePermission(scope.actor, 'staff')
  const errors = templateErrors(input)
  if (errors.length) throw invalid(errors[0]!.code, 'The registrar template is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    if (await tx.selectFrom('registrar_templates').select('id').where('name', '=', input.name.trim()).executeTakeFirst())
      throw invalid('template.name_taken', 'The name is taken', [fieldError('name', 'template.name_taken', 'Another template has this name')])
    const row = await tx
      .insertInto('registrar_templates')
      .values({ name: input.name.trim(), schema: JSON.stringify(input.schema) })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'products', entityType: 'registrar-template', entityId: row.id, action: 'create', after: templateJson(row) })
    return templateJson(row)
  })
}

/** Changes a template's name or schema (staff), with its version. */
export async function updateTemplate(db: Kysely<DB>, scope: Scope, id: string, patch: { name?: string; schema?: Record<string, unknown>; version: number }): Promise<TemplateJson> {
  requirePermission(scope.actor, 'staff')
  const { version, ...fields } = patch
  const errors = templateErrors(fields)
  if (errors.length) throw invalid(errors[0]!.code, 'The registrar template is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('registrar_templates').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Registrar template not found')
    if (before.version !== version) throw staleVersion(before.version)
    if (fields.name !== undefined && (await tx.selectFrom('registrar_templates').select('id').where('name', '=', fields.name.trim()).where('id', '<>', id).executeTakeFirst())) {
      throw invalid('template.name_taken', 'The name is taken', [fieldError('name', 'template.name_taken', 'Another template has this name')])
    }
    const after = await tx
      .updateTable('registrar_templates')
      .set({
        ...(fields.name !== undefined ? { name: fields.name.trim() } : {}),
        ...(fields.schema !== undefined ? { schema: JSON.stringify(fields.schema) } : {}),
        version: before.version + 1,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'products', entityType: 'registrar-template', entityId: id, action: 'update', before: templateJson(before), after: templateJson(after) })
    return templateJson(after)
  })
}

// ----------------------------------------------------------------------------- templates in the cart

export type ItemTemplate = { product_code: string; template_id: string; name: string; schema: Record<string, unknown> }

/**
 * The registrar templates of the domain products of these items (`domain:<tld>:<type>`), by
 * product code: what the cart asks for beside each item (only products that have one).
 */
export async function templatesOfItems(db: Kysely<DB>, items: readonly { tld: string; type: string }[]): Promise<Map<string, ItemTemplate>> {
  const codes = [...new Set(items.map((i) => `domain:${i.tld}:${i.type}`))]
  if (!codes.length) return new Map()
  const rows = await db
    .selectFrom('products as p')
    .innerJoin('registrar_templates as t', 't.id', 'p.registrar_template_id')
    .select(['p.code', 't.id', 't.name', 't.schema'])
    .where('p.code', 'in', codes)
    .where('p.is_active', '=', true)
    .execute()
  return new Map(rows.map((r) => [r.code, { product_code: r.code, template_id: r.id, name: r.name, schema: r.schema as Record<string, unknown> }]))
}

/**
 * The template values of each item checked against its product's template (spec §5's helper:
 * all errors, ui keys removed, undeclared properties refused): a value per item to keep on the
 * order item (null without a template), or errors at `template_values.<item id>.<property>`.
 */
export async function checkTemplateValues(
  db: Kysely<DB>,
  items: readonly { id: string; tld: string; type: string }[],
  values: Readonly<Record<string, Record<string, unknown>>> | undefined,
  fieldOf: (id: string, property: string) => string = (id, property) => `template_values.${id}.${property}`,
): Promise<{ kept: Map<string, string | null>; errors: { field: string; code: string; message: string }[] }> {
  const templates = await templatesOfItems(db, items)
  const kept = new Map<string, string | null>()
  const errors: { field: string; code: string; message: string }[] = []
  for (const item of items) {
    const template = templates.get(`domain:${item.tld}:${item.type}`)
    if (!template) {
      kept.set(item.id, null)
      continue
    }
    const given = values?.[item.id] ?? {}
    const problems: SchemaError[] = [
      ...validate(template.schema, given),
      ...undeclaredProperties(template.schema, given).map((key) => ({ path: `/${key}`, message: 'is not a field of this template' })),
    ]
    const seen = new Set<string>()
    for (const p of problems) {
      const field = fieldOf(item.id, p.path.replace(/^\//, '').split('/')[0] || '(item)')
      if (seen.has(field)) continue
      seen.add(field)
      errors.push({ field, code: 'template.value_invalid', message: `${p.message}${p.allowed ? `: ${p.allowed}` : ''}` })
    }
    kept.set(item.id, JSON.stringify(given))
  }
  return { kept, errors }
}

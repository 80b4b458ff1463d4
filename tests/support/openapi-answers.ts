import Ajv2020Module, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// ajv and ajv-formats are CommonJS with a `default` export; unwrap for either module system.
type AjvClass = typeof Ajv2020Module.default
const Ajv2020: AjvClass = (Ajv2020Module as unknown as { default?: AjvClass }).default ?? (Ajv2020Module as unknown as AjvClass)
type AddFormats = typeof addFormatsModule.default
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)

type Document = {
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>
  components?: unknown
}

export type Answer = { status: number; headers: Headers; json: unknown; text: string }

const DOCUMENT_ID = 'https://platform.test/v1/openapi.json'
const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

/**
 * Checks the API's answers against its own OpenAPI document (issue 26): the operation exists, the
 * status is one it declares, and a JSON body matches the schema declared for that status and media
 * type (OpenAPI 3.1 schemas are JSON Schema 2020-12: Ajv with its formats). A path the document
 * does not hold may only answer the edge's refusals (404 no route, 405 another method). Answers a
 * list of what disagrees, empty when the answer is as documented.
 */
export function answerChecker(document: Document) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true })
  addFormats(ajv)
  ajv.addSchema(closedObjects(document), DOCUMENT_ID)
  const validators = new Map<string, ValidateFunction>()
  const validator = (ref: string) => {
    let fn = validators.get(ref)
    if (!fn) validators.set(ref, (fn = ajv.getSchema(`${DOCUMENT_ID}#${ref}`) ?? ajv.compile({ $ref: `${DOCUMENT_ID}#${ref}` })))
    return fn
  }
  // Literal segments before parameters: /domains/imports/{job_id} before /domains/{id}/….
  const templates = Object.keys(document.paths ?? {})
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`), params: (template.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params)

  return (method: string, path: string, answer: Answer): string[] => {
    const lower = method.toLowerCase()
    if (lower === 'head' || lower === 'options') return []
    const template = templates.find((t) => t.pattern.test(path))?.template
    const operation = template ? document.paths![template]![lower] : undefined
    const where = `${method} ${path} → ${answer.status}`
    if (!operation) {
      if (path === '/v1/openapi.json') return []
      if (answer.status === 404 || answer.status === 405) return problemMismatch(where, answer, validator('/components/schemas/Problem'))
      return [`${where}: no operation ${method} ${template ?? path} in the document`]
    }
    const status = String(answer.status)
    const declared = operation.responses?.[status] ?? operation.responses?.[`${status[0]}XX`] ?? operation.responses?.default
    if (!declared) return [`${where}: the document declares ${Object.keys(operation.responses ?? {}).join(', ')} for ${lower} ${template}, not ${status}`]
    const content = declared.content
    if (!content || !Object.keys(content).length || answer.status === 204 || !answer.text) return []
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim()
    if (!(type in content)) return [`${where}: answered ${type || 'no type'}, the document declares ${Object.keys(content).join(', ')}`]
    if (!/json/.test(type) || !content[type]!.schema) return []
    const key = Object.keys(operation.responses!).find((k) => operation.responses![k] === declared)!
    const fn = validator(`/${pointer('paths', template!, lower, 'responses', key, 'content', type, 'schema')}`)
    if (fn(answer.json)) return []
    const errors = (fn.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`)
    return [`${where}: the body does not match the document: ${[...new Set(errors)].join('; ')}`]
  }
}

/**
 * The document with every object schema closed (`additionalProperties: false` where it says
 * nothing): a field an answer carries that the document does not name is a mismatch too. The
 * schemas an `allOf` builds on stay open (a problem's extension members are declared in the
 * status's own schema, ForbiddenProblem's `permission`, on top of Problem).
 */
function closedObjects(document: Document): object {
  const copy = structuredClone(document) as object
  const bases = new Set<string>()
  const visit = (node: unknown, each: (node: Record<string, unknown>) => void) => {
    if (Array.isArray(node)) node.forEach((item) => visit(item, each))
    else if (node && typeof node === 'object') {
      each(node as Record<string, unknown>)
      Object.values(node).forEach((item) => visit(item, each))
    }
  }
  const parts = new Set<unknown>()
  visit(copy, (node) => {
    if (!Array.isArray(node.allOf)) return
    for (const part of node.allOf as { $ref?: string }[]) {
      parts.add(part)
      if (part.$ref) bases.add(part.$ref.replace('#/components/schemas/', ''))
    }
  })
  const open = new Set([...parts, ...[...bases].map((name) => (copy as { components: { schemas: Record<string, unknown> } }).components.schemas[name])])
  visit(copy, (node) => {
    if (node.type === 'object' && node.properties && typeof node.properties === 'object' && !('additionalProperties' in node) && !open.has(node)) node.additionalProperties = false
  })
  return copy
}

function problemMismatch(where: string, answer: Answer, fn: ValidateFunction): string[] {
  if ((answer.headers.get('content-type') ?? '').startsWith('application/problem+json') && fn(answer.json)) return []
  return [`${where}: not a problem+json answer`]
}

/**
 * No area's SQL names another area's tables (decision 024). Every server/platform/<area>/ file is
 * parsed with TypeScript's own parser and each place SQL can name a table is checked against the
 * owners' map (server/db/owners.ts):
 *   - Kysely's builders: selectFrom, insertInto, updateTable, deleteFrom, mergeInto, the joins and
 *     sql.table, whose first argument (`'domains as d'`, `'domains d'`) is the table;
 *   - the text of every string and template literal (raw `sql` templates, a list resource's `from`
 *     and its columns' SQL): a table after FROM, JOIN, INTO, UPDATE, TABLE or TRUNCATE;
 *   - the table named to core/versioned.ts (`updateVersioned(tx, 'domains', …)`, `versioned: 'domains'`).
 * A reference to a table of another area fails with file:line; read through the owner's reads.ts.
 *
 * `node scripts/lint-table-owners.ts --all` lists every reference, the allowed ones too.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { FOLDER_AREAS, TABLE_OWNERS } from '../server/db/owners.ts'

const ROOT = new URL('..', import.meta.url).pathname
const PLATFORM = join(ROOT, 'server/platform')

/**
 * Folders under server/platform/ that are not an area, and may name any table:
 *   core/ — the shared machinery every area's writes go through: `change()` writes the audit
 *           entries of each change in its transaction (the audit area's table: the writer is the
 *           one way entries are made), `notices.ts` reads the users holding a permission to mail
 *           an account, and `versioned.ts` the row versions of any table;
 *   list/ — the list engine, which runs the SQL an area's list resource hands it and names no table itself.
 */
const NOT_AREAS = new Set(['core', 'list'])

/**
 * References that stay, each with its reason. `file` is relative to server/platform/. An entry
 * that matches nothing fails too, so the list only shrinks.
 */
const ALLOWED: { file: string; table: string; reason: string }[] = []

const KYSELY_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'replaceInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'innerJoinLateral',
  'leftJoinLateral',
  'table',
])
const VERSIONED_CALLS = new Set(['updateVersioned'])
const SQL_TABLE = /\b(?:from|join|into|update|table|truncate)\s+(?:only\s+)?"?((?:pgboss\.)?[a-z_][a-z0-9_]*)"?/gi
const OWNERS: Record<string, string> = TABLE_OWNERS

type Hit = { file: string; line: number; table: string; owner: string; area: string; how: string }

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesOf(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

function hitsOf(path: string, area: string): Hit[] {
  const text = readFileSync(path, 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const file = relative(PLATFORM, path)
  const hits: Hit[] = []
  const seen = new Set<string>()
  const add = (node: ts.Node, table: string, how: string, linesIn = 0) => {
    const owner = Object.hasOwn(OWNERS, table) ? OWNERS[table]! : null
    if (!owner || owner === area) return
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 + linesIn
    const key = `${line}:${table}`
    if (seen.has(key)) return
    seen.add(key)
    hits.push({ file, line, table, owner, area, how })
  }
  const literalText = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
    return undefined
  }
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && KYSELY_METHODS.has(node.expression.name.text)) {
      const method = node.expression.name.text
      const first = node.arguments[0]
      const names = first && ts.isArrayLiteralExpression(first) ? first.elements : first ? [first] : []
      for (const arg of names) {
        const value = literalText(arg)
        const table = value?.trim().split(/\s+/)[0]
        if (table && (method !== 'table' || ts.isIdentifier(node.expression.expression))) add(arg, table, method)
      }
    }
    // core/versioned.ts takes the table by name: `updateVersioned(tx, 'domains', …)`, a list resource's `versioned: 'domains'`.
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && VERSIONED_CALLS.has(node.expression.text)) {
      const value = node.arguments[1] && literalText(node.arguments[1])
      if (value) add(node.arguments[1]!, value, node.expression.text)
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'versioned') {
      const value = literalText(node.initializer)
      if (value) add(node.initializer, value, 'versioned')
    }
    const parts: { node: ts.Node; text: string }[] = []
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) parts.push({ node, text: node.text })
    if (ts.isTemplateExpression(node)) {
      parts.push({ node: node.head, text: node.head.text })
      for (const span of node.templateSpans) parts.push({ node: span.literal, text: span.literal.text })
    }
    for (const part of parts) {
      // The line of each match inside a literal that spans lines.
      for (const match of part.text.matchAll(SQL_TABLE)) add(part.node, match[1]!, 'SQL text', part.text.slice(0, match.index).split('\n').length - 1)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return hits
}

const say = (line: string) => process.stdout.write(`${line}\n`)
const all = process.argv.includes('--all')
const hits = readdirSync(PLATFORM)
  .filter((name) => statSync(join(PLATFORM, name)).isDirectory() && !NOT_AREAS.has(name))
  .flatMap((folder) => filesOf(join(PLATFORM, folder)).flatMap((path) => hitsOf(path, FOLDER_AREAS[folder] ?? folder)))

const used = new Set<(typeof ALLOWED)[number]>()
const refused = hits.filter((hit) => {
  const entry = ALLOWED.find((allowed) => allowed.file === hit.file && allowed.table === hit.table)
  if (entry) used.add(entry)
  return !entry
})
const stale = ALLOWED.filter((entry) => !used.has(entry))

for (const hit of all ? hits : refused) {
  say(
    `server/platform/${hit.file}:${hit.line}: ${hit.area} names ${hit.owner}'s table ${hit.table} (${hit.how}): read it through server/platform/${hit.owner}/reads.ts, change it through the ${hit.owner} area's exported functions`,
  )
}
for (const entry of stale) say(`scripts/lint-table-owners.ts: the allowed reference of ${entry.file} to ${entry.table} matches nothing: remove it`)
if (all) say(`${hits.length} cross-area table references in ${new Set(hits.map((hit) => hit.file)).size} files (${hits.length - refused.length} allowed)`)
if (refused.length > 0 || stale.length > 0) {
  say(`${refused.length} cross-area table references (decision 024: an area reads another's tables through its reads.ts)`)
  process.exit(1)
}

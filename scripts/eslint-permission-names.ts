/**
 * The ESLint rule `permissions/known-name` (decision 025): a permission name written in the code
 * is a name of the registry (common/permissions.ts). The types refuse an unknown one already
 * (`Permission`); this rule makes `npm run lint` refuse it too, where a name is written:
 *   - the permission argument of the checks: `access('…')` (also `public`, `signed-in`),
 *     `requirePermission(actor, '…')`, `can(actor, '…')`, `hasPermission(user, '…')`,
 *     `canChange(request, user, '…')`, `requireChange(request, user, '…')`,
 *     `mailAccountUsers(deps, account, '…')`;
 *   - the navigation's `anyOf: ['…']` and any `permissions: ['…']` field (an API token's grants).
 * A name is checked when it is a string literal (or a `cond ? '…' : '…'` of them); a variable is
 * the types' business.
 */
import type { Rule } from 'eslint'
import { isPermission } from '../common/permissions.ts'

/** The position of the permission among each check's arguments. */
const CHECKS: Record<string, number> = { access: 0, requirePermission: 1, can: 1, hasPermission: 1, canChange: 2, requireChange: 2, mailAccountUsers: 2 }
/** Words a route's access may say instead of a permission (core/openapi.ts `RouteAccess`). */
const ROUTE_WORDS = new Set(['public', 'signed-in'])
/** Object fields whose string literals are permission names. */
const FIELDS = new Set(['anyOf', 'permissions'])

type Node = Rule.Node | import('estree').Node

function literals(node: Node | null | undefined): { node: Node; value: string }[] {
  if (!node) return []
  if (node.type === 'Literal' && typeof node.value === 'string') return [{ node, value: node.value }]
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return [{ node, value: node.quasis[0]!.value.cooked ?? '' }]
  if (node.type === 'ConditionalExpression') return [...literals(node.consequent), ...literals(node.alternate)]
  if (node.type === 'ArrayExpression') return node.elements.flatMap((element) => (element && element.type !== 'SpreadElement' ? literals(element) : []))
  if ((node.type as string) === 'TSAsExpression' || (node.type as string) === 'TSSatisfiesExpression') return literals((node as unknown as { expression: Node }).expression)
  return []
}

const calleeName = (callee: Node): string | null =>
  callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : null

const propertyName = (key: Node): string | null => (key.type === 'Identifier' ? key.name : key.type === 'Literal' && typeof key.value === 'string' ? key.value : null)

export const knownPermissionName: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'A permission name is a role or ability of the registry in common/permissions.ts (decision 025).' },
    messages: { unknown: "'{{name}}' is not a permission of the registry (common/permissions.ts): name it there first, or use one it has." },
    schema: [],
  },
  create(context) {
    const check = (found: { node: Node; value: string }[], routeWords: boolean) => {
      for (const { node, value } of found) {
        if (isPermission(value) || (routeWords && ROUTE_WORDS.has(value))) continue
        context.report({ node: node as Rule.Node, messageId: 'unknown', data: { name: value } })
      }
    }
    return {
      CallExpression(node) {
        const name = calleeName(node.callee)
        if (name === null || !(name in CHECKS)) return
        const argument = node.arguments[CHECKS[name]!]
        if (argument && argument.type !== 'SpreadElement') check(literals(argument), name === 'access')
      },
      Property(node) {
        const name = propertyName(node.key)
        if (name !== null && FIELDS.has(name)) check(literals(node.value), false)
      },
    }
  },
}

/** The plugin eslint.config.js registers as `permissions`. */
export default { rules: { 'known-name': knownPermissionName } }

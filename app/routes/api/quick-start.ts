/**
 * The quick start of /api as shell commands: the page shows exactly these strings, and
 * tests/integration/api-docs.test.ts runs the same script with bash and curl against a demo
 * server, so a command that stops working fails the build instead of a reader.
 */

export const QUICK_START_STEPS = ['base', 'credentials', 'login', 'context', 'list', 'filter', 'create', 'refusal', 'logout'] as const
export type QuickStartStep = (typeof QUICK_START_STEPS)[number]

const AUTH = '-H "Authorization: Bearer $TOKEN"'
const JSON_BODY = "-H 'Content-Type: application/json'"

/** Each step's commands; `apiBase` is the API's address as the reader reaches it (…/v1). */
export function quickStart(apiBase: string): Record<QuickStartStep, string> {
  return {
    base: `BASE=${apiBase}`,
    credentials: 'read -r EMAIL && read -rs PASSWORD',
    login: [
      `TOKEN=$(curl -sS --fail-with-body "$BASE/login" ${JSON_BODY} \\`,
      `  -d "$(jq -n --arg username "$EMAIL" --arg password "$PASSWORD" '{$username, $password}')" | jq -r .access_token)`,
    ].join('\n'),
    context: [`CONTEXT=$(curl -sS --fail-with-body "$BASE/me" ${AUTH} | jq -r .group_id)`, 'echo "$CONTEXT"'].join('\n'),
    list: `curl -sS --fail-with-body "$BASE/groups/$CONTEXT/contacts?limit=5&sort=name" ${AUTH} | jq '{total: .meta.total, names: [.data[].name]}'`,
    filter: [`curl -sS --fail-with-body -G "$BASE/groups/$CONTEXT/domains" ${AUTH} \\`, `  --data-urlencode "pql=name ends_with '.com'" --data-urlencode limit=5 | jq '[.data[].name]'`].join('\n'),
    create: [
      `curl -sS --fail-with-body "$BASE/groups/$CONTEXT/contacts" ${AUTH} ${JSON_BODY} \\`,
      `  -d '{"name": "Ada Lovelace", "email": "ada@acme.example", "country_code": "GB"}' | jq '{id, name, version}'`,
    ].join('\n'),
    refusal: `curl -sS "$BASE/groups/$CONTEXT/contacts" ${AUTH} ${JSON_BODY} -d '{"name": ""}' | jq '{status, code, errors}'`,
    logout: `curl -sS --fail-with-body -X POST "$BASE/logout" ${AUTH} -d ''`,
  }
}

/** The whole quick start as one script, in the page's order. */
export function quickStartScript(apiBase: string): string {
  const steps = quickStart(apiBase)
  return QUICK_START_STEPS.map((step) => steps[step]).join('\n')
}

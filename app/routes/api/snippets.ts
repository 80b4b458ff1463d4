/**
 * The shell commands of /api/authentication and /api/context, the same in every language (the
 * prose around them is in content/). They use the variables the quick start sets: BASE, TOKEN,
 * CONTEXT.
 */
const JSON_BODY = "-H 'Content-Type: application/json'"

export const SNIPPETS = {
  login: [
    `curl -sS "$BASE/login" ${JSON_BODY} \\`,
    `  -d "$(jq -n --arg username "$EMAIL" --arg password "$PASSWORD" '{$username, $password}')"`,
    '# {"access_token": "…", "refresh_token": "…"}',
    '# with two-factor sign-in on: {"access_token": "<two-factor token>", "refresh_token": "", "two_factor_required": true}',
  ].join('\n'),
  twoFactor: [
    `curl -sS "$BASE/two_factor_codes" -H "Authorization: Bearer $TWO_FACTOR_TOKEN" ${JSON_BODY} \\`,
    `  -d '{"code": "123456"}'`,
    '# {"user": {…}, "access_token": "…", "refresh_token": "…"}',
  ].join('\n'),
  refresh: [`curl -sS "$BASE/refresh" ${JSON_BODY} -d "$(jq -n --arg refresh_token "$REFRESH_TOKEN" '{$refresh_token}')"`, '# {"data": {"access_token": "…", "refresh_token": "…"}}'].join('\n'),
  sso: [
    `curl -sS "$BASE/login_sso" ${JSON_BODY} \\`,
    `  -d "$(jq -n --arg email "$EMAIL" --arg sso_token "$PROVIDER_ACCESS_TOKEN" '{$email, $sso_token}')"`,
    '# {"access_token": "…", "refresh_token": "…", "user": {"id": "…", "language": "en"}}',
  ].join('\n'),
  apiToken: ['curl -sS "$BASE/me" -H "Authorization: Bearer $API_TOKEN"'].join('\n'),
  logout: `curl -sS -X POST "$BASE/logout" -H "Authorization: Bearer $TOKEN" -d ''`,
  ownContext: 'curl -sS "$BASE/groups/$CONTEXT/domains?limit=5" -H "Authorization: Bearer $TOKEN"',
  otherContext: [
    'curl -sS -o /dev/null -w \'%{http_code}\\n\' "$BASE/groups/$OTHER_ACCOUNT/domains" -H "Authorization: Bearer $TOKEN"',
    '# 404: another account is not found, whether or not it exists',
  ].join('\n'),
  staffAll: [
    '# staff, in their own group: every account, each row with its group_id',
    'curl -sS "$BASE/groups/$STAFF_GROUP/domains?limit=5" -H "Authorization: Bearer $TOKEN" | jq \'.data[] | {name, group_id}\'',
  ].join('\n'),
  staffOne: ['# staff acting in a client account: that account only', 'curl -sS "$BASE/groups/$CLIENT_ACCOUNT/domains?limit=5" -H "Authorization: Bearer $TOKEN"'].join('\n'),
  portalContext: 'https://portal.example/domains?context=0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a',
} as const

export type SnippetKey = keyof typeof SNIPPETS

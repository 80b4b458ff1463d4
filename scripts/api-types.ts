/**
 * Writes common/api/openapi.ts: the TypeScript types of the Platform API's OpenAPI document
 * (decision 023). The document is the live one — the API built in this process, as
 * scripts/openapi-lint.ts builds it — so the zod schemas of server/platform/*\/http.ts stay the
 * one source of an answer's shape; the portal's typed platform client (app/lib/platform-api.ts)
 * reads the file written here.
 *
 *   npm run api-types         writes the file
 *   npm run lint:api-types    (part of npm run lint) fails when the file differs from the document
 */
import { readFileSync, writeFileSync } from 'node:fs'
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript'
import { format, resolveConfig } from 'prettier'
import { liveOpenApiText } from './openapi-lint.ts'

const root = new URL('..', import.meta.url).pathname
export const API_TYPES_FILE = `${root}common/api/openapi.ts`

/** The generated file's text, formatted as prettier formats the tree. */
export async function apiTypesText(): Promise<string> {
  const document = JSON.parse(await liveOpenApiText())
  const ast = await openapiTS(document, { silent: true, alphabetize: false })
  const header = `${COMMENT_HEADER.trim()}\n// Generated from the Platform API's OpenAPI document by \`npm run api-types\` (scripts/api-types.ts).\n\n`
  const text = header + astToString(ast)
  return format(text, { ...(await resolveConfig(API_TYPES_FILE)), filepath: API_TYPES_FILE })
}

if (import.meta.main) {
  const text = await apiTypesText()
  if (process.argv.includes('--check')) {
    let current = ''
    try {
      current = readFileSync(API_TYPES_FILE, 'utf8')
    } catch {
      // missing: differs
    }
    if (current !== text) {
      process.stderr.write("common/api/openapi.ts differs from the Platform API's OpenAPI document: run npm run api-types\n")
      process.exitCode = 1
    }
  } else {
    writeFileSync(API_TYPES_FILE, text)
    process.stdout.write(`wrote ${API_TYPES_FILE.slice(root.length)} (${text.split('\n').length} lines)\n`)
  }
}

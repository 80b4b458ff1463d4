/**
 * Lints the Platform API's OpenAPI document with Redocly (redocly.yaml) and Spectral
 * (.spectral.yaml), issue 26. The document is the live one: the API is built in this process, as
 * the server builds it (no database: serving the document reads none), and its /v1/openapi.json
 * is written to a temporary file both linters read. Any error or warning fails.
 *
 *   npm run lint:openapi        (part of npm run lint)
 *   node scripts/openapi-lint.ts --keep   leaves the document in the temporary folder
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createPlatformApi } from '#server/platform/api.ts'
import { createLogger } from '#server/lib/logger.ts'
import { TEST_CONFIG } from '#tests/support/platform.ts'

const run = promisify(execFile)
const root = new URL('..', import.meta.url).pathname

/** The document as GET /v1/openapi.json answers it, from an API built in process. */
export async function liveOpenApiText(): Promise<string> {
  // Only what building the routes touches: jobs are registered, never run; no request reads the database.
  const deps = { config: TEST_CONFIG, logger: createLogger('silent'), jobs: { register() {}, schedule() {} }, now: () => new Date() } as unknown as PlatformDeps
  const response = await createPlatformApi(deps).request('/v1/openapi.json')
  if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`)
  return response.text()
}

/** Runs both linters on a document file; answers each one's output and whether it passed. */
export async function lintOpenApi(file: string): Promise<{ tool: string; ok: boolean; output: string }[]> {
  // Telemetry and update checks off: the linters run offline (CI, developers' machines).
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }
  const bin = (name: string) => join(root, 'node_modules', '.bin', name)
  const tools: [string, string[]][] = [
    ['redocly', [bin('redocly'), 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish', '--max-problems', '1000']],
    ['spectral', [bin('spectral'), 'lint', file, '--ruleset', join(root, '.spectral.yaml'), '--fail-severity', 'warn', '--display-only-failures']],
  ]
  return Promise.all(
    tools.map(async ([tool, args]) => {
      try {
        const { stdout, stderr } = await run(process.execPath, args, { env, cwd: root, maxBuffer: 64 * 1024 * 1024 })
        const output = `${stdout}${stderr}`
        // Redocly passes with warnings ("You have 3 warnings"); here a warning fails too, as in Spectral.
        return { tool, ok: !/[1-9]\d* warnings?\b/.test(output), output }
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string; message: string }
        return { tool, ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` || failed.message }
      }
    }),
  )
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'))
  const file = join(dir, 'openapi.json')
  try {
    writeFileSync(file, await liveOpenApiText())
    const results = await lintOpenApi(file)
    for (const { tool, ok, output } of results) if (!ok) process.stderr.write(`${tool}:\n${output}\n`)
    const failed = results.filter((r) => !r.ok).map((r) => r.tool)
    if (failed.length) {
      process.stderr.write(`The OpenAPI document does not lint clean (${failed.join(', ')}).\n`)
      process.exitCode = 1
    }
  } finally {
    if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true })
    else process.stdout.write(`${file}\n`)
  }
}

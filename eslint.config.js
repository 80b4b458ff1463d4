import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import permissions from './scripts/eslint-permission-names.ts'

export default tseslint.config(
  { ignores: ['build', 'data', '.react-router', 'node_modules', 'test-results', 'playwright-report', 'bench/out', 'common/api/openapi.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn'] }],
    },
  },
  {
    // Handlers are typed against their routes (issue 14): an answer cast `as never` hides a
    // mismatch between what a handler returns and what the OpenAPI document promises.
    files: ['server/platform/**/http.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'TSAsExpression > TSNeverKeyword', message: 'Type the answer against its route instead of casting it as never.' }],
    },
  },
  {
    // The portal's platform calls are typed by the API's OpenAPI document (decision 023): the
    // answer comes from the operation's path and method, so a type argument — an answer written by
    // hand — is refused on any platform client's call.
    files: ['app/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          '[callee.object.name=/[pP]latform$/]',
          '[callee.object.property.name=/[pP]latform$/]',
          '[callee.object.argument.callee.name=/^(getPlatform|platformForSession)$/]',
          '[callee.object.callee.name=/^(getPlatform|platformForSession)$/]',
        ].map((client) => ({
          selector: `CallExpression[typeArguments][callee.type='MemberExpression'][callee.property.name=/^(get|post|put|patch|delete|call|all|list|raw)$/]${client}`,
          message:
            "A platform call's answer is the OpenAPI document's (decision 023): name the operation's path, e.g. platform.get('/groups/{context}/domains/{id}', { path }), and derive narrower shapes with Answer<…>/Row<…> from app/lib/platform-api.ts.",
        })),
      ],
    },
  },
  {
    // A form control's attributes come from field-props.ts (decision 014, item 9): the same as
    // conform's helpers, at a fraction of their cost on the server.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/components/field-props.ts', 'app/components/field-props.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@conform-to/react',
              importNames: ['getInputProps', 'getSelectProps', 'getTextareaProps'],
              message: "Import it from '#app/components/field-props.ts': the same attributes at a fraction of the cost (decision 014).",
            },
          ],
        },
      ],
    },
  },
  {
    // One way for jobs (decision 026): an area queues, registers and schedules through
    // `deps.jobs`; pg-boss itself is the wrapper's alone.
    files: ['server/**/*.ts'],
    ignores: ['server/jobs/jobs.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'pg-boss', message: 'Queue, register and schedule jobs through deps.jobs (server/jobs/jobs.ts, decision 026).' }] }],
    },
  },
  {
    // A permission name is one of the registry's (common/permissions.ts, decision 025): the types
    // refuse an unknown one, and so does lint.
    files: ['**/*.{ts,tsx}'],
    plugins: { permissions },
    rules: { 'permissions/known-name': 'error' },
  },
  {
    files: ['tests/**', 'bench/**', '**/*.test.ts'],
    rules: { 'no-console': 'off' },
  },
)

/**
 * The arrows of ARCHITECTURE.md, checked by `npm run lint` (decision 015):
 *   common/  → nothing of ours (the contract both sides import)
 *   server/  → common/ (the Platform API, its jobs and integrations)
 *   app/     → common/ (the portal; it reaches the API through the platform client only)
 *   server/http/app.ts is the composition root: the one file that mounts both.
 * and no import cycle anywhere in the product's code.
 */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A cycle makes two modules one: cut it by moving what both need down a layer.',
      from: { path: '^(common|app|server)/' },
      to: { circular: true },
    },
    {
      name: 'common-is-the-contract',
      severity: 'error',
      comment: 'common/ is imported by the portal and the API and imports neither.',
      from: { path: '^common/' },
      to: { path: '^(app|server|tests|bench|scripts)/' },
    },
    {
      name: 'api-does-not-import-the-portal',
      severity: 'error',
      comment: 'The Platform API runs alone: what it shares with the portal lives in common/.',
      from: { path: '^server/', pathNot: '^server/http/app\\.ts$' },
      to: { path: '^app/' },
    },
    {
      name: 'portal-does-not-import-the-api',
      severity: 'error',
      comment: 'The portal calls the Platform API through app/lib/platform-client.ts, never its internals.',
      from: { path: '^app/' },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|\\.react-router|data|bench/out|test-results)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}

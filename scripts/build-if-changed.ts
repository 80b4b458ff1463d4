// `npm start`'s build step (prestart): builds the portal only when what the build reads changed
// since the last build — the sources under app/, common/, locales/ and public/, the build's
// configuration and the lockfile — so a second `npm start` does not spend a minute on a build it
// already has (issue 28, item 18). `npm run build` always builds. A first start's embedded database
// is made meanwhile (scripts/prepare-database.ts).
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const INPUTS = ['app', 'common', 'locales', 'public', 'vite.config.ts', 'react-router.config.ts', 'tsconfig.json', 'package-lock.json']
const STAMP = 'build/.sources-hash'

function sourcesHash(): string {
  const hash = createHash('sha256')
  const files = INPUTS.flatMap((input) =>
    !existsSync(input)
      ? []
      : input.includes('.')
        ? [input]
        : readdirSync(input, { recursive: true, withFileTypes: true })
            .filter((entry) => entry.isFile() && !entry.parentPath.split(path.sep).includes('+types'))
            .map((entry) => path.join(entry.parentPath, entry.name)),
  )
  for (const file of files.sort()) hash.update(file).update('\0').update(readFileSync(file)).update('\0')
  return hash.digest('hex')
}

const started = performance.now()
// The embedded database's first folder is made beside the build (scripts/prepare-database.ts).
const needsDatabase = !process.env.DATABASE_URL && !existsSync(path.join(path.resolve(process.env.DATA_DIR || './data'), 'pglite'))
const preparing = needsDatabase ? spawn(process.execPath, [path.resolve('scripts/prepare-database.ts')], { stdio: 'inherit' }) : undefined
const prepared = new Promise<void>((resolve) => (preparing ? preparing.on('exit', () => resolve()) : resolve()))
const hash = sourcesHash()
const built = existsSync('build/server/index.js') && existsSync('build/client') && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash
if (built) {
  process.stdout.write(`The portal build is up to date (sources unchanged, checked in ${Math.round(performance.now() - started)} ms).\n`)
} else {
  process.stdout.write('Building the portal (once; later starts reuse it until the sources change)…\n')
  const build = spawn(process.execPath, [path.resolve('node_modules/@react-router/dev/bin.cjs'), 'build'], { stdio: 'inherit' })
  const status = await new Promise<number | null>((resolve) => build.on('exit', (code) => resolve(code)))
  if (status !== 0) {
    preparing?.kill()
    process.exit(status ?? 1)
  }
  writeFileSync(STAMP, hash)
}
await prepared

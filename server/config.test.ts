import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, weakSecretReason } from './config.ts'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rp-config-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const STRONG = 'q9V2mX7rK4tLp8ZcW3nB6yHd1FgJs5Ae'

function issuesOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).issues
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('has working defaults: port 3000, embedded PGlite in DATA_DIR', () => {
    const dir = tempDir()
    const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: STRONG })
    expect(config).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', NODE_ENV: 'production', LOG_LEVEL: 'info', WORKER: true, SEED_DEMO: false, sessionSecret: STRONG })
    expect(config.database).toEqual({ kind: 'pglite', dir: path.join(dir, 'pglite') })
  })

  it('uses PostgreSQL with DATABASE_URL and reads flags and numbers', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DATABASE_URL: 'postgres://u@db:5432/portal', PORT: '3310', SEED_DEMO: '1', WORKER: 'false' })
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/portal' })
    expect(config).toMatchObject({ PORT: 3310, SEED_DEMO: true, WORKER: false })
  })

  it('takes the DNS TTL floor from DNS_TTL_MIN, 60 by default (issue 26)', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG }).DNS_TTL_MIN).toBe(60)
    expect(loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DNS_TTL_MIN: '300' }).DNS_TTL_MIN).toBe(300)
    expect(issuesOf({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DNS_TTL_MIN: '0' }).map((i) => i.split(':')[0])).toEqual(['DNS_TTL_MIN'])
  })

  it('takes the outbound resolver from DNS_RESOLVER: resolvers by address or system, nothing else (decision 022)', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG }).DNS_RESOLVER).toBeUndefined()
    expect(loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DNS_RESOLVER: '127.0.0.1:5300,[::1]' }).DNS_RESOLVER).toBe('127.0.0.1:5300,[::1]')
    expect(loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DNS_RESOLVER: 'system' }).DNS_RESOLVER).toBe('system')
    expect(issuesOf({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DNS_RESOLVER: 'dns.example:53' })).toEqual([
      "DNS_RESOLVER: 'dns.example:53' is not an IP address with an optional port (or 'system')",
    ])
  })

  it('names each bad variable once, with what is wrong', () => {
    const issues = issuesOf({ PORT: 'eighty', DATABASE_URL: 'mysql://db/x', LOG_LEVEL: 'loud', PUBLIC_URL: 'not a url', SESSION_SECRET: 'short' })
    expect(issues).toHaveLength(5)
    expect(issues.map((i) => i.split(':')[0]).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'PUBLIC_URL', 'SESSION_SECRET'])
    expect(issues).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL')
    expect(issues).toContain('SESSION_SECRET: must be at least 32 characters')
    expect(issues.find((i) => i.startsWith('LOG_LEVEL'))).toMatch(/debug.*info.*warn.*error.*silent/)
    const error = (() => {
      try {
        loadConfig({ PORT: '70000' })
      } catch (e) {
        return e as Error
      }
    })()
    expect(error?.message).toMatch(/^Invalid configuration:\n {2}- PORT: /)
  })

  it('runs several server processes only on PostgreSQL and without the embedded registry', () => {
    expect(issuesOf({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, WEB_CONCURRENCY: '2' })).toEqual([
      'WEB_CONCURRENCY: more than one process needs PostgreSQL (DATABASE_URL); the embedded PGlite belongs to one process',
    ])
    const pg = { DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DATABASE_URL: 'postgres://u@db:5432/portal', WEB_CONCURRENCY: '2' }
    expect(issuesOf(pg)).toEqual(['WEB_CONCURRENCY: the embedded registry (REGISTRY_MODE=local) runs in one process; use REGISTRY_MODE=epp or none'])
    expect(loadConfig({ ...pg, REGISTRY_MODE: 'none' }).WEB_CONCURRENCY).toBe(2)
    expect(issuesOf({ ...pg, WEB_CONCURRENCY: '0' })[0]).toMatch(/^WEB_CONCURRENCY:/)
  })

  it('treats empty variables as unset', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), SESSION_SECRET: STRONG, DATABASE_URL: '', PORT: '', PUBLIC_URL: '' })
    expect(config.database.kind).toBe('pglite')
    expect(config.PORT).toBe(3000)
  })

  it('refuses a weak SESSION_SECRET even when long enough', () => {
    expect(issuesOf({ SESSION_SECRET: 'changeme-changeme-changeme-changeme' })[0]).toMatch(/^SESSION_SECRET: contains the placeholder 'changeme'/)
    expect(issuesOf({ SESSION_SECRET: 'a'.repeat(40) })[0]).toMatch(/^SESSION_SECRET: is too repetitive/)
    expect(issuesOf({ SESSION_SECRET: 'abababababababababababababababab12' })[0]).toMatch(/too repetitive/)
    expect(weakSecretReason(STRONG)).toBeNull()
  })

  it('without SESSION_SECRET, generates one into DATA_DIR once and keeps it', () => {
    const dir = path.join(tempDir(), 'nested', 'data')
    const first = loadConfig({ DATA_DIR: dir })
    const file = path.join(dir, 'session-secret')
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(48)
    expect(readFileSync(file, 'utf8')).toBe(first.sessionSecret)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first.sessionSecret)
    expect(loadConfig({ DATA_DIR: tempDir() }).sessionSecret).not.toBe(first.sessionSecret)
  })
})

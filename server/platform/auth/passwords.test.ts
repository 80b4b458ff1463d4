import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { hashPassword, passwordHashCost, PRODUCTION_HASH_COST, verifyPassword } from './passwords.ts'

describe('password hashing', () => {
  it('makes production hashes with scrypt N=2^17, r=8, p=1 unless a test run lowers the cost', async () => {
    expect(PRODUCTION_HASH_COST).toBe(17)
    expect(passwordHashCost({})).toBe(17)
    expect(passwordHashCost({ PASSWORD_HASH_COST: '11' })).toBe(11)
    expect(passwordHashCost({ PASSWORD_HASH_COST: '3' })).toBe(17)
    const stored = await hashPassword('correct horse battery', PRODUCTION_HASH_COST)
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{86}$/)
    expect(await verifyPassword('correct horse battery', stored)).toBe(true)
    expect(await verifyPassword('correct horse batterz', stored)).toBe(false)
  })

  it('verifies a hash with the parameters it carries, whatever the cost new hashes use', async () => {
    const cheap = await hashPassword('s3cret-enough', 10)
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true)
    expect(await verifyPassword('s3cret-enough', cheap)).toBe(true)
    expect(await verifyPassword('s3cret-enougH', cheap)).toBe(false)
    // A cost beyond what we write is refused instead of computed; a malformed hash never matches.
    expect(await verifyPassword('s3cret-enough', cheap.replace('$1024$', '$2097152$'))).toBe(false)
    expect(await verifyPassword('s3cret-enough', 'scrypt$1024$8$1$')).toBe(false)
    expect(await verifyPassword('s3cret-enough', null)).toBe(false)
  })

  it('refuses a lowered cost when APP_ENV is production', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/rp-config-test', SESSION_SECRET: 'k9Qm2vX7pL4zR8wT1yB6nC3jH5fD0sGa', APP_ENV: 'production', PASSWORD_HASH_COST: '10' })).toThrow(/PASSWORD_HASH_COST/)
    expect(loadConfig({ DATA_DIR: '/tmp/rp-config-test', SESSION_SECRET: 'k9Qm2vX7pL4zR8wT1yB6nC3jH5fD0sGa', APP_ENV: 'e2e', PASSWORD_HASH_COST: '10' }).PASSWORD_HASH_COST).toBe(10)
  })
})

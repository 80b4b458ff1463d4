import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'

// OWASP password storage cheat sheet: scrypt with N=2^17, r=8, p=1. The cost (log2 N) can be
// lowered for test runs only (PASSWORD_HASH_COST; config.ts refuses it below the production cost
// when APP_ENV=production): a stored hash carries its own parameters, so verification is the
// same code whatever the cost it was made with.
export const PRODUCTION_HASH_COST = 17
export const MIN_HASH_COST = 10
export const MAX_HASH_COST = 18
const R = 8
const P = 1
const KEY_LENGTH = 64
const MAX_MEM = 256 * 2 ** MAX_HASH_COST * R

/** The cost new hashes are made with: PASSWORD_HASH_COST when set and valid, else the production one. */
export function passwordHashCost(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.PASSWORD_HASH_COST)
  return Number.isInteger(value) && value >= MIN_HASH_COST && value <= MAX_HASH_COST ? value : PRODUCTION_HASH_COST
}

const N = 2 ** passwordHashCost()

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (error, key) => (error ? reject(error) : resolve(key))))
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts), at the configured cost unless given one. */
export async function hashPassword(password: string, cost?: number): Promise<string> {
  const salt = randomBytes(16)
  const n = cost === undefined ? N : 2 ** cost
  const key = await scrypt(password, salt, n, R, P)
  return ['scrypt', n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Verifies in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Spend the same time as a real check so that unknown users cannot be told apart.
    await scrypt(password, DUMMY_SALT, N, R, P)
    return false
  }
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
  // A stored cost beyond what we ever write is refused rather than computed (memory).
  if (Number(n) > 2 ** MAX_HASH_COST || Number(r) > R || Number(p) > 4) return false
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

const DUMMY_SALT = randomBytes(16)

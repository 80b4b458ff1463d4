import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'

// OWASP password storage cheat sheet: scrypt with N=2^17, r=8, p=1.
const N = 2 ** 17
const R = 8
const P = 1
const KEY_LENGTH = 64
const MAX_MEM = 256 * N * R

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, N, R, P)
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
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
  const expected = Buffer.from(hash, 'base64url')
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

const DUMMY_SALT = randomBytes(16)

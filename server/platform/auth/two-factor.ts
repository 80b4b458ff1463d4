import { createHash, randomInt } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import type { DB } from '#server/db/schema.ts'

// RFC 6238 as authenticator apps expect it: SHA-1, 30-second steps, 6 digits.
const PERIOD = 30
const DIGITS = 6
const ISSUER = 'Registrar Portal'
/** Codes of the previous and next step are accepted too (clock drift). */
const WINDOW = 1
export const RECOVERY_CODE_COUNT = 10

type Db = Kysely<DB> | Transaction<DB>

const totp = (secret: string, label = '') => new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) })

/** A new 160-bit secret with its otpauth:// URI and the URI as an SVG QR code. */
export async function newEnrolment(email: string): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
  const secret = new Secret({ size: 20 }).base32
  const otpauth_uri = totp(secret, email).toString()
  const qr_svg = await QRCode.toString(otpauth_uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
  return { secret, otpauth_uri, qr_svg }
}

/** The code of a secret at a time (tests compute codes the way an authenticator app would). */
export const totpCode = (secret: string, at: Date) => totp(secret).generate({ timestamp: at.getTime() })

/** The time step a code belongs to, or null when it matches none within the window. */
export function totpStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const delta = totp(secret).validate({ token: code, timestamp: at.getTime(), window: WINDOW })
  return delta === null ? null : Math.floor(at.getTime() / 1000 / PERIOD) + delta
}

/** Ten fresh recovery codes, `xxxxx-xxxxx` from an alphabet without look-alikes (about 50 bits each). */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'
  const part = () => Array.from({ length: 5 }, () => alphabet[randomInt(alphabet.length)]).join('')
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${part()}-${part()}`)
}

export const hashRecoveryCode = (code: string) => createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('base64url')

export type SecondFactorResult = { ok: true; method: 'totp' | 'recovery_code' } | { ok: false; reason: 'invalid_code' | 'replayed_code' }

/**
 * Checks a code against a user's secret and consumes it: a TOTP step is accepted once (the
 * conditional update makes two concurrent uses of one code succeed only once); a recovery code
 * is marked used. `pending` checks the not-yet-enabled secret of an enrolment.
 */
export async function consumeSecondFactor(db: Db, userId: string, code: string, now: Date, options: { pending?: boolean; allowRecovery?: boolean } = {}): Promise<SecondFactorResult> {
  const row = await db.selectFrom('user_two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst()
  if (!row || (options.pending ? row.enabled_at !== null : row.enabled_at === null)) return { ok: false, reason: 'invalid_code' }
  const trimmed = code.replace(/\s/g, '')
  const step = totpStep(row.secret, trimmed, now)
  if (step !== null) {
    const taken = await db
      .updateTable('user_two_factor')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .returning('user_id')
      .executeTakeFirst()
    return taken ? { ok: true, method: 'totp' } : { ok: false, reason: 'replayed_code' }
  }
  if (options.allowRecovery && /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(trimmed)) {
    const hash = hashRecoveryCode(trimmed)
    const used = await db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst()
    if (used) return { ok: true, method: 'recovery_code' }
    const spent = await db.selectFrom('two_factor_recovery_codes').select('id').where('user_id', '=', userId).where('code_hash', '=', hash).executeTakeFirst()
    return { ok: false, reason: spent ? 'replayed_code' : 'invalid_code' }
  }
  return { ok: false, reason: 'invalid_code' }
}

/** True when the user has a confirmed second factor. */
export async function hasTwoFactor(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user_two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst()
  return !!row?.enabled_at
}

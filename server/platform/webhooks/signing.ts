import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'

/** A Standard Webhooks secret: `whsec_` + 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`

// Keys made once per secret: a key made from bytes at each signature cost more than the HMAC itself.
const keys = new Map<string, KeyObject>()
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret)
  if (!key) {
    if (keys.size >= 10_000) keys.clear()
    keys.set(secret, (key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'))))
  }
  return key
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * for each secret given, separated by spaces (two during a rotation, so a receiver with either
 * secret verifies).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ')
}

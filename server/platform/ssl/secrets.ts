import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/**
 * Private keys at rest: AES-256-GCM under a key derived from the server's SSL key secret
 * (configuration, SSL_KEY_SECRET; a generated one in the data folder otherwise). Stored as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, so a later key or cipher can sit beside it.
 */
const keyOf = (secret: string) => createHash('sha256').update(`ssl-private-keys\0${secret}`).digest()

export function sealSecret(secret: string, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.')
}

export function openSecret(secret: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed key format')
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
}

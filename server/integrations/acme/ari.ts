import { X509Certificate } from 'node:crypto'
import https from 'node:https'
import http from 'node:http'

/**
 * ACME Renewal Information (RFC 9773): when the CA's directory offers `renewalInfo`, the window in
 * which it wants a certificate renewed. acme-client has no ARI, and the request is unauthenticated
 * (a GET of `<renewalInfo>/<certID>`), so it is made here. Null when the CA offers none or does not
 * answer: the renewal then falls at two thirds of the lifetime.
 */
function readLength(der: Buffer, at: number): { length: number; body: number } {
  const first = der[at]!
  if (first < 0x80) return { length: first, body: at + 1 }
  let length = 0
  for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + der[at + 1 + i]!
  return { length, body: at + 1 + (first & 0x7f) }
}

/** The ARI certificate identifier: base64url(authority key identifier) "." base64url(serial's DER value). */
export function ariCertId(pem: string): string | null {
  const cert = new X509Certificate(pem)
  const der = cert.raw
  const at = der.indexOf(Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x23]))
  if (at < 0) return null
  let p = at + 5
  if (der[p] === 0x01) p += 3 // critical BOOLEAN
  if (der[p] !== 0x04) return null
  const octet = readLength(der, p + 1)
  if (der[octet.body] !== 0x30) return null
  const sequence = readLength(der, octet.body + 1)
  if (der[sequence.body] !== 0x80) return null
  const keyId = readLength(der, sequence.body + 1)
  const aki = der.subarray(keyId.body, keyId.body + keyId.length)
  let serial = Buffer.from(cert.serialNumber.length % 2 ? `0${cert.serialNumber}` : cert.serialNumber, 'hex')
  if (serial[0]! & 0x80) serial = Buffer.concat([Buffer.from([0]), serial])
  return `${aki.toString('base64url')}.${serial.toString('base64url')}`
}

function getJson(url: string, ca: string | undefined, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const lib = url.startsWith('https:') ? https : http
    const req = lib.get(url, { ...(ca && url.startsWith('https:') ? { ca } : {}), timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        if ((res.statusCode ?? 500) >= 300) return reject(new Error(`HTTP ${res.statusCode}`))
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        } catch (error) {
          reject(error as Error)
        }
      })
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
  })
}

/** The CA's suggested renewal window for the certificate, or null. */
export async function renewalWindow(settings: { directoryUrl: string; tlsCaPem?: string | undefined }, certificatePem: string, timeoutMs = 3000): Promise<{ start: Date; end: Date } | null> {
  try {
    const directory = (await getJson(settings.directoryUrl, settings.tlsCaPem, timeoutMs)) as { renewalInfo?: string }
    const id = ariCertId(certificatePem)
    if (!directory.renewalInfo || !id) return null
    const info = (await getJson(`${directory.renewalInfo.replace(/\/$/, '')}/${id}`, settings.tlsCaPem, timeoutMs)) as { suggestedWindow?: { start?: string; end?: string } }
    const start = new Date(info.suggestedWindow?.start ?? '')
    const end = new Date(info.suggestedWindow?.end ?? '')
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end < start) return null
    return { start, end }
  } catch {
    return null
  }
}

/** Whether the CA's directory offers ARI (then a renewal's order names the certificate it replaces, RFC 9773 §5). */
export async function offersAri(settings: { directoryUrl: string; tlsCaPem?: string | undefined }, timeoutMs = 3000): Promise<boolean> {
  try {
    return Boolean(((await getJson(settings.directoryUrl, settings.tlsCaPem, timeoutMs)) as { renewalInfo?: string }).renewalInfo)
  } catch {
    return false
  }
}

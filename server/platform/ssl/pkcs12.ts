import { createCipheriv, createHash, createHmac, createPrivateKey, randomBytes, X509Certificate } from 'node:crypto'

/**
 * PKCS#12 (RFC 7292) of a certificate, its chain and its key, built with node:crypto alone. Two
 * profiles: 'modern' — the key in PBES2 (AES-256-CBC, PBKDF2-HMAC-SHA256, as OpenSSL 3 writes it),
 * the MAC HMAC-SHA256; 'legacy' — pbeWithSHAAnd3-KeyTripleDES-CBC and an HMAC-SHA1 MAC, for old
 * Windows and Java. (PBMAC1, RFC 9579, is left for when the OpenSSL here can check it: 3.0 cannot.)
 */
export const PKCS12_PROFILES = ['modern', 'legacy'] as const
export type Pkcs12Profile = (typeof PKCS12_PROFILES)[number]

const ITERATIONS = 2048

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), len(body.length), body])
}
const seq = (...c: Buffer[]) => tlv(0x30, ...c)
const set = (...c: Buffer[]) => tlv(0x31, ...c)
const octets = (b: Buffer) => tlv(0x04, b)
const explicit0 = (...c: Buffer[]) => tlv(0xa0, ...c)
const nul = () => Buffer.from([0x05, 0x00])
function int(n: number): Buffer {
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff)
  if (!bytes.length || bytes[0]! & 0x80) bytes.unshift(0)
  return tlv(0x02, Buffer.from(bytes))
}
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number)
  const out = [a! * 40 + b!]
  for (const n of rest) {
    const chunk = [n & 0x7f]
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f))
    out.push(...chunk)
  }
  return tlv(0x06, Buffer.from(out))
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  certBag: '1.2.840.113549.1.12.10.1.3',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  localKeyId: '1.2.840.113549.1.9.21',
  friendlyName: '1.2.840.113549.1.9.20',
  pbeSha3Des: '1.2.840.113549.1.12.1.3',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
}

/** The PKCS#12 key derivation (RFC 7292 appendix B.2): id 1 key, 2 IV, 3 MAC key. */
function pkcs12Kdf(hash: 'sha1' | 'sha256', password: string, salt: Buffer, id: number, iterations: number, size: number): Buffer {
  const u = hash === 'sha1' ? 20 : 32
  const v = 64
  const pw = Buffer.concat([Buffer.from(password, 'utf16le').swap16(), Buffer.alloc(2)])
  const fill = (src: Buffer) => {
    const n = v * Math.ceil(src.length / v)
    const out = Buffer.alloc(n)
    for (let i = 0; i < n; i++) out[i] = src[i % src.length]!
    return out
  }
  const D = Buffer.alloc(v, id)
  const I = Buffer.concat([salt.length ? fill(salt) : Buffer.alloc(0), pw.length ? fill(pw) : Buffer.alloc(0)])
  const out: Buffer[] = []
  for (let made = 0; made < size; made += u) {
    let A = createHash(hash)
      .update(Buffer.concat([D, I]))
      .digest()
    for (let i = 1; i < iterations; i++) A = createHash(hash).update(A).digest()
    out.push(A)
    const B = fill(A)
    for (let j = 0; j < I.length; j += v) {
      let carry = 1
      for (let k = v - 1; k >= 0; k--) {
        const sum = I[j + k]! + B[k]! + carry
        I[j + k] = sum & 0xff
        carry = sum >> 8
      }
    }
  }
  return Buffer.concat(out).subarray(0, size)
}

function shroudedKey(keyPem: string, password: string, profile: Pkcs12Profile): Buffer {
  const key = createPrivateKey(keyPem)
  if (profile === 'modern') return key.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: password }) as Buffer
  const salt = randomBytes(8)
  const cipher = createCipheriv('des-ede3-cbc', pkcs12Kdf('sha1', password, salt, 1, ITERATIONS, 24), pkcs12Kdf('sha1', password, salt, 2, ITERATIONS, 8))
  const encrypted = Buffer.concat([cipher.update(key.export({ type: 'pkcs8', format: 'der' }) as Buffer), cipher.final()])
  return seq(seq(oid(OID.pbeSha3Des), seq(octets(salt), int(ITERATIONS))), octets(encrypted))
}

/** The .p12 of a leaf (PEM), its chain (PEM, possibly several) and its key, opened by the password. */
export function buildPkcs12(input: { certificate: string; chain: string; key: string; password: string; profile: Pkcs12Profile; name: string }): Buffer {
  const leaf = new X509Certificate(input.certificate)
  const chain = (input.chain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((p) => new X509Certificate(p))
  const keyId = createHash('sha1').update(leaf.raw).digest()
  const leafAttrs = set(seq(oid(OID.localKeyId), set(octets(keyId))), seq(oid(OID.friendlyName), set(tlv(0x1e, Buffer.from(input.name, 'utf16le').swap16()))))
  const certBag = (der: Buffer, attrs?: Buffer) => seq(oid(OID.certBag), explicit0(seq(oid(OID.x509Certificate), explicit0(octets(der)))), ...(attrs ? [attrs] : []))
  const certs = seq(certBag(leaf.raw, leafAttrs), ...chain.map((c) => certBag(c.raw)))
  const keys = seq(seq(oid(OID.shroudedKeyBag), explicit0(shroudedKey(input.key, input.password, input.profile)), leafAttrs))
  const dataInfo = (content: Buffer) => seq(oid(OID.data), explicit0(octets(content)))
  const authSafe = seq(dataInfo(certs), dataInfo(keys))
  const hash = input.profile === 'modern' ? 'sha256' : 'sha1'
  const macSalt = randomBytes(16)
  const macKey = pkcs12Kdf(hash, input.password, macSalt, 3, ITERATIONS, hash === 'sha1' ? 20 : 32)
  const mac = createHmac(hash, macKey).update(authSafe).digest()
  const macData = seq(seq(seq(oid(hash === 'sha1' ? OID.sha1 : OID.sha256), nul()), octets(mac)), octets(macSalt), int(ITERATIONS))
  return seq(int(3), dataInfo(authSafe), macData)
}

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { bitString, boolean, childrenOf, derNull, DerError, explicit, integer, octetString, oid, readDer, readOid, readTime, sequence, set, tlv, TAG, time, utf8, type Der } from './der.ts'

/**
 * What a certificate (or a precertificate's TBSCertificate) says that brand protection reads: its
 * DNS names, issuer, validity and serial; and, for the local log and the tests, certificates made
 * here (ECDSA P-256, signed with node:crypto) — real X.509 that OpenSSL, node and Go read.
 */

export type CertificateFacts = {
  /** DNS names: the subjectAltName's dNSNames, and the subject's CN when it is a DNS name not among them; lower case. */
  names: string[]
  commonName: string | null
  /** The issuer's distinguished name, RFC 4514 order reversed as people read it (`CN=…, O=…, C=…`). */
  issuer: string
  issuerCommonName: string | null
  notBefore: string
  notAfter: string
  /** Hexadecimal, lower case, no leading zero byte. */
  serial: string
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  country: '2.5.4.6',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  ctPoison: '1.3.6.1.4.1.11129.2.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const
export const CT_POISON_OID = OID.ctPoison

const ATTRIBUTE_NAMES: Record<string, string> = { [OID.commonName]: 'CN', [OID.organization]: 'O', [OID.country]: 'C', '2.5.4.11': 'OU', '2.5.4.7': 'L', '2.5.4.8': 'ST' }
const DNS_NAME = /^(\*\.)?([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9-]{2,63}$/i

/** The TBSCertificate's parts by name (version and the optional unique ids skipped). */
export function tbsParts(tbs: Der) {
  const items = childrenOf(tbs)
  let i = items[0]?.tag === 0xa0 ? 1 : 0
  const serial = items[i++]
  const signature = items[i++]
  const issuer = items[i++]
  const validity = items[i++]
  const subject = items[i++]
  const publicKey = items[i++]
  if (!serial || !signature || !issuer || !validity || !subject || !publicKey) throw new DerError('Incomplete TBSCertificate')
  const extensions = items.slice(i).find((item) => item.tag === 0xa3)
  return { items, serial, signature, issuer, validity, subject, publicKey, extensions }
}

/** A Name's attributes in order, each `[oid, value]`. */
function nameAttributes(name: Der): [string, string][] {
  const list: [string, string][] = []
  for (const rdn of childrenOf(name))
    for (const attribute of childrenOf(rdn)) {
      const [type, value] = childrenOf(attribute)
      if (type && value) list.push([readOid(type), value.tag === 0x1e ? Buffer.from(value.content).swap16().toString('utf16le') : value.content.toString(value.tag === TAG.UTF8 ? 'utf8' : 'latin1')])
    }
  return list
}

const nameText = (attributes: [string, string][]) =>
  attributes
    .slice()
    .reverse()
    .map(([type, value]) => `${ATTRIBUTE_NAMES[type] ?? type}=${value}`)
    .join(', ')

/** Each extension: its OID, criticality and the whole TLV. */
export function extensionsOf(extensions: Der | undefined): { oid: string; critical: boolean; value: Buffer; raw: Buffer }[] {
  if (!extensions) return []
  const [list] = childrenOf(extensions)
  if (!list) return []
  return childrenOf(list).map((extension) => {
    const parts = childrenOf(extension)
    const critical = parts[1]?.tag === TAG.BOOLEAN ? parts[1].content[0] !== 0 : false
    const value = parts[parts.length - 1]!
    return { oid: readOid(parts[0]!), critical, value: value.content, raw: extension.raw }
  })
}

/** Reads a TBSCertificate (DER). */
export function readTbs(der: Buffer): CertificateFacts {
  const tbs = readDer(der)
  if (tbs.tag !== TAG.SEQUENCE) throw new DerError('Not a TBSCertificate')
  const parts = tbsParts(tbs)
  const [notBefore, notAfter] = childrenOf(parts.validity)
  if (!notBefore || !notAfter) throw new DerError('Incomplete validity')
  const subject = nameAttributes(parts.subject)
  const issuer = nameAttributes(parts.issuer)
  const commonName = subject.find(([type]) => type === OID.commonName)?.[1] ?? null
  const names: string[] = []
  for (const extension of extensionsOf(parts.extensions)) {
    if (extension.oid !== OID.subjectAltName) continue
    for (const general of childrenOf(readDer(extension.value))) if (general.tag === 0x82) names.push(general.content.toString('latin1').toLowerCase().replace(/\.$/, ''))
  }
  const cn = commonName?.toLowerCase().replace(/\.$/, '')
  if (cn && DNS_NAME.test(cn) && !names.includes(cn)) names.unshift(cn)
  let serial = parts.serial.content
  while (serial.length > 1 && serial[0] === 0) serial = serial.subarray(1)
  return {
    names: [...new Set(names)],
    commonName,
    issuer: nameText(issuer),
    issuerCommonName: issuer.find(([type]) => type === OID.commonName)?.[1] ?? null,
    notBefore: readTime(notBefore).toISOString(),
    notAfter: readTime(notAfter).toISOString(),
    serial: serial.toString('hex'),
  }
}

/** The TBSCertificate of a certificate (DER) and the certificate's SubjectPublicKeyInfo. */
export function certificateParts(der: Buffer): { tbs: Buffer; publicKey: Buffer } {
  const certificate = readDer(der)
  const [tbs] = childrenOf(certificate)
  if (certificate.tag !== TAG.SEQUENCE || !tbs || tbs.tag !== TAG.SEQUENCE) throw new DerError('Not a certificate')
  return { tbs: tbs.raw, publicKey: tbsParts(tbs).publicKey.raw }
}

/** Reads a certificate (DER). */
export function readCertificate(der: Buffer): CertificateFacts {
  return readTbs(certificateParts(der).tbs)
}

/**
 * A precertificate's TBSCertificate as its log entry carries it (RFC 6962 §3.2): the same TBS
 * without the critical poison extension. Throws when the certificate has none.
 */
export function precertificateTbs(precertificate: Buffer): Buffer {
  const { tbs } = certificateParts(precertificate)
  const node = readDer(tbs)
  const parts = tbsParts(node)
  const extensions = extensionsOf(parts.extensions)
  if (!extensions.some((e) => e.oid === OID.ctPoison)) throw new DerError('Not a precertificate: no CT poison extension')
  const kept = extensions.filter((e) => e.oid !== OID.ctPoison).map((e) => e.raw)
  const items = parts.items.map((item) => (item === parts.extensions ? (kept.length ? explicit(3, sequence(...kept)) : Buffer.alloc(0)) : item.raw))
  return sequence(...items)
}

// ---------------------------------------------------------------- making certificates

export type Issuer = { name: string; key: KeyObject; publicKeyDer: Buffer; certificate: Buffer }

const ecdsaSha256 = () => sequence(oid(OID.ecdsaWithSha256))
const distinguishedName = (cn: string, organization?: string) =>
  sequence(...(organization ? [set(sequence(oid(OID.organization), utf8(organization)))] : []), set(sequence(oid(OID.commonName), utf8(cn))))

function signCertificate(tbs: Buffer, key: KeyObject): Buffer {
  return sequence(tbs, ecdsaSha256(), bitString(sign('sha256', tbs, key)))
}

/** A self-signed CA (ECDSA P-256) to issue test and demo certificates from. */
export function makeIssuer(name: string, options: { notBefore?: Date; notAfter?: Date } = {}): Issuer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const publicKeyDer = publicKey.export({ type: 'spki', format: 'der' })
  const subject = distinguishedName(name, name)
  const notBefore = options.notBefore ?? new Date(Date.now() - 86_400_000)
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 10 * 365 * 86_400_000)
  const tbs = sequence(
    explicit(0, integer(2)),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    ecdsaSha256(),
    subject,
    sequence(time(notBefore), time(notAfter)),
    subject,
    publicKeyDer,
    explicit(3, sequence(sequence(oid(OID.basicConstraints), boolean(true), octetString(sequence(boolean(true)))))),
  )
  return { name, key: privateKey, publicKeyDer, certificate: signCertificate(tbs, privateKey) }
}

/**
 * A leaf certificate for `names` (the first is the CN) issued by `issuer`; `precertificate`: with
 * the critical CT poison extension (RFC 6962 §3.1), as a CA logs it before issuing.
 */
export function makeCertificate(issuer: Issuer, names: string[], options: { serial?: Buffer; notBefore?: Date; notAfter?: Date; precertificate?: boolean; organization?: string } = {}): Buffer {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const notBefore = options.notBefore ?? new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000)
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 90 * 86_400_000)
  const san = sequence(oid(OID.subjectAltName), octetString(sequence(...names.map((n) => tlv(0x82, Buffer.from(n, 'latin1'))))))
  const poison = sequence(oid(OID.ctPoison), boolean(true), octetString(derNull()))
  const tbs = sequence(
    explicit(0, integer(2)),
    integer(options.serial ?? Buffer.concat([Buffer.from([0x02]), randomBytes(15)])),
    ecdsaSha256(),
    distinguishedName(issuer.name, issuer.name),
    sequence(time(notBefore), time(notAfter)),
    distinguishedName(names[0] ?? 'certificate', options.organization),
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(san, ...(options.precertificate ? [poison] : []))),
  )
  return signCertificate(tbs, issuer.key)
}

/** SHA-256 of an issuer's SubjectPublicKeyInfo: a precertificate entry's `issuer_key_hash`. */
export const issuerKeyHash = (issuerCertificate: Buffer) => createHash('sha256').update(certificateParts(issuerCertificate).publicKey).digest()

export const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`.replace(/\n\n/g, '\n')

import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { readCertificate, readTbs, type CertificateFacts } from './certificate.ts'

/**
 * RFC 6962's structures: the MerkleTreeLeaf a log's `get-entries` answers as `leaf_input`, the
 * chain in `extra_data`, the Merkle tree hash (§2.1), and the signed tree head (§3.5).
 */

export const X509_ENTRY = 0
export const PRECERT_ENTRY = 1

export type LeafEntry = { type: 'x509'; certificate: Buffer } | { type: 'precert'; issuerKeyHash: Buffer; tbs: Buffer }

/** A log entry read: when the log took it, what kind, and what the certificate says. */
export type CtEntry = CertificateFacts & {
  index: number
  /** The log's timestamp (ms since the epoch) of the entry. */
  timestamp: number
  type: 'x509' | 'precert'
}

export class CtParseError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CtParseError'
  }
}

const uint = (value: number, bytes: number) => {
  const buffer = Buffer.alloc(bytes)
  buffer.writeUIntBE(value, 0, bytes)
  return buffer
}
const uint64 = (value: number) => {
  const buffer = Buffer.alloc(8)
  buffer.writeBigUInt64BE(BigInt(value))
  return buffer
}
/** An opaque vector with a length prefix of `bytes` bytes. */
export const vector = (data: Buffer, bytes: number) => Buffer.concat([uint(data.length, bytes), data])

/** The signed entry of a leaf (the part an SCT also signs). */
function signedEntry(entry: LeafEntry): Buffer {
  return entry.type === 'x509' ? Buffer.concat([uint(X509_ENTRY, 2), vector(entry.certificate, 3)]) : Buffer.concat([uint(PRECERT_ENTRY, 2), entry.issuerKeyHash, vector(entry.tbs, 3)])
}

/** MerkleTreeLeaf (v1, timestamped_entry) with no extensions. */
export function encodeLeaf(timestamp: number, entry: LeafEntry): Buffer {
  return Buffer.concat([Buffer.from([0, 0]), uint64(timestamp), signedEntry(entry), uint(0, 2)])
}

/** Reads a MerkleTreeLeaf. */
export function decodeLeaf(leaf: Buffer): { timestamp: number; entry: LeafEntry } {
  const need = (at: number, n: number) => {
    if (at + n > leaf.length) throw new CtParseError('Truncated MerkleTreeLeaf')
  }
  need(0, 12)
  if (leaf[0] !== 0) throw new CtParseError(`MerkleTreeLeaf version ${leaf[0]} is not v1`)
  if (leaf[1] !== 0) throw new CtParseError(`Leaf type ${leaf[1]} is not a timestamped entry`)
  const timestamp = Number(leaf.readBigUInt64BE(2))
  const type = leaf.readUInt16BE(10)
  let at = 12
  if (type === X509_ENTRY) {
    need(at, 3)
    const length = leaf.readUIntBE(at, 3)
    need(at + 3, length)
    return { timestamp, entry: { type: 'x509', certificate: leaf.subarray(at + 3, at + 3 + length) } }
  }
  if (type === PRECERT_ENTRY) {
    need(at, 35)
    const issuerKeyHash = leaf.subarray(at, at + 32)
    at += 32
    const length = leaf.readUIntBE(at, 3)
    need(at + 3, length)
    return { timestamp, entry: { type: 'precert', issuerKeyHash, tbs: leaf.subarray(at + 3, at + 3 + length) } }
  }
  throw new CtParseError(`Unknown log entry type ${type}`)
}

/** A list of ASN.1 certificates, each 24-bit length-prefixed, inside a 24-bit length-prefixed list. */
export function encodeChain(certificates: Buffer[]): Buffer {
  return vector(Buffer.concat(certificates.map((c) => vector(c, 3))), 3)
}

export function decodeChain(data: Buffer, at = 0): { certificates: Buffer[]; end: number } {
  if (at + 3 > data.length) throw new CtParseError('Truncated certificate chain')
  const total = data.readUIntBE(at, 3)
  const end = at + 3 + total
  if (end > data.length) throw new CtParseError('Certificate chain past the end')
  const certificates: Buffer[] = []
  for (let p = at + 3; p < end;) {
    const length = data.readUIntBE(p, 3)
    certificates.push(data.subarray(p + 3, p + 3 + length))
    p += 3 + length
  }
  return { certificates, end }
}

/** A precertificate entry's extra_data: the precertificate, then its chain. */
export function encodePrecertExtra(precertificate: Buffer, chain: Buffer[]): Buffer {
  return Buffer.concat([vector(precertificate, 3), encodeChain(chain)])
}

/** One `get-entries` item read: the leaf and the certificate's facts (a precertificate's from its TBS). */
export function parseEntry(index: number, leafInput: Buffer, extraData: Buffer): CtEntry {
  const { timestamp, entry } = decodeLeaf(leafInput)
  const facts = entry.type === 'x509' ? readCertificate(entry.certificate) : readTbs(entry.tbs)
  if (entry.type === 'x509') decodeChain(extraData)
  return { index, timestamp, type: entry.type, ...facts }
}

// ---------------------------------------------------------------- the Merkle tree (§2.1)

export const leafHash = (leafInput: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(leafInput)
    .digest()
const nodeHash = (left: Buffer, right: Buffer) =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest()

/** MTH over leaf hashes `[from, to)`. */
export function treeHash(leaves: readonly Buffer[], from = 0, to = leaves.length): Buffer {
  const n = to - from
  if (n === 0) return createHash('sha256').digest()
  if (n === 1) return leaves[from]!
  let k = 1
  while (k * 2 < n) k *= 2
  return nodeHash(treeHash(leaves, from, from + k), treeHash(leaves, from + k, to))
}

// ---------------------------------------------------------------- signatures (§3.2, §3.5)

/** DigitallySigned: SHA-256 (4) with ECDSA (3), the DER signature 16-bit length-prefixed. */
export function digitallySign(data: Buffer, key: KeyObject): Buffer {
  return Buffer.concat([Buffer.from([4, 3]), vector(sign('sha256', data, key), 2)])
}

export function verifyDigitallySigned(data: Buffer, signed: Buffer, publicKey: KeyObject | Buffer): boolean {
  if (signed.length < 4 || signed[0] !== 4) return false
  const length = signed.readUInt16BE(2)
  const key = Buffer.isBuffer(publicKey) ? createPublicKey({ key: publicKey, format: 'der', type: 'spki' }) : publicKey
  return verify('sha256', data, key, signed.subarray(4, 4 + length))
}

/** What a tree head's signature covers: version 0, signature type tree_hash (1), timestamp, size, root. */
export const treeHeadData = (timestamp: number, treeSize: number, rootHash: Buffer) => Buffer.concat([Buffer.from([0, 1]), uint64(timestamp), uint64(treeSize), rootHash])

/** What an SCT's signature covers: version 0, certificate_timestamp (0), timestamp, the signed entry, no extensions. */
export const timestampData = (timestamp: number, entry: LeafEntry) => Buffer.concat([Buffer.from([0, 0]), uint64(timestamp), signedEntry(entry), uint(0, 2)])

/** A log's id: SHA-256 of its public key (SubjectPublicKeyInfo DER). */
export const logId = (publicKeyDer: Buffer) => createHash('sha256').update(publicKeyDer).digest()

/**
 * Certificate Transparency (RFC 6962): the log client brand protection's monitor reads new
 * certificates with, the entry parser (names, issuer, validity, serial of a certificate or a
 * precertificate), and the local log the demo and the tests run.
 */
export { createCtClient, parseCtLogs, CtLogError, type CtClient, type CtClientOptions, type CtLogSource, type SignedTreeHead } from './client.ts'
export { parseEntry, decodeLeaf, CtParseError, type CtEntry, type LeafEntry } from './rfc6962.ts'
export { readCertificate, readTbs, makeIssuer, makeCertificate, pem, type CertificateFacts, type Issuer } from './certificate.ts'
export { startLocalCtLog, type LocalCtLog } from './local-log.ts'

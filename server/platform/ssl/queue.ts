import type { SslCertificate } from '#server/db/schema-ssl.ts'
import { txRunner, type Tx } from '#server/platform/core/change.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

export const SSL_JOBS = { issue: 'ssl.issue', sweep: 'ssl.renewal-sweep', notices: 'ssl.expiry-notices' } as const

/** Queues the issuance job of a certificate (inside the transaction that made it, when given; `afterSeconds` later when paced). */
export async function queueIssue(deps: Pick<PlatformDeps, 'jobs'>, tx: Tx | null, certificateId: string, afterSeconds?: number) {
  await deps.jobs.send(
    SSL_JOBS.issue,
    { certificateId },
    { ...(tx ? { runner: txRunner(tx) } : {}), retryLimit: 8, singletonKey: certificateId, ...(afterSeconds ? { startAfterSeconds: afterSeconds } : {}) },
  )
}

/** A certificate's fields as the trail and the API show them: never the key, never the CSR's bulk. */
export function publicFields(c: SslCertificate) {
  const { private_key_enc: _key, csr_pem: _csr, certificate_pem: _cert, chain_pem: _chain, ...rest } = c
  return rest
}

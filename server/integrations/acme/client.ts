import https from 'node:https'
import acme from 'acme-client'

/**
 * The ACME (RFC 8555) side of SSL: which CA, how we reach and trust it, and the calls the
 * issuance job makes. The protocol itself is acme-client's; this module pins down what we use of it.
 */
export type AcmeSettings = {
  /** The CA's directory URL (https://…/directory). */
  directoryUrl: string
  /** How the CA is shown (e.g. "Pebble", "Let's Encrypt"). */
  caName: string
  /** PEM to trust for the CA's HTTPS (a local Pebble's self-made certificate); the system's trust otherwise. */
  tlsCaPem?: string
  /** External Account Binding for CAs that require it (commercial CAs). */
  eab?: { kid: string; hmacKey: string }
  /** The CA's issuer domain names for CAA (RFC 8659 §4.2; the directory's meta.caaIdentities): with them, orders are checked against the names' CAA records first. */
  caaIdentities?: string[]
  /** Only DV: a CA like Pebble; OV/EV orders say what such a CA would receive. */
  dvOnly?: boolean
  /** New orders the CA takes per interval (ACME_ORDER_LIMIT, e.g. 300 per 10,800 s): orders beyond wait for a slot (decision 401). */
  orderLimit?: { orders: number; intervalSeconds: number }
}

/** What the SSL area runs with: the CA (absent: the screens say none is configured) and the key that seals private keys. */
export type SslSettings = {
  acme: AcmeSettings | null
  keySecret: string
  /** Why no CA is configured, in words for the screens (e.g. "pebble is not installed"). */
  missing?: string
}

export type AcmeOrder = acme.Order
export type AcmeAuthorization = acme.Authorization
export type AcmeChallenge = AcmeAuthorization['challenges'][number]

let trusted: string | undefined
/** acme-client talks through one axios instance: its HTTPS agent trusts the configured CA certificate. */
function trust(pem: string | undefined) {
  if (!pem || pem === trusted) return
  trusted = pem
  acme.axios.defaults.httpsAgent = new https.Agent({ ca: pem, keepAlive: true })
}

/** A new ACME account key (ECDSA P-256, PEM). */
export async function newAccountKey(): Promise<string> {
  return (await acme.crypto.createPrivateEcdsaKey('P-256')).toString()
}

/** A client bound to one account at one CA; `accountUrl` once the account exists. */
export function acmeClient(settings: AcmeSettings, accountKeyPem: string, accountUrl?: string | null) {
  trust(settings.tlsCaPem)
  const client = new acme.Client({
    directoryUrl: settings.directoryUrl,
    accountKey: accountKeyPem,
    ...(accountUrl ? { accountUrl } : {}),
    ...(settings.eab ? { externalAccountBinding: settings.eab } : {}),
    backoffAttempts: 20,
    backoffMin: 200,
    backoffMax: 2000,
  })
  return {
    /** Creates (or finds, RFC 8555 §7.3.1) the account and answers its URL. */
    async register(): Promise<string> {
      await client.createAccount({ termsOfServiceAgreed: true })
      return client.getAccountUrl()
    },
    /** `replaces`: the ARI certID of the certificate a renewal replaces (RFC 9773 §5), only where the CA offers ARI. */
    createOrder: (names: string[], replaces?: string | null) =>
      client.createOrder({ identifiers: names.map((value) => ({ type: 'dns', value })), ...(replaces ? { replaces } : {}) } as Parameters<typeof client.createOrder>[0]),
    getOrder: (url: string) => client.getOrder({ url } as AcmeOrder),
    authorizations: (order: AcmeOrder) => client.getAuthorizations(order),
    /** For dns-01 the TXT value (base64url SHA-256 of the key authorisation, RFC 8555 §8.4); for http-01 the file's content. */
    keyAuthorization: (challenge: AcmeChallenge) => client.getChallengeKeyAuthorization(challenge),
    respond: (challenge: AcmeChallenge) => client.completeChallenge(challenge),
    waitValid: <T extends AcmeOrder | AcmeAuthorization | AcmeChallenge>(item: T) => client.waitForValidStatus(item) as Promise<T>,
    finalize: (order: AcmeOrder, csrPem: string) => client.finalizeOrder(order, csrPem),
    certificate: (order: AcmeOrder) => client.getCertificate(order),
    revoke: (certificatePem: string, reason: number) => client.revokeCertificate(certificatePem, { reason }),
    authorization: async (url: string) => (await client.getAuthorizations({ authorizations: [url] } as AcmeOrder))[0]!,
  }
}

export type AcmeClient = ReturnType<typeof acmeClient>

/** A CSR for the names with the key given (PEM): the common name is the first name. */
export async function createCsr(names: string[], keyPem: string, subject: { organization?: string; country?: string; locality?: string; state?: string } = {}): Promise<string> {
  // An OV/EV order's organisation goes into the subject (O, C, L, ST): what such a CA validates and names.
  const [, csr] = await acme.crypto.createCsr({ commonName: names[0]!, altNames: names, ...subject }, keyPem)
  return csr.toString()
}

/** The names a CSR asks for (common name and SANs). */
export function csrNames(csrPem: string): { commonName: string | null; altNames: string[] } {
  const domains = acme.crypto.readCsrDomains(csrPem)
  return { commonName: domains.commonName ?? null, altNames: domains.altNames ?? [] }
}

/** The PEM blocks of a chain, leaf first. */
export const splitPem = (chain: string): string[] => acme.crypto.splitPemChain(chain)

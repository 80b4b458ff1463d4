import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto'
import { sql, type Insertable, type Kysely } from 'kysely'
import {
  DEFAULT_SSL_KEY_TYPE,
  normaliseCertificateName,
  REVOCATION_REASONS,
  SSL_IN_FLIGHT,
  SSL_KEY_TYPES,
  SSL_EXPIRING_DAYS,
  SSL_PERIODS,
  SSL_PRODUCTS,
  type RevocationReason,
  type SslFile,
  type SslKeyType,
  type SslProduct,
} from '#common/ssl.ts'
import { SSL_CERTIFICATES_LIST } from '#common/lists/ssl.ts'
import type { DB } from '#server/db/schema.ts'
import type { SslCertificate, SslCertificatesTable, SslOrganisation, SslValidation } from '#server/db/schema-ssl.ts'
import { acmeClient, createCsr, csrNames, newAccountKey, type AcmeSettings, type SslSettings } from '#server/integrations/acme/client.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { AppError, type CodedFieldError, fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { foreignHolders } from '#server/platform/dns/service.ts'
import { checkCaa } from './caa.ts'
import { chargeOf, quoteSsl, releaseSslCharge, reserveSslCharge, termTransactionIds, type SslCharge } from './charges.ts'
import { refuseChangedPrice, type ExpectedPrice } from '#server/platform/billing/transactions.ts'
import { buildPkcs12, type Pkcs12Profile } from './pkcs12.ts'
import { evMissing, evSubject, findOrganisation, organisationSubject } from './organisations.ts'
import { publicFields, queueIssue } from './queue.ts'
import { openSecret, sealSecret } from './secrets.ts'
import { joinAccounts } from '#server/platform/accounts/reads.ts'

export { publicFields, queueIssue, SSL_JOBS } from './queue.ts'

export function sslSettings(deps: Pick<PlatformDeps, 'ssl'>): SslSettings {
  return deps.ssl ?? { acme: null, keySecret: '', missing: 'no ACME CA is configured (ACME_DIRECTORY_URL), and no local Pebble runs' }
}

/** /ssls as a list resource; client scopes add the account column. */
export const certificatesResource = listResource(SSL_CERTIFICATES_LIST, {
  from: `ssl_certificates s ${joinAccounts('a', 's.account_id')}`,
  tiebreak: 's.id',
  columns: {
    id: 's.id',
    group_id: 's.account_id',
    'account.name': 'a.name',
    common_name: 's.common_name',
    names: "array_to_string(s.names, ' ')",
    status: 's.status',
    product: 's.product',
    ca: 's.ca',
    key_type: 's.key_type',
    origin: 's.origin',
    not_after: 's.not_after',
    issued_at: 's.issued_at',
    term_id: 's.term_id',
    created_at: 's.created_at',
    updated_at: 's.updated_at',
  },
})
export const scopedCertificatesResource: ListResource = { ...certificatesResource, accountColumn: 's.account_id' }

// --- keys and CSRs -------------------------------------------------------------------------------

function generateKey(type: SslKeyType): string {
  const pkcs8 = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString()
  if (type.startsWith('ecdsa-')) return pkcs8(generateKeyPairSync('ec', { namedCurve: type === 'ecdsa-p384' ? 'P-384' : 'P-256' }).privateKey)
  return pkcs8(generateKeyPairSync('rsa', { modulusLength: Number(type.slice(4)) }).privateKey)
}

export type CsrInfo = { common_name: string | null; names: string[]; key_type: string; key_bits: number; weak: string | null }

/** Decodes a pasted CSR: its names and its key, and why the key is too weak when it is. */
export function decodeCsr(pem: string): CsrInfo {
  const { commonName, altNames } = csrNames(pem)
  const names = [...new Set([...(commonName ? [commonName.toLowerCase()] : []), ...altNames.map((n) => n.toLowerCase())])]
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64')
  const key = createPublicKey({ key: spkiOfCsr(der), format: 'der', type: 'spki' })
  const details = key.asymmetricKeyDetails ?? {}
  if (key.asymmetricKeyType === 'rsa') {
    const bits = details.modulusLength ?? 0
    return { common_name: commonName, names, key_type: `rsa-${bits}`, key_bits: bits, weak: bits < 2048 ? `an RSA key of ${bits} bits is too weak (2048 at least)` : null }
  }
  if (key.asymmetricKeyType === 'ec') {
    const curve = details.namedCurve ?? ''
    const type = curve === 'prime256v1' ? 'ecdsa-p256' : curve === 'secp384r1' ? 'ecdsa-p384' : `ecdsa-${curve}`
    const bits = type === 'ecdsa-p256' ? 256 : type === 'ecdsa-p384' ? 384 : 0
    return { common_name: commonName, names, key_type: type, key_bits: bits, weak: bits ? null : `the curve ${curve} is not accepted (P-256 or P-384)` }
  }
  return { common_name: commonName, names, key_type: key.asymmetricKeyType ?? 'unknown', key_bits: 0, weak: `a ${key.asymmetricKeyType} key is not accepted` }
}

/** The SubjectPublicKeyInfo inside a PKCS#10 request (RFC 2986): the second element of its info. */
function spkiOfCsr(der: Buffer): Buffer {
  const read = (at: number) => {
    let length = der[at + 1]!
    let header = 2
    if (length & 0x80) {
      const bytes = length & 0x7f
      length = 0
      for (let i = 0; i < bytes; i++) length = length * 256 + der[at + 2 + i]!
      header += bytes
    }
    return { start: at, body: at + header, end: at + header + length }
  }
  const request = read(0)
  const info = read(request.body)
  const version = read(info.body)
  const subject = read(version.end)
  const spki = read(subject.end)
  return der.subarray(spki.start, spki.end)
}

// --- ordering ------------------------------------------------------------------------------------

export type OrderInput = { product: string; period_months: number; names: string[]; key_type?: string; csr?: string; organisation_id?: string | null; expected?: ExpectedPrice }

/** Checks an order's names against its product: count, wildcards, duplicates. */
function cleanNames(product: SslProduct, names: string[], errors: CodedFieldError[]): string[] {
  const limits = SSL_PRODUCTS[product]
  const out: string[] = []
  names.forEach((raw, i) => {
    if (!raw.trim()) return
    const name = normaliseCertificateName(raw)
    if (!name) return errors.push(fieldError(`names.${i}`, 'ssl.name-invalid', `'${raw.trim()}' is not a host name`))
    if (name.startsWith('*.') && !limits.wildcard) return errors.push(fieldError(`names.${i}`, 'ssl.wildcard-not-allowed', 'This product does not cover wildcard names'))
    if (out.includes(name)) return errors.push(fieldError(`names.${i}`, 'ssl.name-repeated', `${name} is named twice`))
    out.push(name)
  })
  if (!out.length && !errors.length) errors.push(fieldError('names', 'field.required', 'This field is required'))
  if (out.length > limits.maxNames) errors.push(fieldError('names', 'ssl.too-many-names', `This product covers at most ${limits.maxNames} names`))
  return out
}

/**
 * The names and key of an order or a reissue: names checked against the product, and a key
 * generated here (sealed) or the pasted CSR's (its names must be the order's, its key not weak).
 */
async function keyMaterial(
  settings: SslSettings,
  product: SslProduct | null,
  rawNames: string[],
  keyTypeIn: string | undefined,
  csrIn: string | undefined,
  errors: CodedFieldError[],
  subject: Parameters<typeof createCsr>[2] = {},
) {
  const names = product ? cleanNames(product, rawNames, errors) : []
  let keyType: string = keyTypeIn ?? DEFAULT_SSL_KEY_TYPE
  let csr = csrIn?.trim() || null
  if (csr) {
    try {
      const info = decodeCsr(csr)
      keyType = info.key_type
      if (info.weak) errors.push(fieldError('csr', 'ssl.csr-weak-key', `The CSR's key is refused: ${info.weak}`))
      const asked = [...info.names].sort().join(' ')
      if (names.length && asked !== [...names].sort().join(' '))
        errors.push(fieldError('csr', 'ssl.csr-names-differ', `The CSR names ${info.names.join(', ') || 'nothing'}, the order ${names.join(', ')}`))
    } catch {
      errors.push(fieldError('csr', 'ssl.csr-invalid', 'This is not a PEM certificate signing request'))
    }
  } else if (!(SSL_KEY_TYPES as readonly string[]).includes(keyType)) {
    errors.push(fieldError('key_type', 'ssl.key-type-unknown', 'Choose one of the key types offered', [...SSL_KEY_TYPES]))
  }
  if (errors.length) throw invalid('ssl.order-invalid', 'The order is not valid', errors)
  let sealedKey: string | null = null
  if (!csr) {
    const key = generateKey(keyType as SslKeyType)
    csr = await createCsr(names, key, subject)
    sealedKey = sealSecret(settings.keySecret, key)
  }
  return { names, keyType, csr: csr!, sealedKey }
}

/**
 * A name at or under another account's domain or live zone is that account's: it is never on a
 * certificate of this one (issue 26), whatever the CA would be shown. A wildcard may not cover a
 * name another account holds below its base either. A name no account here holds is proven to the
 * CA (its DNS record or HTTP-01 file where it is hosted); a name in the account's portfolio or live
 * zones is proven through our DNS.
 */
async function refuseForeignNames(db: Kysely<DB>, accountId: string, names: string[]) {
  const errors: CodedFieldError[] = []
  for (const [i, name] of names.entries()) {
    const wildcard = name.startsWith('*.')
    if ((await foreignHolders(db, accountId, wildcard ? name.slice(2) : name, { below: wildcard })).length)
      errors.push(fieldError(`names.${i}`, 'ssl.name-not-yours', `${name} is in a domain or DNS zone of another account`))
  }
  if (errors.length) throw invalid('ssl.order-invalid', 'The order is not valid', errors)
}

/** A name whose CAA records forbid the CA is refused before anything goes to it (beside the name, with the record to add). */
async function refuseByCaa(deps: PlatformDeps, accountId: string, names: string[], acme: AcmeSettings) {
  if (!acme.caaIdentities?.length) return
  const account = await deps.db.selectFrom('ssl_acme_accounts').select('account_url').where('directory_url', '=', acme.directoryUrl).executeTakeFirst()
  const verdicts = await checkCaa(deps, accountId, names, acme.caaIdentities, account?.account_url ?? null)
  const errors = verdicts.flatMap((v) =>
    v.allowed
      ? []
      : [
          fieldError(
            `names.${names.indexOf(v.name)}`,
            'ssl.caa-forbids',
            `The CAA records of ${v.domain} do not let ${acme.caName} issue for ${v.name} (${v.reason}); add ${v.domain}. CAA 0 ${v.name.startsWith('*.') ? 'issuewild' : 'issue'} "${acme.caaIdentities![0]}"`,
            [acme.caaIdentities![0]!],
          ),
        ],
  )
  if (errors.length) throw invalid('ssl.order-invalid', 'The order is not valid', errors)
}

/**
 * Orders a certificate: checks names, product, period and key (or the pasted CSR, whose names
 * must be the order's and whose key must not be weak), stores it with its coverage term, and
 * queues the issuance job in the same transaction. DV goes straight to the CA.
 */
export async function orderCertificate(deps: PlatformDeps, scope: Scope, input: OrderInput): Promise<SslCertificate> {
  requirePermission(scope.actor, 'ssl-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const settings = sslSettings(deps)
  if (!settings.acme) throw refused('ssl.no-ca', `Certificates cannot be ordered here: ${settings.missing ?? 'no CA is configured'}`)
  const errors: CodedFieldError[] = []
  const product = input.product in SSL_PRODUCTS ? (input.product as SslProduct) : null
  if (!product) errors.push(fieldError('product', 'ssl.product-unknown', 'Choose one of the products offered', Object.keys(SSL_PRODUCTS)))
  if (!(SSL_PERIODS as readonly number[]).includes(input.period_months)) errors.push(fieldError('period_months', 'ssl.period-unknown', 'Choose one of the periods offered', SSL_PERIODS.map(String)))
  // OV and EV name an organisation of the account; the order waits (draft) until staff have validated it.
  const level = product ? SSL_PRODUCTS[product].level : 'dv'
  let organisation: SslOrganisation | null = null
  if (level !== 'dv') {
    if (!input.organisation_id) errors.push(fieldError('organisation_id', 'ssl.organisation-required', 'An OV or EV certificate names an organisation: choose or add one'))
    else organisation = await findOrganisation(deps.db, scope, input.organisation_id).catch(() => null)
    if (input.organisation_id && (!organisation || organisation.account_id !== accountId))
      errors.push(fieldError('organisation_id', 'ssl.organisation-unknown', 'Choose one of the account’s organisations'))
    else if (organisation && level === 'ev' && evMissing(organisation).length)
      errors.push(fieldError('organisation_id', 'ssl.organisation-ev-incomplete', `An EV certificate needs the organisation's ${evMissing(organisation).join(', ')}`, evMissing(organisation)))
  }
  const { names, keyType, csr, sealedKey } = await keyMaterial(settings, product, input.names, input.key_type, input.csr, errors, organisation ? organisationSubject(organisation) : {})
  await refuseForeignNames(deps.db, accountId, names)
  await refuseByCaa(deps, accountId, names, settings.acme)
  const now = deps.now()
  // Priced now (the pricing engine's quote), charged below in the same transaction as the order.
  const price = await quoteSsl(deps.db, accountId, product!, input.period_months, 'order', now)
  const waits = organisation !== null && organisation.status !== 'validated'
  return change(deps.db, scope, async (tx, audit) => {
    const ends = new Date(now)
    ends.setUTCMonth(ends.getUTCMonth() + input.period_months)
    const term = await tx
      .insertInto('ssl_terms')
      .values({ account_id: accountId, product: product!, period_months: input.period_months, starts_at: now, ends_at: ends })
      .returning('id')
      .executeTakeFirstOrThrow()
    // Reserved before the job that reaches the CA is queued: past the limit nothing is ordered (the shortfall stated).
    refuseChangedPrice(input.expected, price && { amount_minor: price.quote.total_minor, currency: price.quote.currency })
    const chargeKey = await reserveSslCharge(tx, scope, { account_id: accountId, common_name: names[0]! }, price, `ssl-order:${term.id}`, 'order')
    const cert = await tx
      .insertInto('ssl_certificates')
      .values({
        account_id: accountId,
        term_id: term.id,
        charge_key: chargeKey,
        organisation_id: organisation?.id ?? null,
        status: waits ? 'draft' : 'pending_validation',
        product: product!,
        validation_level: SSL_PRODUCTS[product!].level,
        common_name: names[0]!,
        names,
        key_type: keyType,
        key_source: sealedKey ? 'generated' : 'csr',
        csr_pem: csr,
        private_key_enc: sealedKey,
        ca: settings.acme!.caName,
        directory_url: settings.acme!.directoryUrl,
        created_by: scope.actor.label,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, action: 'order', after: publicFields(cert) })
    if (!waits) await queueIssue(deps, tx, cert.id)
    return cert
  })
}

// --- reissue and import --------------------------------------------------------------------------

export type ReissueInput = { names?: string[]; key_type?: string; csr?: string }

/**
 * Reissues an issued certificate under the same coverage term (its end does not move): a new key
 * (or a pasted CSR), the same names or others within the product's limits. The reissue is the
 * certificate's successor (renewal_of), so the renewal sweep renews the reissue, not the old one.
 */
export async function reissueCertificate(deps: PlatformDeps, scope: Scope, id: string, input: ReissueInput): Promise<SslCertificate> {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (cert.key_source === 'imported') throw refused('ssl.imported', 'This certificate was issued elsewhere and imported: it is reissued where it was bought')
  if (!['issued', 'expiring'].includes(cert.status)) throw refused('ssl.not-reissuable', 'Only an issued certificate can be reissued')
  const settings = sslSettings(deps)
  if (!settings.acme) throw refused('ssl.no-ca', `Certificates cannot be reissued here: ${settings.missing ?? 'no CA is configured'}`)
  const term = await deps.db.selectFrom('ssl_terms').select('ends_at').where('id', '=', cert.term_id).executeTakeFirstOrThrow()
  if (term.ends_at <= deps.now()) throw refused('ssl.term-ended', 'The coverage term of this certificate has ended: order a new one')
  if (await deps.db.selectFrom('ssl_certificates').select('id').where('renewal_of', '=', cert.id).executeTakeFirst()) {
    throw refused('ssl.superseded', 'This certificate has been renewed or reissued already: reissue the newest one')
  }
  const product = cert.product in SSL_PRODUCTS ? (cert.product as SslProduct) : null
  if (!product) throw refused('ssl.product-unknown', 'The product of this certificate is not offered any more')
  const keyType = input.key_type ?? ((SSL_KEY_TYPES as readonly string[]).includes(cert.key_type) ? cert.key_type : DEFAULT_SSL_KEY_TYPE)
  const { names, keyType: chosen, csr, sealedKey } = await keyMaterial(settings, product, input.names?.length ? input.names : cert.names, keyType, input.csr, [], await subjectOf(deps, cert))
  await refuseForeignNames(deps.db, cert.account_id, names)
  const now = deps.now()
  return change(deps.db, scope, async (tx, audit) => {
    const next = await insertSuccessor(
      tx,
      settings.acme!,
      cert,
      {
        common_name: names[0]!,
        names,
        key_type: chosen,
        key_source: sealedKey ? 'generated' : 'csr',
        csr_pem: csr,
        private_key_enc: sealedKey,
        origin: 'reissue',
        created_by: scope.actor.label,
      },
      now,
    )
    if (!next) throw refused('ssl.superseded', 'This certificate has been renewed or reissued already: reissue the newest one')
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: next.id, accountId: cert.account_id, action: 'reissue', after: { ...publicFields(next), reissue_of: cert.id } })
    await queueIssue(deps, tx, next.id)
    return next
  })
}

/** What a successor has of its own: its names and key, where it came from, who made it, and a renewal's charge and months. */
type SuccessorOwn = Pick<
  Insertable<SslCertificatesTable>,
  'common_name' | 'names' | 'key_type' | 'key_source' | 'csr_pem' | 'private_key_enc' | 'origin' | 'created_by' | 'charge_key' | 'term_months_added'
>

/**
 * Inserts the successor of `cert` under its coverage term (a reissue, or a renewal by the customer or
 * the sweep): its account, term, organisation and product, waiting for validation at the CA `acme`;
 * undefined where `cert` has a successor already (renewal_of is unique: of two at once, one is made).
 */
export function insertSuccessor(tx: Tx, acme: AcmeSettings, cert: SslCertificate, own: SuccessorOwn, now: Date) {
  return tx
    .insertInto('ssl_certificates')
    .values({
      account_id: cert.account_id,
      term_id: cert.term_id,
      organisation_id: cert.organisation_id,
      status: 'pending_validation',
      product: cert.product,
      validation_level: cert.validation_level,
      ...own,
      ca: acme.caName,
      directory_url: acme.directoryUrl,
      renewal_of: cert.id,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('renewal_of').where('renewal_of', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst()
}

async function organisationSummary(db: Kysely<DB>, id: string) {
  const o = await db.selectFrom('ssl_organisations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  return { id: o.id, legal_name: o.legal_name, status: o.status, subject: organisationSubject(o), ev: evSubject(o) }
}

/** The CSR subject of an OV/EV certificate's successor: its organisation's (none for DV). */
export async function subjectOf(deps: Pick<PlatformDeps, 'db'>, cert: Pick<SslCertificate, 'organisation_id'>) {
  if (!cert.organisation_id) return {}
  const organisation = await deps.db.selectFrom('ssl_organisations').selectAll().where('id', '=', cert.organisation_id).executeTakeFirst()
  return organisation ? organisationSubject(organisation) : {}
}

export type RenewTermInput = { period_months: number; expected?: ExpectedPrice }

/**
 * Renews the coverage term (the customer buys another period): a successor certificate with the
 * same names and a new key of the same type (or the same CSR), charged at the quote of the
 * product's renewal (its order product where no renewal is sold) like an order — reserved now,
 * refused past the limit before the CA hears of it, settled when it is issued, which also extends
 * the term by its months; released when it fails.
 */
export async function renewTerm(deps: PlatformDeps, scope: Scope, id: string, input: RenewTermInput): Promise<SslCertificate> {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (cert.key_source === 'imported') throw refused('ssl.imported', 'This certificate was issued elsewhere and imported: it is renewed where it was bought')
  if (!['issued', 'expiring', 'expired'].includes(cert.status)) throw refused('ssl.not-renewable', 'Only an issued or expired certificate can be renewed')
  if (!(SSL_PERIODS as readonly number[]).includes(input.period_months))
    throw invalid('ssl.order-invalid', 'The renewal is not valid', [fieldError('period_months', 'ssl.period-unknown', 'Choose one of the periods offered', SSL_PERIODS.map(String))])
  const settings = sslSettings(deps)
  if (!settings.acme) throw refused('ssl.no-ca', `Certificates cannot be renewed here: ${settings.missing ?? 'no CA is configured'}`)
  if (await deps.db.selectFrom('ssl_certificates').select('id').where('renewal_of', '=', cert.id).executeTakeFirst()) {
    throw refused('ssl.superseded', 'This certificate has been renewed or reissued already: renew the newest one')
  }
  const product = cert.product in SSL_PRODUCTS ? (cert.product as SslProduct) : null
  if (!product) throw refused('ssl.product-unknown', 'The product of this certificate is not offered any more')
  const now = deps.now()
  const term = await deps.db.selectFrom('ssl_terms').select('ends_at').where('id', '=', cert.term_id).executeTakeFirstOrThrow()
  const price = await quoteSsl(deps.db, cert.account_id, product, input.period_months, 'renew', now)
  const keyType = (SSL_KEY_TYPES as readonly string[]).includes(cert.key_type) ? cert.key_type : DEFAULT_SSL_KEY_TYPE
  const material = await keyMaterial(settings, product, cert.names, keyType, cert.key_source === 'csr' ? cert.csr_pem : undefined, [], await subjectOf(deps, cert))
  // A name that has become another account's since is not renewed for this one (issue 26).
  await refuseForeignNames(deps.db, cert.account_id, cert.names)
  return change(deps.db, scope, async (tx, audit) => {
    refuseChangedPrice(input.expected, price && { amount_minor: price.quote.total_minor, currency: price.quote.currency })
    const chargeKey = await reserveSslCharge(tx, scope, cert, price, `ssl-renew:${cert.term_id}:${term.ends_at.toISOString()}`, 'renew')
    const next = await insertSuccessor(
      tx,
      settings.acme!,
      cert,
      {
        charge_key: chargeKey,
        term_months_added: input.period_months,
        common_name: cert.common_name,
        names: cert.names,
        key_type: material.keyType,
        key_source: material.sealedKey ? 'generated' : 'csr',
        csr_pem: material.csr,
        private_key_enc: material.sealedKey,
        origin: 'renewal',
        created_by: scope.actor.label,
      },
      now,
    )
    if (!next) throw refused('ssl.superseded', 'This certificate has been renewed or reissued already: renew the newest one')
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: next.id, accountId: cert.account_id, action: 'renew-term', after: { ...publicFields(next), renews: cert.id } })
    await queueIssue(deps, tx, next.id)
    return next
  })
}

export type ImportInput = { certificate: string; chain?: string; private_key?: string }

const pemCertificates = (text: string) => text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
const subjectField = (dn: string, field: string) =>
  dn
    .split('\n')
    .find((l) => l.startsWith(`${field}=`))
    ?.slice(field.length + 1) ?? null

/** A public key's type as the screens name it: ecdsa-p256, rsa-2048… */
function keyTypeOf(key: KeyObject): string {
  const details = key.asymmetricKeyDetails ?? {}
  if (key.asymmetricKeyType === 'rsa') return `rsa-${details.modulusLength ?? 0}`
  if (key.asymmetricKeyType === 'ec') return details.namedCurve === 'prime256v1' ? 'ecdsa-p256' : details.namedCurve === 'secp384r1' ? 'ecdsa-p384' : `ecdsa-${details.namedCurve ?? ''}`
  return key.asymmetricKeyType ?? 'unknown'
}

/**
 * Imports a certificate bought elsewhere, to track its expiry: the PEM certificate (and its chain,
 * pasted with it or apart), optionally its key. Every link of the chain must verify (each
 * certificate issued and signed by the next), the key must be the certificate's; names, issuer and
 * validity are read from it. Its own coverage term spans its validity; it is never renewed here.
 */
export async function importCertificate(deps: PlatformDeps, scope: Scope, input: ImportInput): Promise<SslCertificate> {
  requirePermission(scope.actor, 'ssl-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const errors: CodedFieldError[] = []
  let all: X509Certificate[]
  try {
    all = [...pemCertificates(input.certificate), ...pemCertificates(input.chain ?? '')].map((pem) => new X509Certificate(pem))
  } catch {
    all = []
  }
  const [leaf, ...chain] = all
  if (!leaf) throw invalid('ssl.import-invalid', 'The certificate cannot be imported', [fieldError('certificate', 'ssl.import-not-certificate', 'This is not a PEM certificate')])
  let child = leaf
  for (const [i, issuer] of chain.entries()) {
    if (!child.checkIssued(issuer) || !child.verify(issuer.publicKey)) {
      errors.push(fieldError('chain', 'ssl.import-chain-broken', `The chain does not verify: its certificate ${i + 1} did not issue the one before it`))
      break
    }
    child = issuer
  }
  const names = [...new Set([...(leaf.subjectAltName ?? '').matchAll(/DNS:([^,\s]+)/g)].map((m) => m[1]!.toLowerCase()))]
  const cn = subjectField(leaf.subject, 'CN')?.toLowerCase() ?? null
  if (cn && !names.includes(cn) && normaliseCertificateName(cn)) names.unshift(cn)
  if (!names.length) errors.push(fieldError('certificate', 'ssl.import-no-names', 'The certificate names no host'))
  let sealedKey: string | null = null
  if (input.private_key?.trim()) {
    try {
      const key = createPrivateKey(input.private_key.trim())
      if (!leaf.checkPrivateKey(key)) errors.push(fieldError('private_key', 'ssl.import-key-mismatch', 'This key is not the certificate’s'))
      else sealedKey = sealSecret(sslSettings(deps).keySecret, key.export({ type: 'pkcs8', format: 'pem' }).toString())
    } catch {
      errors.push(fieldError('private_key', 'ssl.import-key-invalid', 'This is not an unencrypted PEM private key'))
    }
  }
  const serial = leaf.serialNumber
  if (await deps.db.selectFrom('ssl_certificates').select('id').where('account_id', '=', accountId).where('serial', '=', serial).executeTakeFirst()) {
    errors.push(fieldError('certificate', 'ssl.import-duplicate', 'This certificate is here already'))
  }
  if (errors.length) throw invalid('ssl.import-invalid', 'The certificate cannot be imported', errors)
  const notBefore = new Date(leaf.validFrom)
  const notAfter = new Date(leaf.validTo)
  const now = deps.now()
  const status = notAfter <= now ? 'expired' : notAfter.getTime() - now.getTime() <= SSL_EXPIRING_DAYS * 86_400_000 ? 'expiring' : 'issued'
  const months = Math.min(120, Math.max(1, Math.round((notAfter.getTime() - notBefore.getTime()) / (30.44 * 86_400_000))))
  const ca = subjectField(leaf.issuer, 'O') ?? subjectField(leaf.issuer, 'CN') ?? 'unknown'
  return change(deps.db, scope, async (tx, audit) => {
    const term = await tx
      .insertInto('ssl_terms')
      .values({ account_id: accountId, product: 'imported', period_months: months, starts_at: notBefore, ends_at: notAfter })
      .returning('id')
      .executeTakeFirstOrThrow()
    const cert = await tx
      .insertInto('ssl_certificates')
      .values({
        account_id: accountId,
        term_id: term.id,
        status,
        product: 'imported',
        validation_level: subjectField(leaf.subject, 'O') ? 'ov' : 'dv',
        common_name: names[0]!,
        names,
        key_type: keyTypeOf(leaf.publicKey),
        key_source: 'imported',
        csr_pem: '',
        private_key_enc: sealedKey,
        ca,
        directory_url: '',
        certificate_pem: `${leaf.toString().trim()}\n`,
        chain_pem: chain.map((c) => `${c.toString().trim()}\n`).join(''),
        serial,
        not_before: notBefore,
        not_after: notAfter,
        issued_at: notBefore,
        origin: 'import',
        created_by: scope.actor.label,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, action: 'import', after: publicFields(cert) })
    return cert
  })
}

// --- reading -------------------------------------------------------------------------------------

/** One certificate the scope reaches; another account's is a 404 like a missing one. */
export async function findCertificate(db: Kysely<DB> | Tx, scope: Scope, id: string): Promise<SslCertificate> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Certificate not found')
  const reach = reachOf(scope)
  let query = db.selectFrom('ssl_certificates').selectAll().where('id', '=', id)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const cert = await query.executeTakeFirst()
  if (!cert) throw notFound('Certificate not found')
  return cert
}

export type CertificateDetail = {
  certificate: SslCertificate
  /** What this certificate is charged (its order or a renewal of its term); null when free. */
  charge: SslCharge | null
  /** OV/EV: the organisation it names, its state, and the CSR subject an OV/EV CA receives. */
  organisation: { id: string; legal_name: string; status: SslOrganisation['status']; subject: Record<string, string>; ev: Record<string, string> } | null
  validations: SslValidation[]
  /** Every certificate of the same coverage term, oldest first (the renewal and reissue chain). */
  term: {
    id: string
    product: string
    period_months: number
    starts_at: Date
    ends_at: Date
    notices_sent: number[]
    /** The billing transactions of the term (its order, renewals of the term): /ssls/{id}/transactions. */
    transaction_ids: string[]
    certificates: { id: string; status: string; not_after: Date | null; created_at: Date; renewal_of: string | null; origin: string }[]
  }
}

export async function getCertificate(deps: PlatformDeps, scope: Scope, id: string): Promise<CertificateDetail> {
  requirePermission(scope.actor, 'ssl-viewer')
  const certificate = await findCertificate(deps.db, scope, id)
  const validations = await deps.db.selectFrom('ssl_validations').selectAll().where('certificate_id', '=', id).orderBy('name').execute()
  const term = await deps.db.selectFrom('ssl_terms').selectAll().where('id', '=', certificate.term_id).executeTakeFirstOrThrow()
  const certificates = await deps.db
    .selectFrom('ssl_certificates')
    .select(['id', 'status', 'not_after', 'created_at', 'renewal_of', 'origin'])
    .where('term_id', '=', term.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return {
    certificate,
    charge: await chargeOf(deps.db, certificate),
    organisation: certificate.organisation_id ? await organisationSummary(deps.db, certificate.organisation_id) : null,
    validations,
    term: {
      id: term.id,
      product: term.product,
      period_months: term.period_months,
      starts_at: term.starts_at,
      ends_at: term.ends_at,
      notices_sent: term.notices_sent,
      transaction_ids: await termTransactionIds(deps.db, term.id),
      certificates,
    },
  }
}

// --- actions -------------------------------------------------------------------------------------

/**
 * "Check now" / "Check and validate": the issuance job looks at the CA (and the names' records or
 * files) again. `methods` switches names hosted elsewhere between the DNS-01 record and the HTTP-01
 * file (RFC 8555 §8.3; never for a wildcard, which only DNS-01 proves).
 */
export async function checkNow(deps: PlatformDeps, scope: Scope, id: string, methods: Record<string, 'dns-01' | 'http-01'> = {}) {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (!SSL_IN_FLIGHT.includes(cert.status)) throw refused('ssl.not-in-validation', 'Only a certificate in validation or issuing can be checked again')
  const errors: CodedFieldError[] = []
  for (const [name, method] of Object.entries(methods)) {
    if (!cert.names.includes(name)) errors.push(fieldError(`methods.${name}`, 'ssl.name-unknown', `${name} is not a name of this certificate`))
    else if (method === 'http-01' && name.startsWith('*.')) errors.push(fieldError(`methods.${name}`, 'ssl.http01-wildcard', 'A wildcard name is proven by its DNS record only'))
  }
  if (errors.length) throw invalid('ssl.check-invalid', 'The check is not valid', errors)
  if (Object.keys(methods).length)
    await change(deps.db, scope, async (tx, audit) => {
      for (const [name, method] of Object.entries(methods))
        await tx
          .insertInto('ssl_validations')
          .values({ certificate_id: cert.id, account_id: cert.account_id, name, method })
          .onConflict((oc) => oc.columns(['certificate_id', 'name']).doUpdateSet({ method, updated_at: deps.now() }))
          .execute()
      await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'validation-method', after: { methods } })
    })
  await queueIssue(deps, null, cert.id)
  return cert
}

/**
 * Revokes an issued certificate at the CA with an RFC 5280 reason, then records it. The CA first:
 * a refusal there changes nothing here and is shown with the CA's words.
 */
export async function revokeCertificate(deps: PlatformDeps, scope: Scope, id: string, reason: RevocationReason) {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (cert.key_source === 'imported') throw refused('ssl.imported', 'This certificate was issued elsewhere and imported: it is revoked where it was bought')
  if (!['issued', 'expiring'].includes(cert.status) || !cert.certificate_pem) throw refused('ssl.not-revocable', 'Only an issued certificate can be revoked')
  const settings = sslSettings(deps)
  if (!settings.acme || settings.acme.directoryUrl !== cert.directory_url) throw refused('ssl.ca-unavailable', 'The CA that issued this certificate is not configured here')
  const client = await accountClient(deps, settings.acme)
  try {
    await client.revoke(cert.certificate_pem, REVOCATION_REASONS[reason])
  } catch (error) {
    const detail = (error as Error).message
    // Revoked already (a lost answer, a retry): the CA's state is what we record.
    if (!/already revoked/i.test(detail)) throw new AppError(502, 'ssl.ca-refused', `The CA refused the revocation: ${detail}`)
  }
  return change(deps.db, scope, async (tx, audit) => {
    const after = await tx
      .updateTable('ssl_certificates')
      .set({ status: 'revoked', revoked_at: deps.now(), revocation_reason: reason, version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', cert.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'revoke', before: publicFields(cert), after: publicFields(after) })
    return after
  })
}

/** Cancels an order still in validation: nothing more goes to the CA, its TXT records are removed by the job. */
export async function cancelCertificate(deps: PlatformDeps, scope: Scope, id: string) {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (!['draft', 'pending_validation', 'failed'].includes(cert.status)) throw refused('ssl.not-cancellable', 'Only an order not yet issued can be cancelled')
  return change(deps.db, scope, async (tx, audit) => {
    const after = await tx
      .updateTable('ssl_certificates')
      .set({ status: 'cancelled', ...(cert.origin === 'reissue' ? { renewal_of: null } : {}), version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', cert.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'cancel', before: publicFields(cert), after: publicFields(after) })
    await releaseSslCharge(tx, scope, cert, 'The order was cancelled')
    await queueIssue(deps, tx, cert.id)
    return after
  })
}

// --- files ---------------------------------------------------------------------------------------

export type CertificateFile = { filename: string; contentType: string; body: Buffer }

const pemToDer = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64')

/**
 * One file of an issued certificate. The private key needs ssl-manager and its download is
 * written to the trail (who, when); the other files are public material.
 */
export async function certificateFile(deps: PlatformDeps, scope: Scope, id: string, file: SslFile, format: 'pem' | 'der'): Promise<CertificateFile> {
  requirePermission(scope.actor, 'ssl-viewer')
  const cert = await findCertificate(deps.db, scope, id)
  if (!cert.certificate_pem) throw refused('ssl.not-issued', 'The certificate is not issued yet')
  const base = cert.common_name.replace(/^\*\./, 'wildcard.').replace(/[^a-z0-9.-]/g, '_')
  const chain = cert.chain_pem ?? ''
  if (file === 'private-key') {
    requirePermission(scope.actor, 'ssl-manager')
    if (!cert.private_key_enc) throw refused('ssl.no-key', 'The key of this certificate was never here: it came with a CSR')
    const key = openSecret(sslSettings(deps).keySecret, cert.private_key_enc)
    await change(deps.db, scope, (_tx, audit) => audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'download-key', after: { format } }))
    return format === 'der'
      ? { filename: `${base}.key.der`, contentType: 'application/pkcs8', body: pemToDer(key) }
      : { filename: `${base}.key.pem`, contentType: 'application/x-pem-file', body: Buffer.from(key) }
  }
  const pem = file === 'certificate' ? cert.certificate_pem : file === 'chain' ? chain : `${cert.certificate_pem.trimEnd()}\n${chain}`
  if (format === 'der') {
    // DER holds one certificate: the leaf, or the chain's first (the issuing intermediate).
    const first = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/)?.[0] ?? ''
    return { filename: `${base}.${file}.der`, contentType: 'application/pkix-cert', body: pemToDer(first) }
  }
  return { filename: `${base}.${file}.pem`, contentType: 'application/x-pem-file', body: Buffer.from(pem) }
}

/**
 * The certificate, its chain and its key as one PKCS#12 file opened by the password given (at
 * least 8 characters), in the profile chosen. Like the key's own download: ssl-manager, audited.
 */
export async function pkcs12File(deps: PlatformDeps, scope: Scope, id: string, password: string, profile: Pkcs12Profile | 'pkcs8'): Promise<CertificateFile> {
  requirePermission(scope.actor, 'ssl-manager')
  const cert = await findCertificate(deps.db, scope, id)
  if (!cert.certificate_pem) throw refused('ssl.not-issued', 'The certificate is not issued yet')
  if (!cert.private_key_enc) throw refused('ssl.no-key', 'The key of this certificate is not here: a PKCS#12 file needs it')
  if (password.length < 8) throw invalid('ssl.pkcs12-invalid', 'The PKCS#12 file cannot be made', [fieldError('password', 'ssl.pkcs12-password-short', 'At least 8 characters')])
  const key = openSecret(sslSettings(deps).keySecret, cert.private_key_enc)
  const base = cert.common_name.replace(/^\*\./, 'wildcard.').replace(/[^a-z0-9.-]/g, '_')
  if (profile === 'pkcs8') {
    // The key alone, as encrypted PKCS#8 (PBES2: AES-256-CBC, PBKDF2-HMAC-SHA256).
    const body = Buffer.from(createPrivateKey(key).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: password }) as string)
    await change(deps.db, scope, (_tx, audit) =>
      audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'download-key', after: { format: 'pkcs8-encrypted' } }),
    )
    return { filename: `${base}.key.encrypted.pem`, contentType: 'application/x-pem-file', body }
  }
  const body = buildPkcs12({ certificate: cert.certificate_pem, chain: cert.chain_pem ?? '', key, password, profile, name: cert.common_name })
  await change(deps.db, scope, (_tx, audit) =>
    audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'download-key', after: { format: `pkcs12-${profile}` } }),
  )
  return { filename: `${base}${profile === 'legacy' ? '.legacy' : ''}.p12`, contentType: 'application/x-pkcs12', body }
}

// --- the ACME account ----------------------------------------------------------------------------

/** The client of our account at the CA: made (and its key stored, sealed) on first use. */
export async function accountClient(deps: PlatformDeps, acme: AcmeSettings) {
  const secret = sslSettings(deps).keySecret
  let row = await deps.db.selectFrom('ssl_acme_accounts').selectAll().where('directory_url', '=', acme.directoryUrl).executeTakeFirst()
  if (!row) {
    await deps.db
      .insertInto('ssl_acme_accounts')
      .values({ directory_url: acme.directoryUrl, account_key_enc: sealSecret(secret, await newAccountKey()) })
      .onConflict((oc) => oc.doNothing())
      .execute()
    row = await deps.db.selectFrom('ssl_acme_accounts').selectAll().where('directory_url', '=', acme.directoryUrl).executeTakeFirstOrThrow()
  }
  const key = openSecret(secret, row.account_key_enc)
  if (row.account_url) return acmeClient(acme, key, row.account_url)
  const client = acmeClient(acme, key)
  const url = await client.register()
  await deps.db.updateTable('ssl_acme_accounts').set({ account_url: url }).where('directory_url', '=', acme.directoryUrl).execute()
  return acmeClient(acme, key, url)
}

/** Serial, validity and the renewal point (2/3 of the lifetime, RFC 9773 ARI when offered) of an issued leaf. */
export function leafFacts(pem: string) {
  const x509 = new X509Certificate(pem)
  const notBefore = new Date(x509.validFrom)
  const notAfter = new Date(x509.validTo)
  const renewAfter = new Date(notBefore.getTime() + ((notAfter.getTime() - notBefore.getTime()) * 2) / 3)
  return { serial: x509.serialNumber, notBefore, notAfter, renewAfter }
}

import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { sql } from 'kysely'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { SSL_EXPIRING_DAYS, SSL_EXPIRY_NOTICE_DAYS, SSL_IN_FLIGHT } from '#common/ssl.ts'
import type { SslCertificate } from '#server/db/schema-ssl.ts'
import { ariCertId, offersAri, renewalWindow } from '#server/integrations/acme/ari.ts'
import { createCsr, splitPem, type AcmeAuthorization, type AcmeClient, type AcmeOrder } from '#server/integrations/acme/client.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { listMail, mailAccountUsers } from '#server/platform/core/notices.ts'
import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { publishZone } from '#server/platform/dns/publish.ts'
import { applyChangeSet, powerDnsSettings } from '#server/platform/dns/service.ts'
import { hostingZone, presentRecordIds, zonePublishState, zoneRecordsAt } from '#server/platform/dns/reads.ts'
import { releaseSslCharge, settleSslCharge } from './charges.ts'
import { takeOrderSlot } from './pacing.ts'
import { accountClient, insertSuccessor, leafFacts, publicFields, queueIssue, SSL_JOBS, sslSettings, subjectOf } from './service.ts'
import { openSecret, sealSecret } from './secrets.ts'

const CHALLENGE_TTL = 60

/** A CA or DNS failure that retrying cannot mend: the certificate is marked failed with it. */
class Refusal extends Error {}

/**
 * Issues one certificate, from wherever it stands (decision 102: a retried or resumed job reads the
 * CA's order back before doing anything): no order yet → make one; pending → publish the TXT
 * records of hosted names, answer their challenges, wait; ready → finalize with the CSR;
 * valid → download, store, remove the TXT records. A CA refusal or a failed DNS publication
 * marks the certificate failed with the reason and removes what was published.
 */
export async function runIssuance(deps: PlatformDeps, certificateId: string): Promise<void> {
  const cert = await deps.db.selectFrom('ssl_certificates').selectAll().where('id', '=', certificateId).executeTakeFirst()
  if (!cert) return
  if (cert.status === 'cancelled' || cert.status === 'failed') return cleanup(deps, cert)
  if (!SSL_IN_FLIGHT.includes(cert.status)) return
  const acme = sslSettings(deps).acme
  if (!acme || acme.directoryUrl !== cert.directory_url) return fail(deps, cert, 'The CA of this order is not configured any more')
  try {
    const client = await accountClient(deps, acme)
    let order: AcmeOrder
    if (!cert.acme_order_url) {
      // Paced per CA (decision 401): without a slot of its interval, the order waits for one.
      const wait = await takeOrderSlot(deps, acme, cert.id)
      if (wait > 0) {
        await queueIssue(deps, null, cert.id, wait)
        return
      }
      // A renewal names the certificate it replaces where the CA offers ARI (RFC 9773 §5).
      const replaced = cert.origin === 'renewal' && cert.renewal_of ? await deps.db.selectFrom('ssl_certificates').select('certificate_pem').where('id', '=', cert.renewal_of).executeTakeFirst() : null
      const replaces = replaced?.certificate_pem && (await offersAri(acme)) ? ariCertId(replaced.certificate_pem) : null
      order = await client.createOrder(cert.names, replaces)
      await deps.db.updateTable('ssl_certificates').set({ acme_order_url: order.url, updated_at: deps.now() }).where('id', '=', cert.id).execute()
    } else order = await client.getOrder(cert.acme_order_url)

    if (order.status === 'pending') {
      const proven = await validate(deps, client, cert, order)
      if (!proven) return // names hosted elsewhere wait for their records and a "check now"
      order = await client.getOrder(order.url)
    }
    if (order.status === 'invalid') throw new Refusal(await orderProblem(client, order))
    if (order.status === 'ready') {
      await setStatus(deps, cert, 'issuing')
      order = await client.finalize(order, cert.csr_pem)
    }
    if (order.status === 'processing') order = await client.waitValid(order)
    if (order.status !== 'valid') throw new Refusal(`The CA's order is ${order.status}`)
    const pem = await client.certificate(order)
    // The challenge records go first: an issued certificate leaves nothing of its validation published.
    await cleanup(deps, cert)
    await store(deps, cert, pem)
  } catch (error) {
    if (error instanceof Refusal || isCaRefusal(error)) {
      await fail(deps, cert, (error as Error).message)
      return
    }
    deps.logger.warn('ssl issuance will be retried', { certificate: cert.id, error: (error as Error).message })
    throw error
  }
}

/** A problem document from the CA (4xx): acme-client throws with its detail; a lost connection has a code. */
function isCaRefusal(error: unknown): boolean {
  const e = error as { code?: string; response?: { status?: number } }
  if (e?.code && /^E[A-Z]+/.test(e.code)) return false
  if (e?.response?.status && e.response.status >= 500) return false
  return error instanceof Error && !/timeout|socket hang up|network/i.test(error.message)
}

async function orderProblem(client: AcmeClient, order: AcmeOrder): Promise<string> {
  for (const authz of await client.authorizations(order)) {
    const failed = authz.challenges.find((c) => c.status === 'invalid' && c.error)
    const problem = failed?.error as { detail?: string; type?: string } | undefined
    if (problem) return `${authz.identifier.value}: ${problem.detail ?? problem.type ?? 'invalid'}`
  }
  return 'The CA marked the order invalid'
}

const nameOf = (authz: AcmeAuthorization) => (authz.wildcard ? `*.${authz.identifier.value}` : authz.identifier.value)

/**
 * Per authorisation: its dns-01 record, published through our DNS when we host the zone, the
 * challenge answered, the outcome recorded. True when every name is valid.
 */
async function validate(deps: PlatformDeps, client: AcmeClient, cert: SslCertificate, order: AcmeOrder): Promise<boolean> {
  const authzs = await client.authorizations(order)
  const answered: { authz: AcmeAuthorization; name: string; type: string }[] = []
  let waiting = false
  for (const authz of authzs) {
    const name = nameOf(authz)
    const dns = authz.challenges.find((c) => c.type === 'dns-01')
    const http = authz.challenges.find((c) => c.type === 'http-01')
    if (!dns && !http) throw new Refusal(`The CA offers neither a dns-01 nor an http-01 challenge for ${name}`)
    const recordName = `_acme-challenge.${authz.identifier.value}`
    const value = dns ? await client.keyAuthorization(dns) : null
    const httpContent = http ? await client.keyAuthorization(http) : null
    const zone = await hostedZone(deps, cert.account_id, authz.identifier.value)
    const row = await upsertValidation(deps, cert, name, {
      record_name: recordName,
      record_value: value,
      http_token: http?.token ?? null,
      http_content: httpContent,
      zone_id: zone?.id ?? null,
      authorization_url: authz.url,
      challenge_url: (dns ?? http)!.url,
    })
    if (authz.status === 'valid') {
      await markValidation(deps, row.id, 'valid', null)
      continue
    }
    if (authz.status !== 'pending') throw new Refusal(`${name}: the CA's authorisation is ${authz.status}`)
    // Our zones: DNS-01, published and removed by us. Elsewhere: the record, or the file the customer chose to serve.
    const useHttp = !zone && row.method === 'http-01'
    const challenge = useHttp ? http : dns
    if (!challenge) throw new Refusal(`The CA offers no ${useHttp ? 'http-01' : 'dns-01'} challenge for ${name}`)
    if (useHttp) {
      // Looked up first: a file we can read and that is wrong waits for the customer; one we cannot reach here is the CA's to judge.
      const seen = await httpServed(deps, authz.identifier.value, http!.token, httpContent!)
      if (seen.state === 'wrong') {
        waiting = true
        await markValidation(deps, row.id, 'pending', { type: 'urn:registrar:ssl:http-01-not-served', detail: seen.detail })
        continue
      }
    } else if (!zone) {
      // Hosted elsewhere: the record is shown to be created; "check now" answers the challenge once it is there.
      if (!(await txtVisible(deps, recordName, value!))) {
        waiting = true
        await markValidation(deps, row.id, 'pending', null)
        continue
      }
    } else if (!row.dns_record_id) {
      await publishChallenge(deps, cert, row.id, zone.id, recordName, value!)
    }
    if (challenge.status === 'pending') await client.respond(challenge)
    answered.push({ authz, name, type: challenge.type })
  }
  for (const { authz, name, type } of answered) {
    const row = await deps.db.selectFrom('ssl_validations').select('id').where('certificate_id', '=', cert.id).where('name', '=', name).executeTakeFirstOrThrow()
    try {
      await client.waitValid(authz)
      await markValidation(deps, row.id, 'valid', null)
    } catch (error) {
      const again = await client.authorization(authz.url)
      const problem = again.challenges.find((c) => c.type === type)?.error ?? { detail: (error as Error).message }
      await markValidation(deps, row.id, again.status === 'valid' ? 'valid' : 'invalid', again.status === 'valid' ? null : (problem as Record<string, unknown>))
      if (again.status !== 'valid') throw new Refusal(`${name}: ${String((problem as { detail?: string }).detail ?? 'validation failed')}`)
    }
  }
  return !waiting
}

/**
 * The HTTP-01 file as we can read it (port 80, through the outbound guard: the configured resolver,
 * every address and every redirect checked, followed as a CA follows them — at most 10, to ports 80
 * and 443 — within a short timeout):
 * right, wrong (an answer that is not the file: the customer must fix it), or unreachable from here
 * (the CA may see it all the same, so it is asked) — which is also what a name or a redirect to an
 * address the guard refuses is: not fetched, the CA judges.
 */
export async function httpServed(deps: WithOutbound, host: string, token: string, content: string, port = 80): Promise<{ state: 'right' | 'wrong' | 'unreachable'; detail: string }> {
  const url = `http://${host}${port === 80 ? '' : `:${port}`}/.well-known/acme-challenge/${token}`
  try {
    const res = await outboundOf(deps).fetch(url, { maxRedirects: 10, redirectPorts: [80, 443], timeoutMs: 3000, maxBytes: 65_536 })
    const ok = res.status >= 200 && res.status < 300
    if (ok && res.body.toString('utf8').trim() === content) return { state: 'right', detail: '' }
    return { state: 'wrong', detail: ok ? `${url} answers other content than the file's` : `${url} answers HTTP ${res.status}` }
  } catch (error) {
    return { state: 'unreachable', detail: (error as Error).message }
  }
}

/** Our zone of the name (the longest one that holds it) in the certificate's account. */
async function hostedZone(deps: PlatformDeps, accountId: string, name: string) {
  const labels = name.split('.')
  const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.includes('.'))
  return hostingZone(deps.db, accountId, candidates)
}

/** A record hosted elsewhere, looked up before the CA is asked (through the outbound guard's resolver; none configured: not seen). */
async function txtVisible(deps: WithOutbound, name: string, value: string): Promise<boolean> {
  try {
    return (await outboundOf(deps).resolveTxt(name)).some((chunks) => chunks.join('') === value)
  } catch {
    return false
  }
}

async function upsertValidation(
  deps: PlatformDeps,
  cert: SslCertificate,
  name: string,
  values: {
    record_name: string
    record_value: string | null
    http_token: string | null
    http_content: string | null
    zone_id: string | null
    authorization_url: string
    challenge_url: string
  },
) {
  return deps.db
    .insertInto('ssl_validations')
    .values({ certificate_id: cert.id, account_id: cert.account_id, name, method: 'dns-01', ...values })
    .onConflict((oc) =>
      oc.columns(['certificate_id', 'name']).doUpdateSet({
        record_name: values.record_name,
        record_value: values.record_value,
        http_token: values.http_token,
        http_content: values.http_content,
        zone_id: values.zone_id,
        authorization_url: values.authorization_url,
        challenge_url: values.challenge_url,
        // A new ACME order has new values: its record is published afresh.
        dns_record_id: sql<string | null>`CASE WHEN ssl_validations.record_value = ${values.record_value} THEN ssl_validations.dns_record_id ELSE NULL END`,
        updated_at: deps.now(),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

async function markValidation(deps: PlatformDeps, id: string, state: 'pending' | 'valid' | 'invalid', problem: Record<string, unknown> | null) {
  await deps.db
    .updateTable('ssl_validations')
    .set({ state, problem: problem ? JSON.stringify(problem) : null, checked_at: deps.now(), updated_at: deps.now() })
    .where('id', '=', id)
    .execute()
}

/**
 * The TXT record through the DNS service (one change with its audit, by the SSL system actor), then
 * published to PowerDNS at once: the CA asks as soon as the challenge is answered.
 */
async function publishChallenge(deps: PlatformDeps, cert: SslCertificate, validationId: string, zoneId: string, recordName: string, value: string) {
  const scope = systemScope('ssl', cert.account_id)
  const result = await applyChangeSet(deps, scope, zoneId, { changes: [{ action: 'add', name: `${recordName}.`, type: 'TXT', ttl: CHALLENGE_TTL, content: JSON.stringify(value) }] })
  const record = await zoneRecordsAt(deps.db, zoneId, recordName, 'TXT').select('id').where('content', '=', JSON.stringify(value)).executeTakeFirst()
  await deps.db
    .updateTable('ssl_validations')
    .set({ dns_record_id: record?.id ?? null, updated_at: deps.now() })
    .where('id', '=', validationId)
    .execute()
  // A passing PowerDNS error (a 500 while another change of the zone is written) is tried again a few times before the order fails.
  let zone = { publish_state: 'pending', published_serial: null as number | null, serial: 0, last_error: null as string | null }
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, 250 * attempt))
    const thrown = await publishZone(deps, result.zone.id).then(
      () => null,
      (error: Error) => error,
    )
    if (thrown && attempt === 3) throw new Refusal(`The DNS record could not be published: ${thrown.message}`)
    zone = await zonePublishState(deps.db, zoneId)
    if (zone.publish_state === 'failed' || zone.published_serial === zone.serial || !powerDnsSettings(deps)) break
    // Else an error, or the DNS queue's publish of an older serial finished after ours (it records its own serial): again.
  }
  if (zone.publish_state === 'failed') throw new Refusal(`The DNS record could not be published: ${zone.last_error ?? 'PowerDNS refused it'}`)
  if (zone.published_serial !== zone.serial) {
    if (!powerDnsSettings(deps)) throw new Refusal('PowerDNS is not configured: the DNS record cannot be served')
    throw new Refusal(`The DNS record could not be published: ${zone.last_error ?? 'the zone did not reach its newest serial'}`)
  }
}

/** Removes the certificate's challenge records from our zones (nothing stale stays published). */
async function cleanup(deps: PlatformDeps, cert: SslCertificate) {
  const rows = await deps.db.selectFrom('ssl_validations').select(['id', 'zone_id', 'dns_record_id']).where('certificate_id', '=', cert.id).where('dns_record_id', 'is not', null).execute()
  const byZone = new Map<string, { validation: string; record: string }[]>()
  for (const r of rows) if (r.zone_id && r.dns_record_id) byZone.set(r.zone_id, [...(byZone.get(r.zone_id) ?? []), { validation: r.id, record: r.dns_record_id }])
  for (const [zoneId, records] of byZone) {
    const present = await presentRecordIds(
      deps.db,
      records.map((r) => r.record),
    )
    if (present.length) {
      await applyChangeSet(deps, systemScope('ssl', cert.account_id), zoneId, { changes: present.map((id) => ({ action: 'delete' as const, id })) })
      await publishZone(deps, zoneId).catch((error: Error) => deps.logger.warn('ssl: removing a challenge record will be published later', { zone: zoneId, error: error.message }))
    }
    await deps.db
      .updateTable('ssl_validations')
      .set({ dns_record_id: null, updated_at: deps.now() })
      .where(
        'id',
        'in',
        records.map((r) => r.validation),
      )
      .execute()
  }
}

async function setStatus(deps: PlatformDeps, cert: SslCertificate, status: 'issuing') {
  if (cert.status === status) return
  await deps.db.updateTable('ssl_certificates').set({ status, updated_at: deps.now() }).where('id', '=', cert.id).execute()
}

async function store(deps: PlatformDeps, cert: SslCertificate, fullchain: string) {
  const [leaf, ...chain] = splitPem(fullchain)
  const facts = leafFacts(leaf!)
  // RFC 9773: the CA's own renewal window when it offers one (a random point in it), else two thirds of the lifetime.
  const acme = sslSettings(deps).acme
  const window = acme ? await renewalWindow(acme, leaf!) : null
  const renewAfter = window ? new Date(window.start.getTime() + Math.random() * (window.end.getTime() - window.start.getTime())) : facts.renewAfter
  await change(deps.db, systemScope('ssl', cert.account_id), async (tx, audit) => {
    const after = await tx
      .updateTable('ssl_certificates')
      .set({
        status: 'issued',
        certificate_pem: `${leaf!.trim()}\n`,
        chain_pem: chain.map((c) => `${c.trim()}\n`).join(''),
        serial: facts.serial,
        not_before: facts.notBefore,
        not_after: facts.notAfter,
        issued_at: deps.now(),
        renew_after: renewAfter,
        failure_reason: null,
        version: sql<number>`version + 1`,
        updated_at: deps.now(),
      })
      .where('id', '=', cert.id)
      .where('status', 'in', [...SSL_IN_FLIGHT])
      .returningAll()
      .executeTakeFirst()
    if (!after) return
    // Issued: every name was proven to the CA (also those whose proof a restarted job found done at the CA).
    await tx
      .updateTable('ssl_validations')
      .set({ state: 'valid', problem: null, checked_at: deps.now(), updated_at: deps.now() })
      .where('certificate_id', '=', cert.id)
      .where('state', '<>', 'valid')
      .execute()
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, action: 'issue', before: publicFields(cert), after: publicFields(after) })
    await recordEvent(tx, { accountId: cert.account_id, type: 'ssl.issued', data: { id: cert.id, names: cert.names, not_after: facts.notAfter.toISOString() } })
    // Charged when the CA issues (the order, or a renewal of the term), in the same transaction.
    await settleSslCharge(tx, systemScope('ssl', cert.account_id), cert)
    if (cert.term_months_added > 0) {
      // A renewal of the coverage term: the term runs its months longer (from its end, or from now when it had ended), and its notices start again.
      const term = await tx.selectFrom('ssl_terms').selectAll().where('id', '=', cert.term_id).forUpdate().executeTakeFirstOrThrow()
      const ends = new Date(Math.max(new Date(term.ends_at).getTime(), deps.now().getTime()))
      ends.setUTCMonth(ends.getUTCMonth() + cert.term_months_added)
      await tx
        .updateTable('ssl_terms')
        .set({ ends_at: ends, period_months: Math.min(120, term.period_months + cert.term_months_added), notices_sent: sql<number[]>`'{}'::integer[]` })
        .where('id', '=', term.id)
        .execute()
      await audit.record({
        area: 'ssl',
        entityType: 'ssl_certificate',
        entityId: cert.id,
        action: 'extend-term',
        before: { ends_at: term.ends_at },
        after: { ends_at: ends, months: cert.term_months_added },
      })
    }
  })
}

async function fail(deps: PlatformDeps, cert: SslCertificate, reason: string) {
  await change(deps.db, systemScope('ssl', cert.account_id), async (tx, audit) => {
    const after = await tx
      .updateTable('ssl_certificates')
      // A failed reissue lets go of the certificate it was for (renewed, or reissued again); a failed renewal keeps it.
      .set({
        status: 'failed',
        failure_reason: reason.slice(0, 2000),
        ...(cert.origin === 'reissue' || cert.term_months_added > 0 ? { renewal_of: null } : {}),
        version: sql<number>`version + 1`,
        updated_at: deps.now(),
      })
      .where('id', '=', cert.id)
      .where('status', 'in', [...SSL_IN_FLIGHT])
      .returningAll()
      .executeTakeFirst()
    if (after) await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, action: 'fail', before: publicFields(cert), after: publicFields(after) })
    if (after) await recordEvent(tx, { accountId: cert.account_id, type: 'ssl.failed', data: { id: cert.id, names: cert.names, reason: reason.slice(0, 2000) } })
    // Nothing issued, nothing charged: the reserved charge goes back.
    if (after) await releaseSslCharge(tx, systemScope('ssl', cert.account_id), cert, reason)
    // A failed renewal: the certificate it should have replaced is noticed again, from its next threshold.
    if (after && cert.renewal_of)
      await tx
        .updateTable('ssl_terms')
        .set({ notices_sent: sql<number[]>`'{}'::integer[]` })
        .where('id', '=', cert.term_id)
        .execute()
  })
  await cleanup(deps, cert)
}

/**
 * The renewal sweep: certificates past their renewal point get a successor under the same
 * coverage term (same names, a new key of the same type, or the same CSR), ordered at once;
 * issued certificates near their end are marked expiring, past it expired.
 */
export async function sweepRenewals(deps: PlatformDeps): Promise<{ renewed: number }> {
  const now = deps.now()
  const expiringFrom = new Date(now.getTime() + SSL_EXPIRING_DAYS * 86_400_000)
  await deps.db.updateTable('ssl_certificates').set({ status: 'expired', updated_at: now }).where('status', 'in', ['issued', 'expiring']).where('not_after', '<=', now).execute()
  await deps.db.updateTable('ssl_certificates').set({ status: 'expiring', updated_at: now }).where('status', '=', 'issued').where('not_after', '<=', expiringFrom).execute()
  const due = await deps.db
    .selectFrom('ssl_certificates as c')
    .innerJoin('ssl_terms as t', 't.id', 'c.term_id')
    .selectAll('c')
    .where('c.status', 'in', ['issued', 'expiring'])
    .where('c.renew_after', '<=', now)
    .where('t.ends_at', '>', now)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('ssl_certificates as n').select('n.id').whereRef('n.renewal_of', '=', 'c.id'))))
    .limit(100)
    .execute()
  const settings = sslSettings(deps)
  let renewed = 0
  for (const cert of due) {
    if (!settings.acme) break
    let csr = cert.csr_pem
    let sealed: string | null = null
    if (cert.key_source === 'generated' && cert.private_key_enc) {
      const current = openSecret(settings.keySecret, cert.private_key_enc)
      const key = newKeyLike(current)
      csr = await createCsr(cert.names, key, await subjectOf(deps, cert))
      sealed = sealSecret(settings.keySecret, key)
    }
    const created = await change(deps.db, systemScope('ssl', cert.account_id), async (tx, audit) => {
      const next = await insertSuccessor(
        tx,
        settings.acme!,
        cert,
        {
          common_name: cert.common_name,
          names: cert.names,
          key_type: cert.key_type,
          key_source: cert.key_source,
          csr_pem: csr,
          private_key_enc: sealed,
          origin: 'renewal',
          created_by: 'renewal',
        },
        now,
      )
      if (!next) return null
      await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: next.id, action: 'renew', after: { ...publicFields(next) } })
      await queueIssue(deps, tx, next.id)
      return next
    })
    if (created) renewed++
  }
  return { renewed }
}

/** A fresh key of the same kind as the one given (renewals rotate the key). */
function newKeyLike(pem: string): string {
  const key = createPrivateKey(pem)
  const details = key.asymmetricKeyDetails ?? {}
  const pkcs8 = (k: KeyObject) => k.export({ type: 'pkcs8', format: 'pem' }).toString()
  if (key.asymmetricKeyType === 'ec') return pkcs8(generateKeyPairSync('ec', { namedCurve: details.namedCurve ?? 'P-256' }).privateKey)
  return pkcs8(generateKeyPairSync('rsa', { modulusLength: details.modulusLength ?? 2048 }).privateKey)
}

const DAY = 86_400_000

/**
 * Expiry notices at 30/14/7/1 days. A live certificate is noticed when nothing replaces it: no
 * later certificate of its coverage term is issued (nor, above 7 days, under way) — the last
 * certificate of a term, an imported one, or one whose renewal failed. Once per threshold and
 * coverage term (ssl_terms.notices_sent, not per short-lived certificate); a failed renewal clears
 * the term's list. The account's SSL managers are mailed, one mail per account; recorded after
 * sending, so a failed send is retried by the next run.
 */
export async function runSslExpiryNotices(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger' | 'now'>): Promise<{ certificates: number; mails: number }> {
  const now = deps.now()
  const horizon = new Date(now.getTime() + SSL_EXPIRY_NOTICE_DAYS[0] * DAY)
  const rows = await deps.db
    .selectFrom('ssl_certificates as c')
    .innerJoin('ssl_terms as t', 't.id', 'c.term_id')
    .select(['c.id', 'c.account_id', 'c.term_id', 'c.names', 'c.not_after', 'c.created_at', 't.notices_sent'])
    .where('c.status', 'in', ['issued', 'expiring'])
    .where('c.not_after', '>', now)
    .where('c.not_after', '<=', horizon)
    .execute()
  const later = rows.length
    ? await deps.db
        .selectFrom('ssl_certificates')
        .select(['term_id', 'status', 'created_at'])
        .where('term_id', 'in', [...new Set(rows.map((r) => r.term_id))])
        .where('status', 'in', ['pending_validation', 'issuing', 'issued'])
        .execute()
    : []
  const byAccount = new Map<string, { id: string; term_id: string; name: string; not_after: Date; days: number; threshold: number; sent: number[] }[]>()
  for (const r of rows) {
    const daysLeft = (r.not_after!.getTime() - now.getTime()) / DAY
    const threshold = [...SSL_EXPIRY_NOTICE_DAYS].reverse().find((t) => daysLeft <= t)!
    if (r.notices_sent.includes(threshold)) continue
    const replaced = later.some((n) => n.term_id === r.term_id && n.created_at > r.created_at && (n.status === 'issued' || threshold > 7))
    if (replaced) continue
    const list = byAccount.get(r.account_id) ?? []
    list.push({ id: r.id, term_id: r.term_id, name: r.names.join(', '), not_after: r.not_after!, days: Math.ceil(daysLeft), threshold, sent: r.notices_sent })
    byAccount.set(r.account_id, list)
  }
  let mails = 0
  for (const [accountId, list] of byAccount) {
    list.sort((a, b) => a.days - b.days)
    mails += await mailAccountUsers(deps, accountId, 'ssl-manager', (t) =>
      listMail(
        t,
        'sslExpiry',
        list.map((c) => t('sslExpiry.line', { name: c.name, date: c.not_after.toISOString().slice(0, 10), count: c.days })),
      ),
    )
    for (const c of list) {
      const sent = [...new Set([...c.sent, ...SSL_EXPIRY_NOTICE_DAYS.filter((t) => t >= c.threshold)])].sort((a, b) => b - a)
      // The notice and its webhook event together: one event per threshold crossed.
      await deps.db.transaction().execute(async (tx) => {
        await tx.updateTable('ssl_terms').set({ notices_sent: sent }).where('id', '=', c.term_id).execute()
        await recordEvent(tx, { accountId, type: 'ssl.expiring', data: { id: c.id, names: c.name.split(', '), not_after: c.not_after.toISOString(), days_left: c.days } })
      })
    }
  }
  return { certificates: [...byAccount.values()].reduce((n, l) => n + l.length, 0), mails }
}

export function registerSslJobs(deps: PlatformDeps) {
  deps.jobs.register<{ certificateId: string }>(SSL_JOBS.issue, (data) => runIssuance(deps, data.certificateId))
  deps.jobs.register(SSL_JOBS.sweep, async () => void (await sweepRenewals(deps)))
  deps.jobs.schedule(SSL_JOBS.sweep, '*/10 * * * *')
  deps.jobs.register(SSL_JOBS.notices, async () => void (await runSslExpiryNotices(deps)))
  deps.jobs.schedule(SSL_JOBS.notices, '15 * * * *')
}

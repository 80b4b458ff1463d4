import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { sql } from 'kysely'
import { WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOK_RETRY_DELAYS_SECONDS } from '#common/webhooks.ts'
import { txRunner } from '#server/platform/core/change.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { safeLookup } from './address.ts'
import { signatureHeader } from './signing.ts'

export const DELIVER_JOB = 'webhooks.deliver'
export const SWEEP_JOB = 'webhooks.sweep'

type Deps = Pick<PlatformDeps, 'db' | 'jobs' | 'now' | 'logger' | 'mailer' | 'webhooks' | 'database'>

const FAN_OUT_BATCH = 500
/** How long an attempt holds its delivery: more than a request's limit, so nobody else sends it meanwhile. */
const CLAIM_MS = 60_000
/** Deliveries a dispatching process sends at once, beside the jobs. */
const IN_PROCESS_CONCURRENCY = 32
const TIMEOUT_MS = 10_000
const EXCERPT_BYTES = 1000
const DAY_MS = 86_400_000

/** The `webhook-id` of an event: the same for every attempt and replay, so a receiver can drop repeats. */
export const messageIdOf = (eventId: string) => `msg_${eventId.replace(/-/g, '')}`

/**
 * Fans the outbox out: each event not yet dispatched becomes one delivery per enabled endpoint of
 * its account that wants its type, with the delivery's job, in one transaction per batch (the
 * rows are locked, SKIP LOCKED, so processes dispatching together never take the same event, and a
 * delivery is unique per event and endpoint: no duplicates).
 */
/** A delivery made by the fan-out and the job queued with it. */
type Made = { delivery: string; job: string | null }

export async function dispatchPending(deps: Deps, made: (deliveries: Made[]) => void = () => {}): Promise<number> {
  let total = 0
  for (;;) {
    const { count, ids } = await deps.db.transaction().execute(async (tx) => {
      const events = await tx
        .selectFrom('webhook_events')
        .select(['id', 'account_id', 'type'])
        .where('dispatched_at', 'is', null)
        .orderBy('occurred_at')
        .limit(FAN_OUT_BATCH)
        .forUpdate()
        .skipLocked()
        .execute()
      if (!events.length) return { count: 0, ids: [] as Made[] }
      const accounts = [...new Set(events.map((e) => e.account_id))]
      const endpoints = await tx.selectFrom('webhook_endpoints').select(['id', 'account_id', 'events']).where('account_id', 'in', accounts).where('enabled', '=', true).execute()
      const rows = events.flatMap((e) => endpoints.filter((ep) => ep.account_id === e.account_id && ep.events.includes(e.type)).map((ep) => ({ event_id: e.id, endpoint_id: ep.id })))
      const deliveries = rows.length
        ? await tx
            .insertInto('webhook_deliveries')
            .values(rows)
            .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
            .returning('id')
            .execute()
        : []
      const runner = txRunner(tx)
      const ids: Made[] = []
      for (const d of deliveries) ids.push({ delivery: d.id, job: await deps.jobs.send(DELIVER_JOB, { delivery_id: d.id }, { runner, retryLimit: 3 }) })
      await tx
        .updateTable('webhook_events')
        .set({ dispatched_at: deps.now() })
        .where(
          'id',
          'in',
          events.map((e) => e.id),
        )
        .execute()
      return { count: events.length, ids }
    })
    if (ids.length) made(ids)
    total += count
    if (count < FAN_OUT_BATCH) return total
  }
}

/**
 * The sweep's second half: a delivery still pending well after its attempt was due has lost its
 * job (its retries spent on database errors, say); it gets a new one. Claims keep this from ever
 * sending a delivery twice at once.
 */
export async function requeueOverdue(deps: Pick<Deps, 'db' | 'jobs' | 'now'>): Promise<number> {
  const overdue = await deps.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<', new Date(deps.now().getTime() - 5 * 60_000))
    .limit(1000)
    .execute()
  for (const d of overdue) await deps.jobs.send(DELIVER_JOB, { delivery_id: d.id }, { retryLimit: 3 })
  return overdue.length
}

type Answer = { status: number | null; excerpt: string; error: string | null; retryAfter: number | null; ms: number }

/** One POST, no redirects followed, a 10 s limit, private addresses refused at connect time. */
function post(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<Answer> {
  const started = Date.now()
  return new Promise((resolve) => {
    const target = new URL(url)
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: safeLookup(allowPrivate) as never, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk)
        size += chunk.length
      })
      res.on('end', () => {
        const retry = res.headers['retry-after']
        const seconds = retry === undefined ? null : /^\d+$/.test(retry) ? Number(retry) : Math.max(0, (Date.parse(retry) - Date.now()) / 1000) || null
        resolve({ status: res.statusCode ?? null, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES), error: null, retryAfter: seconds, ms: Date.now() - started })
      })
      res.on('error', (error) => resolve({ status: res.statusCode ?? null, excerpt: '', error: error.message, retryAfter: null, ms: Date.now() - started }))
      // Cut off before its end (the deadline): whatever came, and why it stopped ('end' resolves first otherwise).
      res.on('close', () =>
        resolve({
          status: null,
          excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES),
          error: `The answer was cut off after ${TIMEOUT_MS / 1000} s`,
          retryAfter: null,
          ms: Date.now() - started,
        }),
      )
    })
    // The whole exchange, not only each silence: an endpoint that drips its answer is cut off too.
    const deadline = setTimeout(() => req.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS)
    req.on('timeout', () => req.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} s`)))
    req.on('error', (error) => resolve({ status: null, excerpt: '', error: error.message.slice(0, 500), retryAfter: null, ms: Date.now() - started }))
    req.on('close', () => clearTimeout(deadline))
    req.end(body)
  })
}

/** The wait before retry `n` (1-based): the schedule with ±20 % jitter, never less than the endpoint's Retry-After. */
export function retryDelaySeconds(attempt: number, retryAfter: number | null, schedule: readonly number[] = WEBHOOK_RETRY_DELAYS_SECONDS, random = Math.random): number | null {
  const base = schedule[attempt - 1]
  if (base === undefined) return null
  const jittered = base * (0.8 + 0.4 * random())
  return Math.max(jittered, retryAfter ?? 0)
}

/**
 * Delivers one delivery once (the job's work): signs the message per Standard Webhooks with the
 * endpoint's secret (and the previous one during a rotation), posts it, and records the attempt
 * and what follows in one transaction — done; retry later (the next job queued in the same
 * transaction); the endpoint gone (410) or failing for five days: disabled, its admins told.
 * A delivery no longer pending is left alone, so a job run twice sends once more at most.
 */
export async function deliver(deps: Deps, deliveryId: string, options: { viaJob?: boolean } = {}): Promise<boolean> {
  const claimedAt = deps.now()
  // One sender at a time: the attempt claims the delivery (a claim whose process died lapses
  // after CLAIM_MS). A job that finds it claimed comes back when the claim lapses, so a delivery
  // whose sender died is never left behind.
  // The claim reads what the attempt needs in the same statement.
  const row = await deps.db
    .updateTable('webhook_deliveries as d')
    .from(['webhook_endpoints as ep', 'webhook_events as ev'])
    .set({ next_attempt_at: new Date(claimedAt.getTime() + CLAIM_MS) })
    .whereRef('ep.id', '=', 'd.endpoint_id')
    .whereRef('ev.id', '=', 'd.event_id')
    .where('d.id', '=', deliveryId)
    .where('d.state', '=', 'pending')
    .where((eb) => eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', claimedAt)]))
    .returning([
      'd.id',
      'd.attempts',
      'd.event_id',
      'ep.id as endpoint_id',
      'ep.account_id',
      'ep.url',
      'ep.enabled',
      'ep.secret',
      'ep.previous_secret',
      'ep.previous_secret_expires_at',
      'ep.failing_since',
      'ev.type',
      'ev.data',
      'ev.occurred_at',
    ])
    .executeTakeFirst()
  if (!row) {
    if (options.viaJob === false) return false
    const held = await deps.db.selectFrom('webhook_deliveries').select(['state', 'next_attempt_at']).where('id', '=', deliveryId).executeTakeFirst()
    if (held?.state === 'pending' && held.next_attempt_at && held.next_attempt_at > claimedAt) {
      await deps.jobs.send(DELIVER_JOB, { delivery_id: deliveryId }, { retryLimit: 3, startAfterSeconds: (held.next_attempt_at.getTime() - claimedAt.getTime()) / 1000 + 1 })
    }
    return false
  }
  const now = deps.now()
  if (!row.enabled) {
    await deps.db.updateTable('webhook_deliveries').set({ state: 'failed', last_error: 'The endpoint is disabled', updated_at: now }).where('id', '=', row.id).execute()
    return true
  }
  const id = messageIdOf(row.event_id)
  const timestamp = Math.floor(now.getTime() / 1000)
  const body = JSON.stringify({ type: row.type, timestamp: new Date(row.occurred_at).toISOString(), data: row.data })
  const secrets = [row.secret, ...(row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > now ? [row.previous_secret] : [])]
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'RegistrarPortal-Webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  }
  const answer = await post(row.url, headers, body, Boolean(deps.webhooks?.allowPrivateAddresses))
  const ok = answer.status !== null && answer.status >= 200 && answer.status < 300
  const attempts = row.attempts + 1
  let disable: string | null = null
  if (ok && !row.failing_since) {
    // The usual case in one statement: the attempt logged and the delivery done.
    await sql`WITH logged AS (
        INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempted_at, status, response_excerpt, duration_ms)
        VALUES (${row.id}, ${row.endpoint_id}, ${now}, ${answer.status}, ${answer.excerpt}, ${answer.ms}))
      UPDATE webhook_deliveries SET state = 'succeeded', attempts = ${attempts}, last_status = ${answer.status}, last_error = NULL, next_attempt_at = NULL, updated_at = ${now}
      WHERE id = ${row.id}`.execute(deps.db)
    return true
  }
  await deps.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('webhook_attempts')
      .values({ delivery_id: row.id, endpoint_id: row.endpoint_id, attempted_at: now, status: answer.status, response_excerpt: answer.excerpt, error: answer.error, duration_ms: answer.ms })
      .execute()
    const error = ok ? null : (answer.error ?? `HTTP ${answer.status}`)
    if (ok) {
      await tx
        .updateTable('webhook_deliveries')
        .set({ state: 'succeeded', attempts, last_status: answer.status, last_error: null, next_attempt_at: null, updated_at: now })
        .where('id', '=', row.id)
        .execute()
      if (row.failing_since) await tx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', row.endpoint_id).execute()
      return
    }
    const failingSince = row.failing_since ?? now
    if (answer.status === 410) disable = 'The endpoint answered 410 Gone'
    else if (now.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) disable = `The endpoint failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days`
    await tx
      .updateTable('webhook_endpoints')
      .set({ failing_since: failingSince, ...(disable ? { enabled: false, disabled_reason: disable, updated_at: now } : {}) })
      .where('id', '=', row.endpoint_id)
      .execute()
    const delay = disable ? null : retryDelaySeconds(attempts, answer.retryAfter, deps.webhooks?.retryDelaysSeconds)
    if (delay === null) {
      await tx
        .updateTable('webhook_deliveries')
        .set({ state: 'failed', attempts, last_status: answer.status, last_error: error, next_attempt_at: null, updated_at: now })
        .where('id', '=', row.id)
        .execute()
      return
    }
    await tx
      .updateTable('webhook_deliveries')
      .set({ attempts, last_status: answer.status, last_error: error, next_attempt_at: new Date(now.getTime() + delay * 1000), updated_at: now })
      .where('id', '=', row.id)
      .execute()
    await deps.jobs.send(DELIVER_JOB, { delivery_id: row.id }, { runner: txRunner(tx), retryLimit: 3, startAfterSeconds: delay })
  })
  if (disable) await tellAdmins(deps, row.account_id, row.url, disable)
  return true
}

/** Mails the account's admins that an endpoint was disabled (a failure to mail is logged, not retried). */
async function tellAdmins(deps: Deps, accountId: string, url: string, reason: string): Promise<void> {
  const admins = await deps.db
    .selectFrom('users')
    .select('email')
    .where('account_id', '=', accountId)
    .where('status', '=', 'active')
    .where('kind', '=', 'person')
    .where(sql<boolean>`roles && ARRAY['account-admin', 'user-admin']::text[]`)
    .execute()
  for (const admin of admins) {
    await deps.mailer
      .send({
        to: admin.email,
        subject: 'A webhook endpoint was disabled',
        text: `Deliveries to ${url} stopped: ${reason}.\n\nFix the endpoint, then enable it again on the account's Webhooks page; failed deliveries can be replayed from its log.\n`,
      })
      .catch((error: unknown) => deps.logger.warn('webhook disable mail failed', { error }))
  }
}

/**
 * Hears each new event at commit (migration 0851's trigger) and fans it out at once, one pass at a
 * time (a notification during a pass runs one more), then sends the new deliveries from this
 * process, IN_PROCESS_CONCURRENCY at a time, without waiting for the job engine's poll. Each has
 * its job too (queued with it): whichever claims the delivery first sends it. The minute's sweep
 * job covers events nobody heard.
 */
export async function startWebhookDispatcher(deps: Deps): Promise<{ close(): Promise<void> }> {
  let running: Promise<void> | null = null
  let again = false
  let closing = false
  const queue: Made[] = []
  const senders = new Set<Promise<void>>()
  // Jobs whose delivery this process attempted: their work is done (a retry has a job of its own),
  // so they are deleted in batches rather than fetched only to find the delivery claimed or done.
  let spent: string[] = []
  let sweeping: Promise<void> | null = null
  const dropSpent = () => {
    if (sweeping || !spent.length) return
    const ids = spent
    spent = []
    sweeping = deps.jobs.boss
      .deleteJob(DELIVER_JOB, ids)
      .catch((error: unknown) => deps.logger.warn('webhook job cleanup failed', { error }))
      .finally(() => {
        sweeping = null
        if (spent.length >= 100) dropSpent()
      })
  }
  const send = () => {
    while (!closing && senders.size < IN_PROCESS_CONCURRENCY && queue.length) {
      const { delivery, job } = queue.shift()!
      const sending: Promise<void> = deliver(deps, delivery, { viaJob: false })
        .then((attempted) => {
          // Only an attempt made here spends the job; otherwise it is another sender's backstop.
          if (attempted && job) spent.push(job)
          if (spent.length >= 100 || !queue.length) dropSpent()
        })
        .catch((error: unknown) => deps.logger.warn('webhook delivery failed', { delivery_id: delivery, error }))
        .finally(() => {
          senders.delete(sending)
          send()
        })
      senders.add(sending)
    }
  }
  const made = (deliveries: Made[]) => {
    queue.push(...deliveries)
    send()
  }
  const kick = () => {
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await dispatchPending(deps, made).catch((error: unknown) => deps.logger.warn('webhook dispatch failed', { error }))
      } while (again && !closing)
    })().finally(() => (running = null))
  }
  const listener = await deps.database.listen('webhook_events', { notify: kick, ready: kick, lost: () => {} })
  return {
    async close() {
      closing = true
      // What is not sent yet stays with its job.
      queue.length = 0
      await listener.close()
      await running
      await Promise.all([...senders])
      await sweeping
    },
  }
}

import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { sql } from 'kysely'
import { WEBHOOK_DISABLE_AFTER_DAYS, WEBHOOK_RETRY_DELAYS_SECONDS } from '#common/webhooks.ts'
import type { Tx } from '#server/platform/core/change.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import { signatureHeader } from './signing.ts'
import { activePeopleWithRoles } from '#server/platform/users/reads.ts'

/** The job each delivery had before deliveries were a queue of their own (0890); a left-over one does nothing. */
export const DELIVER_JOB = 'webhooks.deliver'
export const SWEEP_JOB = 'webhooks.sweep'

type Deps = Pick<PlatformDeps, 'db' | 'jobs' | 'now' | 'logger' | 'mailer' | 'webhooks' | 'database'> & WithOutbound

const FAN_OUT_BATCH = 500
/** Deliveries claimed per statement. */
const CLAIM_BATCH = 500
/** Requests in flight per endpoint, each on a kept-alive connection of the endpoint's origin. */
const CONCURRENCY = 16
/** Deliveries a process holds per endpoint (in flight and waiting): an endpoint at this is not claimed for. */
const BACKLOG = 256
/** Deliveries a process holds in all. */
const HELD_MAX = 4000
/** A claim lasts this long (the job lease, JOB_LEASE_SECONDS) and is renewed every 5 s, or a third of it, while its sender lives (decision 102's lease). */
const CLAIM_MS = 30_000
const HEARTBEAT_MS = 5_000
/** Due retries (and deliveries nobody told this process of) are looked for this often. */
const POLL_MS = 1_000
/** New events are looked for this often (the outbox does not notify: migration 0891). */
const OUTBOX_POLL_MS = 200
const TIMEOUT_MS = 10_000
const EXCERPT_BYTES = 1000
const DAY_MS = 86_400_000
/** Successes written in one statement at most. */
const WRITE_BATCH = 1000

/** The `webhook-id` of an event: the same for every attempt and replay, so a receiver can drop repeats. */
export const messageIdOf = (eventId: string) => `msg_${eventId.replace(/-/g, '')}`

/**
 * Fans the outbox out: each event not yet dispatched becomes one delivery per enabled endpoint of
 * its account that wants its type, due now — one statement per batch of events. The events are
 * taken FOR UPDATE SKIP LOCKED, so processes dispatching together never take the same one, and a
 * delivery is unique per event and endpoint: no duplicates. A sender passes `claim`: the
 * deliveries it has room for (endpoints not in `skip`) are made claimed by it and answered with
 * what sending them needs, so the new ones need no claim of their own; the others wait for a claim.
 */
export async function dispatchPending(deps: Pick<Deps, 'db' | 'now'>, claim?: { until: Date; skip: string[]; take(rows: Claimed[]): void }): Promise<{ events: number; deliveries: number }> {
  const total = { events: 0, deliveries: 0 }
  for (;;) {
    const now = deps.now()
    const { rows } = await sql<Claimed & { events: number; deliveries: number }>`WITH ev AS (
        SELECT id, account_id, type, data, occurred_at FROM webhook_events WHERE dispatched_at IS NULL ORDER BY occurred_at LIMIT ${FAN_OUT_BATCH} FOR UPDATE SKIP LOCKED),
      made AS (
        INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at, claimed_until)
        SELECT ev.id, ep.id, ${now}, CASE WHEN ep.id <> ALL (${claim?.skip ?? []}::uuid[]) THEN ${claim?.until ?? null}::timestamptz END
        FROM ev JOIN webhook_endpoints ep ON ep.account_id = ev.account_id AND ep.enabled AND ev.type = ANY (ep.events)
        ON CONFLICT (event_id, endpoint_id) DO NOTHING
        RETURNING id, event_id, endpoint_id, claimed_until),
      marked AS (UPDATE webhook_events e SET dispatched_at = ${now} FROM ev WHERE e.id = ev.id RETURNING 1)
      SELECT (SELECT count(*) FROM marked)::int AS events, (SELECT count(*) FROM made)::int AS deliveries, c.*
      FROM (SELECT 1) one LEFT JOIN LATERAL (
        SELECT m.id, 0 AS attempts, m.event_id, m.endpoint_id, ep.account_id, ep.url, ep.enabled, ep.secret, ep.previous_secret, ep.previous_secret_expires_at,
          ep.failing_since, ev.type, ev.data::text AS data, ev.occurred_at
        FROM made m JOIN ev ON ev.id = m.event_id JOIN webhook_endpoints ep ON ep.id = m.endpoint_id
        WHERE m.claimed_until IS NOT NULL) c ON true`.execute(deps.db)
    const events = rows[0]?.events ?? 0
    total.events += events
    total.deliveries += rows[0]?.deliveries ?? 0
    const claimed = rows.filter((r) => r.id)
    if (claimed.length) claim?.take(claimed)
    if (events < FAN_OUT_BATCH) return total
  }
}

/** Tells the sending processes at commit that a delivery is due now (a replay, a ping); the poll would find it within a second anyway. Not for events: a NOTIFY serialises commits (migration 0891). */
export async function nudgeSenders(tx: Tx): Promise<void> {
  await sql`SELECT pg_notify('webhook_events', '')`.execute(tx)
}

/** Where an endpoint's URL is posted to: its request options (parsed once) on the endpoint's kept-alive connections. */
/** Where an endpoint's deliveries go, or why they may not (the outbound guard refused its URL: nothing is sent). */
type Target = { send: typeof httpRequest; options: RequestOptions & { agent: HttpAgent }; refused?: string }

type Answer = { status: number | null; excerpt: string; error: string | null; retryAfter: number | null; ms: number }

/**
 * One POST on the endpoint's kept-alive connections, no redirects followed, a 10 s limit; the
 * outbound guard (decision 022) checked an address in the URL before, and checks every address a
 * name resolves to at each connection.
 */
function post(target: Target, headers: Record<string, string>, body: string): Promise<Answer> {
  const started = Date.now()
  if (target.refused) return Promise.resolve({ status: null, excerpt: '', error: target.refused, retryAfter: null, ms: 0 })
  return new Promise((resolve) => {
    const req = target.send({ ...target.options, headers }, (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk)
        size += chunk.length
      })
      res.on('end', () => {
        const retry = res.headers['retry-after']
        const seconds = retry === undefined ? null : /^\d+$/.test(retry) ? Number(retry) : Math.max(0, (Date.parse(retry) - Date.now()) / 1000) || null
        resolve({
          status: res.statusCode ?? null,
          excerpt: chunks.length ? Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_BYTES) : '',
          error: null,
          retryAfter: seconds,
          ms: Date.now() - started,
        })
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

/** A delivery as its claim reads it: the delivery, its endpoint and its event. */
type Claimed = {
  id: string
  attempts: number
  event_id: string
  endpoint_id: string
  account_id: string
  url: string
  enabled: boolean
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  failing_since: Date | null
  type: string
  /** The event's data as JSON text (parsed once per event, not once per endpoint). */
  data: string
  occurred_at: Date
}

/**
 * Claims up to `limit` due deliveries for this process (until `until`), skipping the endpoints
 * given (those whose backlog here is full): one statement, FOR UPDATE SKIP LOCKED, so senders in
 * several processes never claim the same delivery. It reads the endpoint and the event with it.
 */
async function claimDue(deps: Pick<Deps, 'db'>, limit: number, skip: string[], now: Date, until: Date): Promise<Claimed[]> {
  const { rows } = await sql<Claimed>`WITH due AS (
      SELECT id FROM webhook_deliveries
      WHERE state = 'pending' AND next_attempt_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now}) AND endpoint_id <> ALL (${skip}::uuid[])
      ORDER BY next_attempt_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE webhook_deliveries d SET claimed_until = ${until}
    FROM due, webhook_endpoints ep, webhook_events ev
    WHERE d.id = due.id AND ep.id = d.endpoint_id AND ev.id = d.event_id
    RETURNING d.id, d.attempts, d.event_id, d.endpoint_id, ep.account_id, ep.url, ep.enabled, ep.secret, ep.previous_secret, ep.previous_secret_expires_at,
      ep.failing_since, ev.type, ev.data::text AS data, ev.occurred_at`.execute(deps.db)
  return rows
}

type Success = { row: Claimed; answer: Answer; at: Date }

/**
 * Records successes, a batch in one statement: each attempt logged and its delivery done; an
 * endpoint that was failing is failing no more.
 */
async function recordSuccesses(deps: Pick<Deps, 'db'>, done: Success[]): Promise<void> {
  const ids: string[] = []
  const endpoints: string[] = []
  const statuses: number[] = []
  const excerpts: string[] = []
  const durations: number[] = []
  const times: Date[] = []
  for (const { row, answer, at } of done) {
    ids.push(row.id)
    endpoints.push(row.endpoint_id)
    statuses.push(answer.status!)
    excerpts.push(answer.excerpt)
    durations.push(answer.ms)
    times.push(at)
  }
  await sql`WITH r AS (
      SELECT * FROM unnest(${ids}::uuid[], ${endpoints}::uuid[], ${statuses}::int[], ${excerpts}::text[], ${durations}::int[], ${times}::timestamptz[])
        AS r (id, endpoint_id, status, excerpt, ms, at)),
    logged AS (
      INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempted_at, status, response_excerpt, duration_ms)
      SELECT id, endpoint_id, at, status, excerpt, ms FROM r)
    UPDATE webhook_deliveries d SET state = 'succeeded', attempts = d.attempts + 1, last_status = r.status, last_error = NULL, next_attempt_at = NULL, claimed_until = NULL, updated_at = r.at
    FROM r WHERE d.id = r.id AND d.state = 'pending'`.execute(deps.db)
  const recovered = [...new Set(done.filter((s) => s.row.failing_since).map((s) => s.row.endpoint_id))]
  if (recovered.length) await sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY (${recovered}::uuid[]) AND failing_since IS NOT NULL`.execute(deps.db)
}

/**
 * Records an attempt that did not succeed, in one transaction: logged, then retried later (its
 * next attempt due after the schedule's wait) or failed after the last; 410 disables the endpoint
 * at once, as do five days of failures, and its account's admins are mailed. Answers the reason
 * when the endpoint was disabled.
 */
async function recordFailure(deps: Deps, row: Claimed, answer: Answer, now: Date): Promise<string | null> {
  const attempts = row.attempts + 1
  const error = answer.error ?? `HTTP ${answer.status}`
  let disable: string | null = null
  await deps.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('webhook_attempts')
      .values({ delivery_id: row.id, endpoint_id: row.endpoint_id, attempted_at: now, status: answer.status, response_excerpt: answer.excerpt, error: answer.error, duration_ms: answer.ms })
      .execute()
    const endpoint = await tx.selectFrom('webhook_endpoints').select(['failing_since', 'enabled']).where('id', '=', row.endpoint_id).forUpdate().executeTakeFirst()
    const failingSince = endpoint?.failing_since ?? now
    if (answer.status === 410) disable = 'The endpoint answered 410 Gone'
    else if (now.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) disable = `The endpoint failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days`
    // Told once: another delivery may have disabled it already.
    if (disable && endpoint?.enabled === false) disable = null
    await tx
      .updateTable('webhook_endpoints')
      .set({ failing_since: failingSince, ...(disable ? { enabled: false, disabled_reason: disable, updated_at: now } : {}) })
      .where('id', '=', row.endpoint_id)
      .execute()
    const delay = disable || endpoint?.enabled === false ? null : retryDelaySeconds(attempts, answer.retryAfter, deps.webhooks?.retryDelaysSeconds)
    await tx
      .updateTable('webhook_deliveries')
      .set({
        ...(delay === null ? { state: 'failed' as const, next_attempt_at: null } : { next_attempt_at: new Date(now.getTime() + delay * 1000) }),
        attempts,
        last_status: answer.status,
        last_error: error,
        claimed_until: null,
        updated_at: now,
      })
      .where('id', '=', row.id)
      .where('state', '=', 'pending')
      .execute()
  })
  if (disable) await tellAdmins(deps, row.account_id, row.url, disable)
  return disable
}

/** Mails the account's admins that an endpoint was disabled (a failure to mail is logged, not retried). */
async function tellAdmins(deps: Deps, accountId: string, url: string, reason: string): Promise<void> {
  const admins = await activePeopleWithRoles(deps.db, accountId, ['account-admin', 'user-admin']).select(['email', 'language']).execute()
  for (const admin of admins) {
    const t = mailTexts(admin.language)
    await deps.mailer
      .send({ to: admin.email, subject: t('webhookDisabled.subject'), text: t('webhookDisabled.body', { url, reason }) })
      .catch((error: unknown) => deps.logger.warn('webhook disable mail failed', { error }))
  }
}

/** What the process holds of one endpoint: waiting to be sent, and in flight. */
type Lane = { waiting: Claimed[]; inFlight: number }

/**
 * The worker's webhook sender (started by `server/main.ts` beside the job engine): fans new
 * events out, looking at the outbox OUTBOX_POLL_MS apart (one pass at a time; a full batch runs
 * another at once), and sends due deliveries — claimed in batches, sent CONCURRENCY at a time per
 * endpoint on kept-alive connections, each event's body serialised once, the results written back
 * in batches. Retries are deliveries due later, found by the poll; a replay or ping nudges it.
 * Claims are renewed while held; a process that dies lets its deliveries go when their claim runs
 * out (CLAIM_MS), and the next sender sends them with the same webhook-id.
 */
export async function startWebhookDispatcher(deps: Deps): Promise<{ close(): Promise<void> }> {
  const claimMs = (deps.webhooks?.claimSeconds ?? CLAIM_MS / 1000) * 1000
  const heartbeatMs = Math.min(HEARTBEAT_MS, Math.floor(claimMs / 3))
  const allowPrivate = Boolean(deps.webhooks?.allowPrivateAddresses)
  let closing = false
  // The embedded database belongs to this process alone: a claim in it is a dead process's.
  if (deps.database.kind === 'pglite') await sql`UPDATE webhook_deliveries SET claimed_until = NULL WHERE claimed_until IS NOT NULL AND state = 'pending'`.execute(deps.db)

  // Fan-out, one pass at a time.
  let fanning: Promise<void> | null = null
  let fanAgain = false
  const fanOut = () => {
    if (fanning) {
      fanAgain = true
      return
    }
    fanning = (async () => {
      do {
        fanAgain = false
        // The new deliveries this process has room for are made claimed by it; the rest wait for a claim.
        const now = deps.now()
        const room = held.size < HELD_MAX
        const full = [...lanes].filter(([, lane]) => lane.waiting.length + lane.inFlight >= BACKLOG).map(([id]) => id)
        const made = await dispatchPending(deps, room ? { until: new Date(now.getTime() + claimMs), skip: full, take } : undefined).catch((error: unknown) => {
          deps.logger.warn('webhook dispatch failed', { error })
          return { deliveries: 0 }
        })
        if (made.deliveries && !room) pull()
      } while (fanAgain && !closing)
    })().finally(() => (fanning = null))
  }

  // Sending.
  const lanes = new Map<string, Lane>()
  const held = new Map<string, Claimed>()
  // One pool of kept-alive connections per endpoint (at most CONCURRENCY), made again when its URL changes.
  const targets = new Map<string, { url: string; target: Target }>()
  const outbound = outboundOf(deps)
  const targetOf = (endpointId: string, text: string) => {
    const known = targets.get(endpointId)
    if (known?.url === text) return known.target
    known?.target.options.agent.destroy()
    // Through the guard: an address in the URL checked now (also one saved while private addresses were allowed), a name at each connection.
    let guarded: ReturnType<typeof outbound.requestOptions> | null = null
    let refused: string | undefined
    try {
      guarded = outbound.requestOptions(new URL(text), { allowPrivate }, allowPrivate ? ['https:', 'http:'] : ['https:'])
    } catch (error) {
      refused = (error as Error).message
    }
    const https = guarded?.https ?? true
    const Agent = https ? HttpsAgent : HttpAgent
    const options = {
      ...guarded?.options,
      method: 'POST',
      agent: new Agent({ keepAlive: true, maxSockets: CONCURRENCY, maxFreeSockets: CONCURRENCY, scheduling: 'lifo', timeout: 30_000 }),
      timeout: TIMEOUT_MS,
    }
    const target: Target = { send: https ? httpsRequest : httpRequest, options, ...(refused ? { refused } : {}) }
    targets.set(endpointId, { url: text, target })
    return target
  }
  const sending = new Set<Promise<void>>()
  // Bodies of the events held, serialised once for all their endpoints.
  const bodies = new Map<string, { body: string; uses: number }>()
  /** An endpoint just disabled: what waits for it here fails now, unsent (as a delivery claimed after would). */
  const disabled = async (endpointId: string) => {
    const waiting = lanes.get(endpointId)?.waiting.splice(0) ?? []
    if (!waiting.length) return
    try {
      await sql`UPDATE webhook_deliveries SET state = 'failed', last_error = 'The endpoint is disabled', claimed_until = NULL, updated_at = ${deps.now()}
        WHERE id = ANY (${waiting.map((r) => r.id)}::uuid[]) AND state = 'pending'`.execute(deps.db)
    } finally {
      for (const row of waiting) release(row)
    }
  }

  let successes: Success[] = []
  let writing: Promise<void> | null = null
  const write = () => {
    if (writing || !successes.length) return
    const batch = successes.slice(0, WRITE_BATCH)
    successes = successes.slice(batch.length)
    writing = recordSuccesses(deps, batch)
      .then(
        () => {
          for (const s of batch) release(s.row)
        },
        (error: unknown) => {
          // Sent and acknowledged: written again later (the claim is renewed meanwhile) rather than sent again.
          deps.logger.warn('webhook results not written; trying again', { error })
          successes.push(...batch)
          return new Promise<void>((r) => setTimeout(r, 1000).unref())
        },
      )
      .finally(() => {
        writing = null
        if (!closing || successes.length) write()
      })
  }
  /** Done with a delivery here (once): its claim is no longer renewed, its body dropped with the last of its event's. */
  const release = (row: Claimed) => {
    if (!held.delete(row.id)) return
    const body = bodies.get(row.event_id)
    if (body && --body.uses <= 0) bodies.delete(row.event_id)
  }

  const attempt = async (row: Claimed) => {
    const now = deps.now()
    if (!row.enabled) {
      await deps.db
        .updateTable('webhook_deliveries')
        .set({ state: 'failed', last_error: 'The endpoint is disabled', claimed_until: null, updated_at: now })
        .where('id', '=', row.id)
        .where('state', '=', 'pending')
        .execute()
      release(row)
      return
    }
    const id = messageIdOf(row.event_id)
    const timestamp = Math.floor(now.getTime() / 1000)
    const body = bodies.get(row.event_id)!.body
    const secrets = [row.secret, ...(row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > now ? [row.previous_secret] : [])]
    const answer = await post(
      targetOf(row.endpoint_id, row.url),
      {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'RegistrarPortal-Webhooks/1.0',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, id, timestamp, body),
      },
      body,
    )
    const at = deps.now()
    if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
      successes.push({ row, answer, at })
      if (successes.length >= WRITE_BATCH) write()
      else queueMicrotask(write)
      return
    }
    try {
      if (await recordFailure(deps, row, answer, at)) await disabled(row.endpoint_id)
    } finally {
      release(row)
    }
  }

  const pump = (lane: Lane) => {
    while (!closing && lane.inFlight < CONCURRENCY && lane.waiting.length) {
      const row = lane.waiting.shift()!
      lane.inFlight++
      const sent: Promise<void> = attempt(row)
        .catch((error: unknown) => {
          // Not recorded: let it go, its claim lapses and it is attempted again (same webhook-id).
          deps.logger.warn('webhook delivery failed', { delivery_id: row.id, error })
          release(row)
        })
        .finally(() => {
          lane.inFlight--
          sending.delete(sent)
          pump(lane)
          // The endpoint's backlog here is spent or half spent: claim more.
          if (lane.waiting.length === 0 || lane.waiting.length + lane.inFlight === BACKLOG / 2) pull()
        })
      sending.add(sent)
    }
  }

  /** Deliveries claimed by this process: held (their claims renewed) and queued on their endpoint's lane. */
  function take(rows: Claimed[]) {
    for (const row of rows) {
      held.set(row.id, row)
      const body = bodies.get(row.event_id)
      if (body) body.uses++
      else bodies.set(row.event_id, { body: JSON.stringify({ type: row.type, timestamp: new Date(row.occurred_at).toISOString(), data: JSON.parse(row.data) }), uses: 1 })
      let lane = lanes.get(row.endpoint_id)
      if (!lane) lanes.set(row.endpoint_id, (lane = { waiting: [], inFlight: 0 }))
      lane.waiting.push(row)
    }
    for (const lane of lanes.values()) pump(lane)
  }

  let pulling: Promise<void> | null = null
  let pullAgain = false
  function pull() {
    if (closing) return
    if (pulling) {
      pullAgain = true
      return
    }
    pulling = (async () => {
      do {
        pullAgain = false
        const room = Math.min(CLAIM_BATCH, HELD_MAX - held.size)
        if (room <= 0) return
        const full = [...lanes].filter(([, lane]) => lane.waiting.length + lane.inFlight >= BACKLOG).map(([id]) => id)
        const now = deps.now()
        const rows = await claimDue(deps, room, full, now, new Date(now.getTime() + claimMs))
        take(rows)
        if (rows.length === room) pullAgain = true
      } while (pullAgain && !closing)
    })()
      .catch((error: unknown) => deps.logger.warn('webhook claim failed', { error }))
      .finally(() => {
        pulling = null
        for (const [id, lane] of lanes) if (!lane.waiting.length && !lane.inFlight) lanes.delete(id)
      })
  }

  // Claims held here live on while this process does.
  let beating: Promise<unknown> | null = null
  const heartbeat = setInterval(() => {
    if (beating || !held.size) return
    const until = new Date(deps.now().getTime() + claimMs)
    // Rows being written meanwhile are skipped (never waited for: no deadlock with the writes), they are done anyway.
    beating = sql`UPDATE webhook_deliveries d SET claimed_until = ${until}
        FROM (SELECT id FROM webhook_deliveries WHERE id = ANY (${[...held.keys()]}::uuid[]) AND state = 'pending' FOR UPDATE SKIP LOCKED) h WHERE d.id = h.id`
      .execute(deps.db)
      .catch((error: unknown) => deps.logger.warn('webhook claim renewal failed', { error }))
      .finally(() => (beating = null))
  }, heartbeatMs)
  heartbeat.unref()
  const poll = setInterval(pull, POLL_MS)
  poll.unref()
  const outboxPoll = setInterval(fanOut, OUTBOX_POLL_MS)
  outboxPoll.unref()

  // A replay or a test ping tells the senders at once (nudgeSenders); so do they each other.
  const listener = await deps.database.listen('webhook_events', { notify: pull, ready: fanOut, lost: () => {} })
  return {
    async close() {
      closing = true
      clearInterval(poll)
      clearInterval(outboxPoll)
      clearInterval(heartbeat)
      await listener.close()
      await fanning
      await pulling
      // What is not sent yet goes back at once, for the next sender.
      const waiting = [...lanes.values()].flatMap((lane) => lane.waiting.splice(0))
      if (waiting.length)
        await sql`UPDATE webhook_deliveries SET claimed_until = NULL WHERE id = ANY (${waiting.map((r) => r.id)}::uuid[]) AND state = 'pending'`
          .execute(deps.db)
          .catch((error: unknown) => deps.logger.warn('webhook claims not released', { error }))
      for (const row of waiting) release(row)
      await Promise.all([...sending])
      // The results of what was sent, written before the process goes (a few tries if the database is away).
      for (let tries = 0; (writing || successes.length) && tries < 5; tries++) {
        write()
        await writing
      }
      await beating
      for (const { target } of targets.values()) target.options.agent.destroy()
    },
  }
}

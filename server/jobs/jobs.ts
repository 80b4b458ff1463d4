import PgBoss from 'pg-boss'
import type { Database, SqlRunner } from '#server/db/database.ts'
import type { Logger } from '#server/lib/logger.ts'

export type JobHandler<T> = (data: T, job: { id: string; name: string }) => Promise<void>

/** How a job is queued (decision 026): every option a caller needs, so nothing reaches the engine past this wrapper. */
export type SendOptions = {
  /** The caller's transaction (`txRunner(tx)`): the job is queued only if that transaction commits, never without it. */
  runner?: SqlRunner
  /** Retries after a failure (5 unless told). */
  retryLimit?: number
  /** Waits longer before each retry (pg-boss's exponential backoff); true unless told. */
  retryBackoff?: boolean
  /** One queued job per key: a second send with the same key is not queued. */
  singletonKey?: string
  /** Runs no sooner than this many seconds from now (a delayed job). */
  startAfterSeconds?: number
}

/**
 * Background work persisted in the database (pg-boss), on PGlite and PostgreSQL alike: what an
 * area sees (`PlatformDeps.jobs`). Its jobs are registered once, by its `jobs.ts` (decision 026).
 */
export type Jobs = {
  /** Queues a job; returns its id (null when a singleton key already holds one). */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null>
  register<T>(name: string, handler: JobHandler<T>, options?: { batchSize?: number }): void
  /** Runs a registered job on a cron schedule (UTC), set up when the engine starts. */
  schedule(name: string, cron: string): void
  /**
   * Puts a failed job (retries spent) back in its queue, with one more retry (pg-boss's retry);
   * `runner` makes it part of the caller's transaction. False when the job is not failed.
   */
  retry(name: string, id: string, options?: { runner?: SqlRunner }): Promise<boolean>
  start(options: { work: boolean }): Promise<void>
  stop(): Promise<void>
}

/** The engine as the process (and tests acting as another worker) hold it: the wrapper and pg-boss itself, which no area reaches. */
export type JobEngine = Jobs & { readonly boss: PgBoss }

/**
 * A job taken by a worker is leased for LEASE seconds; while its handler runs, the worker renews
 * the lease every HEARTBEAT seconds, however long the handler takes. A worker that dies stops
 * renewing: its jobs expire at most LEASE seconds after its last heartbeat and the sweep (every
 * HEARTBEAT seconds in each working process) hands them back for a retry — picked up again well
 * within a minute instead of pg-boss's default 15 minutes. Decision 102.
 */
export const JOB_LEASE = { seconds: 30, heartbeatSeconds: 5 }

const asDb = (runner: SqlRunner) => ({
  executeSql: async (text: string, values: unknown[]) => runner.query(text, values),
})

/** Creates the job engine over the database's own pool; it keeps its tables in schema pgboss. */
export function createJobs(database: Database, logger: Logger, options: { lease?: { seconds: number; heartbeatSeconds: number } } = {}): JobEngine {
  const lease = options.lease ?? JOB_LEASE
  const boss = new PgBoss({
    db: asDb(database.pool) as never,
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    migrate: true,
    expireInSeconds: lease.seconds,
  })
  boss.on('error', (error) => logger.error('job engine error', { error }))
  const handlers = new Map<string, { handler: JobHandler<any>; batchSize: number }>()
  const schedules = new Map<string, string>()
  // The jobs this process is running now (id → queue), whose leases the heartbeat renews.
  const running = new Map<string, string>()
  let heartbeat: NodeJS.Timeout | undefined
  let beating: Promise<void> | undefined
  let started = false
  let working = false
  const loops: Promise<void>[] = []
  // Idle workers wait to be woken: by the dispatcher when their queue has a job ready, or by stop().
  const sleepers = new Map<string, () => void>()
  const sleep = (name: string) => new Promise<void>((resolve) => sleepers.set(name, resolve))
  const wakeQueue = (name: string) => {
    const resolve = sleepers.get(name)
    sleepers.delete(name)
    resolve?.()
  }
  // The dispatcher waits for its next look, or for stop().
  let waking: (() => void) | undefined
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        waking = undefined
        resolve()
      }
      waking = done
    })
  const wake = () => {
    waking?.()
    for (const name of [...sleepers.keys()]) wakeQueue(name)
  }

  const beat = async () => {
    try {
      if (running.size) {
        const ids = [...running.keys()]
        const names = [...new Set(running.values())]
        // The lease runs from now again: pg-boss expires a job when started_on + expire_in has passed.
        await database.pool.query(
          `UPDATE pgboss.job SET expire_in = (now() - started_on) + make_interval(secs => $3)
            WHERE name = ANY($1::text[]) AND id = ANY($2::uuid[]) AND state = 'active'`,
          [names, ids, lease.seconds],
        )
      }
      // Jobs whose lease ran out (their worker died) go back to their queue to be retried.
      await boss.expire()
    } catch (error) {
      logger.warn('job heartbeat failed', { error })
    }
  }

  return {
    boss,
    async send(name, data, options = {}) {
      // Queues are created at start, never here: inside a transaction on PGlite a second
      // statement outside that transaction would wait for it forever.
      const id = await boss.send(name, data, {
        retryLimit: options.retryLimit ?? 5,
        retryBackoff: options.retryBackoff ?? true,
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.startAfterSeconds ? { startAfter: Math.ceil(options.startAfterSeconds) } : {}),
        ...(options.runner ? { db: asDb(options.runner) as never } : {}),
      })
      // A job sent outside a transaction is ready now: the dispatcher looks at once rather than at
      // its next poll (one in a transaction is seen then, after the commit).
      if (id && !options.runner && !options.startAfterSeconds && handlers.has(name)) waking?.()
      return id
    },
    register(name, handler, options = {}) {
      handlers.set(name, { handler, batchSize: options.batchSize ?? 1 })
    },
    schedule(name, cron) {
      schedules.set(name, cron)
    },
    async retry(name, id, options = {}) {
      // pg-boss answers how many jobs it put back (its types say void).
      const answer = (await boss.retry(name, id, options.runner ? { db: asDb(options.runner) as never } : {})) as unknown as { affected: number }
      return answer.affected > 0
    },
    async start({ work }) {
      if (started) return
      started = true
      await boss.start()
      for (const name of handlers.keys()) {
        await boss.createQueue(name, { name, expireInSeconds: lease.seconds })
        // Queues made before the lease existed keep pg-boss's 15 minutes otherwise.
        await boss.updateQueue(name, { name, expireInSeconds: lease.seconds })
      }
      for (const [name, cron] of schedules) await boss.schedule(name, cron, {}, { tz: 'UTC' })
      if (database.kind === 'pglite') await releaseOrphans(database, boss, logger)
      if (!work) return
      working = true
      for (const [name, { handler, batchSize }] of handlers) loops.push(workQueue(name, handler, batchSize))
      loops.push(dispatch([...handlers.keys()]))
      heartbeat = setInterval(() => {
        beating ??= beat().finally(() => (beating = undefined))
      }, lease.heartbeatSeconds * 1000)
      heartbeat.unref()
      beating = beat().finally(() => (beating = undefined))
    },
    async stop() {
      if (!started) return
      started = false
      working = false
      wake()
      // Handlers finishing now are let finish; one still running after the grace is handed back
      // at once, for the next process to retry, instead of when its lease would run out.
      const finished = await Promise.race([Promise.all(loops).then(() => true), delay(STOP_GRACE_MS).then(() => false)])
      if (!finished) for (const [id, name] of running) await boss.fail(name, id, { message: 'the process stopped while running this job' }).catch(() => {})
      clearInterval(heartbeat)
      await beating
      await boss.stop({ graceful: false, wait: true, close: false })
    },
  }

  /**
   * Looks every POLL_MS for the queues that have a job ready, in one statement over every queue
   * this process works (pg-boss's partial index of waiting jobs answers it), and wakes their
   * workers. A fetch per queue per poll cost an idle server a third of a core with 47 queues, most
   * of it PGlite's (issue 27).
   */
  async function dispatch(names: string[]) {
    while (working) {
      const { rows } = await database.pool.query(`SELECT DISTINCT name FROM pgboss.job WHERE name = ANY($1::text[]) AND state < 'active' AND start_after < now()`, [names]).catch((error: unknown) => {
        logger.warn('job poll failed', { error })
        return { rows: [] }
      })
      for (const row of rows as { name: string }[]) wakeQueue(row.name)
      if (working) await pause(POLL_MS)
    }
  }

  /**
   * One queue's worker: takes a job (or a batch), runs it, completes or fails it, and takes the
   * next until none is ready; then sleeps until the dispatcher sees one. pg-boss's own `work` is
   * not used because it fails a handler that runs past the job's expiry although the handler goes
   * on running, and a job then runs twice.
   */
  async function workQueue(name: string, handler: JobHandler<any>, batchSize: number) {
    while (working) {
      const jobs = await boss.fetch<unknown>(name, { batchSize }).catch((error: unknown) => {
        logger.warn('job fetch failed', { queue: name, error })
        return []
      })
      if (!jobs.length) {
        if (working) await sleep(name)
        continue
      }
      for (const job of jobs) running.set(job.id, name)
      for (const job of jobs) {
        try {
          await handler(job.data, { id: job.id, name })
          await boss.complete(name, job.id)
        } catch (error) {
          logger.warn('job failed', { queue: name, job: job.id, error })
          await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error), ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) }).catch(() => {})
        } finally {
          running.delete(job.id)
        }
      }
    }
  }
}

const POLL_MS = 1000
const STOP_GRACE_MS = 10_000
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

/**
 * The embedded database belongs to one process at a time: a job still active when it opens was
 * taken by a process that is gone, so it is handed back for a retry now rather than when its
 * lease runs out.
 */
async function releaseOrphans(database: Database, boss: PgBoss, logger: Logger) {
  const { rows } = await database.pool.query(`SELECT name, id FROM pgboss.job WHERE state = 'active'`)
  for (const row of rows as { name: string; id: string }[]) {
    await boss.fail(row.name, row.id, { message: 'the process running this job stopped' })
    logger.info('job of a stopped process handed back', { queue: row.name, job: row.id })
  }
}

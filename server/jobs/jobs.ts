import PgBoss from 'pg-boss'
import type { Database, SqlRunner } from '#server/db/database.ts'
import type { Logger } from '#server/lib/logger.ts'

export type JobHandler<T> = (data: T, job: { id: string; name: string }) => Promise<void>

/** Background work persisted in the database (pg-boss), on PGlite and PostgreSQL alike. */
export type Jobs = {
  /** Queues a job; pass a transaction's runner to make the job part of that transaction. */
  send<T extends object>(name: string, data: T, options?: { runner?: SqlRunner; retryLimit?: number; singletonKey?: string }): Promise<string | null>
  register<T>(name: string, handler: JobHandler<T>, options?: { batchSize?: number }): void
  /** Runs a registered job on a cron schedule (UTC), set up when the engine starts. */
  schedule?(name: string, cron: string): void
  start(options: { work: boolean }): Promise<void>
  stop(): Promise<void>
  boss: PgBoss
}

const asDb = (runner: SqlRunner) => ({
  executeSql: async (text: string, values: unknown[]) => runner.query(text, values),
})

/** Creates the job engine over the database's own pool; it keeps its tables in schema pgboss. */
export function createJobs(database: Database, logger: Logger): Jobs {
  const boss = new PgBoss({
    db: asDb(database.pool) as never,
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    migrate: true,
  })
  boss.on('error', (error) => logger.error('job engine error', { error }))
  const handlers = new Map<string, { handler: JobHandler<any>; batchSize: number }>()
  const schedules = new Map<string, string>()
  let started = false
  let working = false
  return {
    boss,
    async send(name, data, options = {}) {
      // Queues are created at start, never here: inside a transaction on PGlite a second
      // statement outside that transaction would wait for it forever.
      return boss.send(name, data, {
        retryLimit: options.retryLimit ?? 5,
        retryBackoff: true,
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.runner ? { db: asDb(options.runner) as never } : {}),
      })
    },
    register(name, handler, options = {}) {
      handlers.set(name, { handler, batchSize: options.batchSize ?? 1 })
    },
    schedule(name, cron) {
      schedules.set(name, cron)
    },
    async start({ work }) {
      if (started) return
      started = true
      await boss.start()
      for (const name of handlers.keys()) await boss.createQueue(name)
      for (const [name, cron] of schedules) await boss.schedule(name, cron, {}, { tz: 'UTC' })
      if (!work) return
      working = true
      for (const [name, { handler, batchSize }] of handlers) {
        await boss.work(name, { batchSize, pollingIntervalSeconds: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data, { id: job.id, name: job.name })
        })
      }
    },
    async stop() {
      if (!started) return
      started = false
      await boss.stop({ graceful: working, wait: true, close: false, timeout: 10_000 })
    },
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createBulkJob, runBulkItems, runBulkJob } from '#server/platform/bulk/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { StartedRegistries } from '#server/platform/registries/registries.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { preloadDemoRegistry } from '#server/seed/registry.ts'
import { createTestDatabase } from '#tests/support/database.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// What a process that dies leaves behind, set up by hand, and what the next run makes of it
// (issue 15, decision 102): a bulk item retried after its process died reads back what the
// registry holds before repeating; a job whose worker is gone is picked up again; a job that runs
// longer than its lease is not.

const TLDS = ['com', 'net', 'org', 'io', 'de', 'es', 'jp', 'eu', 'shop', 'xn--p1ai'].map((name) => ({ name, periods: [1, 2, 3, 5, 10] }))
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let registries: StartedRegistries
let acme: string

const oneYearOn = (date: Date) => {
  const next = new Date(date)
  next.setUTCFullYear(next.getUTCFullYear() + 1)
  return next
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { registry: { tlds: TLDS, rateLimit: { perSecond: 1000, burst: 1000 } } })
  registries = platform.registries!
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [30, 2] })
  await preloadDemoRegistry(platform.db, registries, createLogger('silent'))
  // Queues exist, nothing is worked: each test runs the job's loop itself, as a new process would.
  await platform.deps.jobs.start({ work: false })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})

afterAll(async () => {
  await platform?.close()
})

let next = 0
/** Demo domains of Acme not used by an earlier test (each test has its own). */
async function freshDomains(count: number) {
  const rows = await platform.db.selectFrom('domains').selectAll().where('account_id', '=', acme).orderBy('name').offset(next).limit(count).execute()
  next += count
  return rows
}

const registryExpiry = async (name: string) => (await registries.forTld(name.split('.').at(-1)!)!.infoDomain(name)).expiresAt!

/** A job as its dead process left it: running, the first `done` items finished, the next one started. */
async function interruptedJob(action: 'renew' | 'lock', ids: string[], done: number, baseline?: Record<string, unknown>) {
  const job = await createBulkJob(platform.deps, systemScope('test', acme), { action, ids, ...(action === 'renew' ? { params: { period: 1 } } : {}) })
  await platform.db.updateTable('bulk_jobs').set({ state: 'running', started_at: new Date(), done }).where('id', '=', job.id).execute()
  await platform.db.updateTable('bulk_job_items').set({ state: 'done', ok: true, outcome: 'applied', attempts: 1 }).where('job_id', '=', job.id).where('position', '<', done).execute()
  await platform.db
    .updateTable('bulk_job_items')
    .set({ attempts: 1, ...(baseline ? { baseline: JSON.stringify(baseline) } : {}) })
    .where('job_id', '=', job.id)
    .where('position', '=', done)
    .execute()
  return job.id
}

async function jobView(jobId: string) {
  const login = await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })
  const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${jobId}`, { token: login.json.access_token })
  expect(res.status).toBe(200)
  return res.json as { state: string; done: number; total: number; results: { name: string; ok: boolean; outcome?: string; error?: string }[] }
}

describe('a bulk item retried after its process died', () => {
  it('records a renewal the registry already made instead of refusing or repeating it, and reconciles the job', async () => {
    const [a, b, c] = await freshDomains(3)
    // The dead run renewed b at the registry; its answer never reached our records.
    const jobId = await interruptedJob('renew', [a!.id, b!.id, c!.id], 1, { expires_at: b!.expires_at!.toISOString() })
    await registries.forTld(b!.tld)!.renewDomain({ name: b!.name, currentExpiry: b!.expires_at!, years: 1 })
    // a was done by the dead run at both ends.
    await registries.forTld(a!.tld)!.renewDomain({ name: a!.name, currentExpiry: a!.expires_at!, years: 1 })
    await platform.db
      .updateTable('domains')
      .set({ expires_at: oneYearOn(a!.expires_at!) })
      .where('id', '=', a!.id)
      .execute()
    const startedAt = new Date()

    await runBulkJob(platform.deps, jobId)

    const view = await jobView(jobId)
    expect(view).toMatchObject({ state: 'completed', done: 3, total: 3 })
    expect(view.results.map((r) => [r.name, r.ok, r.outcome])).toEqual([
      [a!.name, true, 'applied'],
      [b!.name, true, 'applied'],
      [c!.name, true, 'applied'],
    ])
    for (const d of [a!, b!, c!]) {
      const ours = await platform.db.selectFrom('domains').select(['expires_at', 'reconciled_at']).where('id', '=', d.id).executeTakeFirstOrThrow()
      // Exactly one year on, at both ends.
      expect(ours.expires_at).toEqual(oneYearOn(d.expires_at!))
      expect(await registryExpiry(d.name)).toEqual(oneYearOn(d.expires_at!))
      // The interrupted job's domains were compared with the registry after it.
      expect(ours.reconciled_at!.getTime()).toBeGreaterThanOrEqual(startedAt.getTime())
    }
    const differences = await platform.db.selectFrom('domain_differences').select('field').where('domain_id', 'in', [a!.id, b!.id, c!.id]).where('resolved_at', 'is', null).execute()
    expect(differences).toEqual([])
  })

  it('writes nothing again when the dead run had recorded the renewal but not finished the item', async () => {
    const [d] = await freshDomains(1)
    const jobId = await interruptedJob('renew', [d!.id], 0, { expires_at: d!.expires_at!.toISOString() })
    await registries.forTld(d!.tld)!.renewDomain({ name: d!.name, currentExpiry: d!.expires_at!, years: 1 })
    await platform.db
      .updateTable('domains')
      .set({ expires_at: oneYearOn(d!.expires_at!), version: d!.version + 1 })
      .where('id', '=', d!.id)
      .execute()

    await runBulkJob(platform.deps, jobId)

    expect((await jobView(jobId)).results).toMatchObject([{ ok: true, outcome: 'applied' }])
    const ours = await platform.db.selectFrom('domains').select(['expires_at', 'version']).where('id', '=', d!.id).executeTakeFirstOrThrow()
    expect(ours).toEqual({ expires_at: oneYearOn(d!.expires_at!), version: d!.version + 1 })
    expect(await registryExpiry(d!.name)).toEqual(oneYearOn(d!.expires_at!))
  })

  it('renews once when the dead run stopped before reaching the registry', async () => {
    const [d] = await freshDomains(1)
    const jobId = await interruptedJob('renew', [d!.id], 0, { expires_at: d!.expires_at!.toISOString() })
    await runBulkJob(platform.deps, jobId)
    expect((await jobView(jobId)).results).toMatchObject([{ ok: true, outcome: 'applied' }])
    expect(await registryExpiry(d!.name)).toEqual(oneYearOn(d!.expires_at!))
    expect((await platform.db.selectFrom('domains').select('expires_at').where('id', '=', d!.id).executeTakeFirstOrThrow()).expires_at).toEqual(oneYearOn(d!.expires_at!))
  })

  it('renews nothing when the registry holds another expiry, says so, and the reconciliation records the difference', async () => {
    const [d] = await freshDomains(1)
    const jobId = await interruptedJob('renew', [d!.id], 0, { expires_at: d!.expires_at!.toISOString() })
    // Someone renewed it by two years meanwhile.
    await registries.forTld(d!.tld)!.renewDomain({ name: d!.name, currentExpiry: d!.expires_at!, years: 2 })
    const twoYearsOn = oneYearOn(oneYearOn(d!.expires_at!))

    await runBulkJob(platform.deps, jobId)

    const [result] = (await jobView(jobId)).results
    expect(result).toMatchObject({ ok: false })
    expect(result!.error).toMatch(/neither .* nor .*not renewed again/)
    expect(await registryExpiry(d!.name)).toEqual(twoYearsOn)
    const differences = await platform.db.selectFrom('domain_differences').select(['field', 'registry']).where('domain_id', '=', d!.id).where('resolved_at', 'is', null).execute()
    expect(differences).toEqual([{ field: 'expires_at', registry: twoYearsOn.toISOString() }])
  })

  it('sends a lock only for what the registry lacks', async () => {
    const domains = (await freshDomains(6)).filter((d) => !d.registry_lock).slice(0, 2)
    const [a, b] = domains
    const jobId = await interruptedJob('lock', [a!.id, b!.id], 0)
    // The dead run locked a at the registry (adding a status twice is refused there).
    await registries.forTld(a!.tld)!.updateDomain({ name: a!.name, add: { statuses: ['clientUpdateProhibited', 'clientDeleteProhibited', 'clientTransferProhibited'] } })

    await runBulkJob(platform.deps, jobId)

    expect((await jobView(jobId)).results.map((r) => [r.ok, r.outcome, r.error])).toEqual([
      [true, 'applied', undefined],
      [true, 'applied', undefined],
    ])
    for (const d of [a!, b!]) {
      const info = await registries.forTld(d.tld)!.infoDomain(d.name)
      expect(info.statuses).toEqual(expect.arrayContaining(['clientUpdateProhibited', 'clientDeleteProhibited', 'clientTransferProhibited']))
      expect((await platform.db.selectFrom('domains').select('registry_lock').where('id', '=', d.id).executeTakeFirstOrThrow()).registry_lock).toBe(true)
    }
  })

  it('stops a run that another run has taken over; each item is applied and counted once', async () => {
    const [a, b] = await freshDomains(2)
    const job = await createBulkJob(platform.deps, systemScope('test', acme), { action: 'auto_renew_off', ids: [a!.id, b!.id] })
    const applied: string[] = []
    let second: Promise<void> | undefined
    const apply: Parameters<typeof runBulkItems>[2] = async (_scope, item, _job, attempt) => {
      applied.push(`${item.name}${attempt.retry ? ' (retry)' : ''}`)
      // While the first run is on its first item, a second run (a retry) takes the job over.
      if (!second) await (second = runBulkItems(platform.deps, job.id, apply, String))
      return { outcome: 'applied' }
    }
    await runBulkItems(platform.deps, job.id, apply, String)
    // The second run repeats the item the first had started, then does the rest; the first stops.
    expect(applied).toEqual([a!.name, `${a!.name} (retry)`, b!.name])
    const view = await jobView(job.id)
    expect(view).toMatchObject({ state: 'completed', done: 2, total: 2 })
    expect(view.results.map((r) => r.ok)).toEqual([true, true])
  })
})

describe('a direct renewal whose answer was lost', () => {
  it('is recorded from the registry when repeated, not refused', async () => {
    const [d] = await freshDomains(1)
    await registries.forTld(d!.tld)!.renewDomain({ name: d!.name, currentExpiry: d!.expires_at!, years: 1 })
    const login = await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })
    const res = await platform.call('POST', `/groups/${acme}/domains/${d!.id}/renew`, { token: login.json.access_token, body: { period: 1 } })
    expect(res.status).toBe(200)
    expect(new Date(res.json.expires_at)).toEqual(oneYearOn(d!.expires_at!))
    expect(await registryExpiry(d!.name)).toEqual(oneYearOn(d!.expires_at!))
  })
})

describe('the job engine lease', () => {
  // Three seconds, renewed every half second: a heartbeat late by more than two and a half seconds (a loaded CI machine)
  // would hand the long job to a second run, which is what the test must not see for the right reason.
  const lease = { seconds: 3, heartbeatSeconds: 0.5 }

  it('hands a job whose worker is gone to a new worker, and keeps a job that runs past its lease', async () => {
    const database = await createTestDatabase()
    const logger = createLogger('silent')
    const dead = createJobs(database, logger, { lease })
    dead.register('test.crash', async () => {})
    await dead.start({ work: false })
    await dead.send('test.crash', { n: 1 })
    // A worker takes the job and dies: active, and nobody renews its lease. (The job is fetchable
    // once its start time has passed by the database's clock: asked again for up to 5 s.)
    let taken: { id: string } | undefined
    for (const deadline = Date.now() + 5_000; taken === undefined && Date.now() < deadline;) {
      ;[taken] = await dead.boss.fetch('test.crash')
      if (taken === undefined) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(taken).toBeDefined()
    await dead.stop()

    const runs: string[] = []
    const alive = createJobs(database, logger, { lease })
    alive.register<{ n: number }>('test.crash', async (_data, job) => {
      runs.push(job.id)
    })
    let longRuns = 0
    alive.register('test.long', async () => {
      longRuns++
      await new Promise((resolve) => setTimeout(resolve, lease.seconds * 2 * 1000))
    })
    await alive.start({ work: true })
    const longId = await alive.send('test.long', {})
    try {
      for (const deadline = Date.now() + 45_000; Date.now() < deadline && (runs.length === 0 || !(await alive.boss.getJobById('test.long', longId!))?.completedOn);)
        await new Promise((resolve) => setTimeout(resolve, 200))
      // Picked up again once its lease ran out (at once on PGlite, whose data one process holds).
      expect(runs).toEqual([taken!.id])
      const long = await alive.boss.getJobById('test.long', longId!)
      expect(long?.state).toBe('completed')
      expect(long?.retryCount).toBe(0)
      expect(longRuns).toBe(1)
    } finally {
      await alive.stop()
      await database.drop()
    }
  }, 75_000)
})

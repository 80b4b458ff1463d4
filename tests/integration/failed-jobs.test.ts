import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as failedJobsAction, loader as failedJobsLoader } from '#app/routes/reports/failed-jobs.tsx'
import { printPql } from '#common/pql.ts'
import { figureTarget, FAILED_JOBS_PATH } from '#common/reports.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { portalAs } from '#tests/support/portal.ts'

// Staff see the background jobs that failed (issue 29, Pulse: "staff see … failed jobs"): a job
// whose handler always fails spends its retries and ends failed; the operations report counts it
// by queue, each figure the total of the failed-jobs list it opens; the list shows its ids, never
// its other data; Retry puts it back in its queue (audited) and it runs again, from the archive
// too; a client admin, and staff in a client's context, are refused.

const QUEUE = 'test.always-fails'
const SECRET_VALUE = 'tok_live_do-not-show-this'
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let staffGroup: string
let acme: string
const tokens: Record<string, string> = {}
let runs = 0

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

/** The job's state and retries as pg-boss holds them, live or archived. */
async function jobState(id: string) {
  const live = await platform.db.selectFrom('pgboss.job').select(['state', 'retry_count']).where('id', '=', id).executeTakeFirst()
  return live ?? (await platform.db.selectFrom('pgboss.archive').select(['state', 'retry_count']).where('id', '=', id).executeTakeFirst())
}

async function until(what: string, check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [1, 1] } })
  platform.deps.jobs.register(QUEUE, async () => {
    runs++
    throw new Error(`the registry said no <script>alert(1)</script> ${'x'.repeat(800)}`)
  })
  await platform.deps.jobs.start({ work: true })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  staffGroup = (await platform.db.selectFrom('users').select('account_id').where('email', '=', 'staff@example.com').executeTakeFirstOrThrow()).account_id
  tokens.staff = await login('staff@example.com')
  tokens.admin = await login('admin@acme.example')
}, 60_000)

afterAll(async () => {
  await platform?.deps.jobs.stop()
  await platform?.close()
})

describe('failed background jobs', () => {
  let jobId: string

  it('counts a job that spent its retries in the operations report, each figure the total of the list it opens', async () => {
    const domainId = crypto.randomUUID()
    jobId = (await platform.deps.jobs.send(QUEUE, { domain_id: domainId, token: SECRET_VALUE }, { retryLimit: 1, retryBackoff: false }))!
    await until('the job to fail', async () => (await jobState(jobId))?.state === 'failed')
    expect(runs).toBe(2)

    const report = (await platform.call('GET', `/groups/${staffGroup}/reports/operations`, { token: tokens.staff })).json
    const section = report.sections.find((s: { key: string }) => s.key === 'failed_job')
    expect(section.figures.find((f: { key: string }) => f.key === QUEUE)?.count).toBe(1)
    for (const figure of section.figures as { key: string; count: number }[]) {
      const target = figureTarget('operations', 'failed_job', figure.key, { today: report.today, filters: report.filters })!
      expect(target.path).toBe(FAILED_JOBS_PATH)
      const list = await platform.call('GET', `/groups/${staffGroup}/jobs/failed?limit=100&pql=${encodeURIComponent(printPql(target.filters))}`, { token: tokens.staff })
      expect(list.status).toBe(200)
      expect(list.json.meta.total, figure.key).toBe(figure.count)
      if (figure.key !== QUEUE) continue
      const row = list.json.data[0]
      expect(row).toMatchObject({ id: jobId, queue: QUEUE, retries: 1, data_keys: ['domain_id', 'token'], data_ids: [`domain_id=${domainId}`], archived: false })
      expect(row.error).toContain('the registry said no <script>')
      expect(row.error.length).toBe(500)
      expect(list.text).not.toContain(SECRET_VALUE)
    }

    // A client's report has no failed jobs: they are the registrar's, not an account's.
    const inAcme = (await platform.call('GET', `/groups/${acme}/reports/operations`, { token: tokens.staff })).json
    expect(inAcme.sections.find((s: { key: string }) => s.key === 'failed_job').figures).toEqual([])
  })

  it('refuses the list and the retry to a client admin, and to staff in a client’s context', async () => {
    expect((await platform.call('GET', `/groups/${acme}/jobs/failed`, { token: tokens.admin })).status).toBe(403)
    expect((await platform.call('POST', `/groups/${acme}/jobs/failed/${jobId}/retry`, { token: tokens.admin })).status).toBe(403)
    expect((await platform.call('GET', `/groups/${staffGroup}/jobs/failed`, { token: tokens.admin })).status).toBe(403)
    expect((await platform.call('GET', `/groups/${acme}/jobs/failed`, { token: tokens.staff })).status).toBe(403)
    expect((await platform.call('POST', `/groups/${acme}/jobs/failed/${jobId}/retry`, { token: tokens.staff })).status).toBe(403)
    // The portal's screen: the list for staff in their own group, 403 for the client admin and in a client's context.
    const staff = await portalAs(platform, 'staff@example.com')
    const page = (await staff(failedJobsLoader, `${FAILED_JOBS_PATH}?pql=${encodeURIComponent(`queue equals '${QUEUE}'`)}`)) as { data: { page: { meta: { total: number } } } }
    expect(page.data.page.meta.total).toBe(1)
    expect(await statusOf(() => staff(failedJobsLoader, `${FAILED_JOBS_PATH}?context=${acme}`))).toBe(403)
    const admin = await portalAs(platform, 'admin@acme.example')
    expect(await statusOf(() => admin(failedJobsLoader, FAILED_JOBS_PATH))).toBe(403)
    expect(await jobState(jobId)).toMatchObject({ state: 'failed', retry_count: 1 })
  })

  it('puts a failed job back in its queue, audited, and it runs again — from pg-boss’s archive too', async () => {
    // The screen's Retry: a post from another site is refused (CSRF), a client admin's too; staff's is redirected back with its snackbar.
    const staff = await portalAs(platform, 'staff@example.com')
    const admin = await portalAs(platform, 'admin@acme.example')
    expect(await statusOf(() => staff.post(failedJobsAction, FAILED_JOBS_PATH, { id: jobId }, 'https://evil.example'))).toBe(403)
    expect(await statusOf(() => admin.post(failedJobsAction, FAILED_JOBS_PATH, { id: jobId }))).toBe(403)
    expect(await jobState(jobId)).toMatchObject({ state: 'failed' })
    const answer = (await staff.post(failedJobsAction, FAILED_JOBS_PATH, { id: jobId })) as Response
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe(FAILED_JOBS_PATH)
    await until('the retried job to run and fail again', async () => (await jobState(jobId))?.state === 'failed' && runs === 3)
    expect(await jobState(jobId)).toMatchObject({ retry_count: 2 })
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('entity_id', '=', jobId).execute()
    expect(audit).toMatchObject([{ area: 'jobs', entity_type: 'job', action: 'retry', actor_label: expect.any(String), account_id: null }])
    // Not failed any more (or no such job): refused, nothing changed.
    expect((await platform.call('POST', `/groups/${staffGroup}/jobs/failed/${crypto.randomUUID()}/retry`, { token: tokens.staff })).status).toBe(404)

    // pg-boss archives a failed job after 12 hours: the list still shows it, and Retry brings it back.
    await platform.database.pool.query(`WITH moved AS (DELETE FROM pgboss.job WHERE id = $1 RETURNING *) INSERT INTO pgboss.archive SELECT moved.*, now() FROM moved`, [jobId])
    const archived = await platform.call('GET', `/groups/${staffGroup}/jobs/failed?pql=${encodeURIComponent(`queue equals '${QUEUE}'`)}`, { token: tokens.staff })
    expect(archived.json.data).toMatchObject([{ id: jobId, archived: true, retries: 2 }])
    expect((await platform.call('POST', `/groups/${staffGroup}/jobs/failed/${jobId}/retry`, { token: tokens.staff })).status).toBe(200)
    await until('the job brought back from the archive to run', async () => runs === 4 && (await jobState(jobId))?.state === 'failed')
    expect(await platform.db.selectFrom('pgboss.archive').select('id').where('id', '=', jobId).executeTakeFirst()).toBeUndefined()
  })
})

const statusOf = async (run: () => Promise<unknown>) => {
  try {
    await run()
    return 200
  } catch (thrown) {
    return (thrown as { init?: { status?: number }; status?: number }).init?.status ?? (thrown as Response).status
  }
}

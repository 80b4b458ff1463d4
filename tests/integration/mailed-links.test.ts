import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'

// Issue 16 item 9: without PUBLIC_URL, mailed links pointed at localhost:3000 whatever port the
// server listened on. The real server (server/main.ts) on a port of its own, its mail caught by a
// real SMTP server: every link it mails leads to where it listens — also when a client sends a
// Host header of its own (that would otherwise carry a reset token to the client's address).
const ROOT = path.resolve(import.meta.dirname, '../..')
const PASSWORD = 'portal-demo-2026'

async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createNetServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
      probe.on('error', reject)
    })
    if (port !== 3000) return port
  }
}

/** A JSON request with a Host header of the caller's choosing (fetch does not let one set it). */
function call(port: number, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path: url, headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null })
        })
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

describe('links in mail without PUBLIC_URL', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-links-'))
  let smtp: SmtpCapture
  let server: ChildProcess
  let port: number
  let origin: string

  beforeAll(async () => {
    smtp = await startSmtpCapture()
    port = await freePort()
    origin = `http://localhost:${port}`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      REGISTRY_MODE: 'none',
      LOG_LEVEL: 'warn',
      APP_ENV: 'test',
      PASSWORD_HASH_COST: '10',
      WORKER: '1',
    }
    delete env.PUBLIC_URL
    delete env.PLATFORM_URL
    delete env.DATABASE_URL
    delete env.HOST
    server = spawn(process.execPath, [path.join(ROOT, 'server/main.ts')], { cwd: ROOT, env, stdio: 'ignore' })
    const deadline = Date.now() + 150_000
    while (
      (await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) !== 200
    ) {
      if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`)
      if (Date.now() > deadline) throw new Error('the server was not ready in time')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }, 180_000)

  afterAll(async () => {
    if (server?.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.kill('SIGTERM')
      await exited
    }
    await smtp?.close()
    rmSync(dataDir, { recursive: true, force: true })
  }, 120_000)

  it('a password reset link leads to where the server listens, whatever Host the request named', async () => {
    const asked = await call(port, 'POST', '/v1/password_resets', { email: 'viewer@acme.example' }, { host: 'attacker.example' })
    expect(asked.status).toBe(202)
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('viewer@acme.example') && /reset/i.test(m.subject ?? ''), 20_000)
    const links = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? []
    expect(links).toHaveLength(1)
    expect(links[0]).toMatch(new RegExp(`^${origin}/reset\\?token=[\\w%-]+$`))
  })

  it('an invitation link leads to where the server listens', async () => {
    const login = await call(port, 'POST', '/v1/login', { username: 'admin@acme.example', password: PASSWORD })
    expect(login.status).toBe(200)
    const auth = { authorization: `Bearer ${login.json.access_token}` }
    const me = await call(port, 'GET', '/v1/me', undefined, auth)
    const invited = await call(port, 'POST', `/v1/groups/${me.json.group_id}/users`, { email: 'new.colleague@acme.example', name: 'New Colleague', roles: ['domain-viewer'] }, auth)
    expect(invited.status).toBe(201)
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('new.colleague@acme.example'), 20_000)
    const links = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? []
    expect(links).toHaveLength(1)
    expect(links[0]).toMatch(new RegExp(`^${origin}/invitations/[\\w%-]+$`))
  })

  it('an approval link, mailed by a background job with no request to go by, leads to where the server listens', async () => {
    const login = await call(port, 'POST', '/v1/login', { username: 'admin@acme.example', password: PASSWORD })
    const auth = { authorization: `Bearer ${login.json.access_token}` }
    const group = (await call(port, 'GET', '/v1/me', undefined, auth)).json.group_id as string
    expect((await call(port, 'PUT', `/v1/groups/${group}/material-approvers`, { emails: ['approver@acme.example'] }, auth)).status).toBe(200)
    const domain = (await call(port, 'GET', `/v1/groups/${group}/domains?limit=1&fields=id,name&sort=name`, undefined, auth)).json.data[0] as { id: string }
    expect((await call(port, 'PUT', `/v1/groups/${group}/material-domains`, { ids: [domain.id], is_material: true }, auth)).status).toBe(200)
    const job = await call(port, 'POST', `/v1/groups/${group}/bulk-actions`, { action: 'set_nameservers', ids: [domain.id], params: { nameservers: ['ns1.links.example', 'ns2.links.example'] } }, auth)
    expect(job.status).toBe(202)
    const mail = await smtp.waitFor((m) => m.envelopeTo.includes('approver@acme.example'), 30_000)
    const links = (mail.text ?? '').match(/https?:\/\/\S+/g) ?? []
    expect(links).toHaveLength(1)
    expect(links[0]).toMatch(new RegExp(`^${origin}/approvals/[0-9a-f-]{36}\\?token=[\\w%-]+$`))
  })
})

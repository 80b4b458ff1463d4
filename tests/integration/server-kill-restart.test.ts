import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { powerDnsInstalled, startPowerDns } from '#server/integrations/powerdns/local-server.ts'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { freePort, spawnedDatabase, spawnedServer, until } from '#tests/support/spawned-server.ts'

// The real server with its local PowerDNS (and local Pebble when installed) in DATA_DIR, killed
// with SIGKILL and started again on the same DATA_DIR (issue 26, item 15). Before, the killed
// server's pdns_server lived on as an orphan holding DATA_DIR/pdns/pdns.controlsocket, and the next
// start died on "Previous controlsocket is in use". Now its helpers end with it (setpriv
// --pdeathsig) and a start clears what a dead server left (server/lib/owned-process.ts).

const pebble = spawnSync('sh', ['-c', 'command -v pebble']).status === 0

/** The processes whose parent is `pid`, with their command names. */
const childrenOf = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([id]) => Number(id) > 0)
    .map(([id, comm]) => ({ pid: Number(id), comm: comm ?? '' }))

/** Running (a zombie nobody reaped yet has ended). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

describe.skipIf(!powerDnsInstalled())('the server killed with SIGKILL starts again on its DATA_DIR', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-kill-'))
  const logFile = path.join(dataDir, 'server.log')
  const data = spawnedDatabase(dataDir)
  let server: ReturnType<typeof spawnedServer>
  // Whatever the server ran, found while it ran: killed at the end whatever happens.
  const seen = new Set<number>()

  const start = () => server.start({ ...data.env, REGISTRY_MODE: 'none', POWERDNS_MODE: 'local', ACME_LOCAL_PEBBLE: pebble ? '1' : '0', LOG_LEVEL: 'info', JOB_LEASE_SECONDS: '6' })

  /** The DNS port of the PowerDNS the server's latest start logged. */
  const dnsPort = () => {
    const started = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"PowerDNS started"'))
      .at(-1)
    return Number(/"dns":"127\.0\.0\.1:(\d+)"/.exec(started ?? '')?.[1])
  }
  const dig = (port: number, name: string) => execFileSync('dig', ['@127.0.0.1', '-p', String(port), '+norec', '+short', '+time=2', '+tries=1', name, 'SOA'], { encoding: 'utf8' }).trim()

  /** One of the demo registrar's domains: its zone, and zones under it, are the account's to make. */
  let domain: string

  /** Creates a zone (`label` under the domain, or the domain's own) through the API and waits until the server's PowerDNS serves it with its serial. */
  async function publishZone(label?: string) {
    const login = await server.api('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })
    expect(login.status).toBe(200)
    const token = String(login.json.access_token)
    const me = await server.api('GET', '/me', { token })
    domain ??= String((await server.api('GET', `/groups/${String(me.json.group_id)}/domains?limit=1&sort=name&fields=name`, { token })).json.data[0].name)
    const name = label ? `${label}.${domain}` : domain
    const created = await server.api('POST', `/groups/${String(me.json.group_id)}/zones`, { token, body: { name } })
    expect(created.status).toBe(201)
    const zone = await until(
      async () => (await server.api('GET', `/groups/${String(me.json.group_id)}/zones/${String(created.json.id)}`, { token })).json as { published: boolean; serial: number },
      (z) => z.published,
      `${name} published`,
      60_000,
    )
    expect(dig(dnsPort(), name)).toContain(` ${zone.serial} `)
    return name
  }

  beforeAll(async () => {
    await data.create()
    // A small demo world made here (its users, a few domains, no zones): the server seeds nothing,
    // so the zones it publishes are the test's, not behind the demo's four hundred.
    const database = await data.open()
    try {
      await seedDemo(database.db, createLogger('silent'), { domainsPerAccount: [2, 1] })
    } finally {
      await database.close()
    }
    server = spawnedServer({ port: await freePort(), dataDir, logFile, readyMs: 240_000 })
  }, 60_000)

  afterAll(async () => {
    await server?.kill()
    for (const pid of seen) if (alive(pid)) process.kill(pid, 'SIGKILL')
    if (!process.env.KEEP_DATA) await data.drop()
  })

  it('its PowerDNS and Pebble end with it, and the next start serves and publishes again', async () => {
    await start()
    const before = await publishZone()
    const helpers = childrenOf(server.pid!).filter((c) => ['pdns_server', 'pebble'].includes(c.comm))
    for (const helper of helpers) seen.add(helper.pid)
    expect(helpers.map((h) => h.comm).sort()).toEqual(pebble ? ['pdns_server', 'pebble'] : ['pdns_server'])

    expect(await server.kill()).toBe(null)
    // The kernel ends them with the server (parent-death signal): nothing is left holding DATA_DIR.
    await until(
      () => helpers.filter((h) => alive(h.pid)),
      (left) => left.length === 0,
      'the killed server’s helpers to end',
      10_000,
      50,
    )

    // Started again on the same DATA_DIR: ready, its PowerDNS serving what was published before
    // and publishing what is made now.
    await start()
    for (const helper of childrenOf(server.pid!)) seen.add(helper.pid)
    expect(dig(dnsPort(), before)).toMatch(/^ns1\./)
    await publishZone('after-kill')
  }, 600_000)
})

// Where the kernel could not end it (no setpriv, or a server killed between its fork and the
// helper's prctl), a killed server's pdns_server lives on, holding the control socket in
// DATA_DIR/pdns: the next start ends it, by the pid file, and starts its own.
describe.skipIf(!powerDnsInstalled())('a start clears the PowerDNS a dead server left in its folder', () => {
  it('kills the orphan recorded in the pid file and starts a PowerDNS serving the same data', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rp-orphan-pdns-'))
    const first = await startPowerDns({ dir })
    // As a server killed with SIGKILL leaves it: running, its pid file naming a server that is gone.
    const orphan = JSON.parse(readFileSync(path.join(dir, 'pdns_server.pid'), 'utf8')) as { pid: number; parent: number }
    writeFileSync(path.join(dir, 'pdns_server.pid'), JSON.stringify({ ...orphan, parent: deadPid() }))
    let second: Awaited<ReturnType<typeof startPowerDns>> | undefined
    try {
      second = await startPowerDns({ dir })
      expect(alive(orphan.pid)).toBe(false)
      expect(second.dnsPort).not.toBe(first.dnsPort)
      expect(await second.dig('localhost', 'A')).toEqual([])
    } finally {
      if (alive(orphan.pid)) process.kill(orphan.pid, 'SIGKILL')
      await second?.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a folder whose PowerDNS belongs to a server still running, and leaves that one alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rp-busy-pdns-'))
    // The folder's configuration, then another live process's helper: a shell (the "server")
    // running a pdns_server of this folder.
    await (await startPowerDns({ dir })).stop()
    const owner = spawn('sh', ['-c', `pdns_server --config-dir=${dir} --guardian=no --daemon=no --disable-syslog --write-pid=no & wait`], { stdio: 'ignore' })
    try {
      const helper = await until(
        () => childrenOf(owner.pid!).find((c) => c.comm === 'pdns_server'),
        (c) => c !== undefined,
        'the other server’s pdns_server',
        10_000,
        50,
      )
      writeFileSync(path.join(dir, 'pdns_server.pid'), JSON.stringify({ pid: helper!.pid, parent: owner.pid, command: 'pdns_server', identity: `--config-dir=${dir}` }))
      await expect(startPowerDns({ dir })).rejects.toThrow(/belongs to a server that still runs/)
      expect(alive(helper!.pid)).toBe(true)
    } finally {
      for (const c of childrenOf(owner.pid!)) process.kill(c.pid, 'SIGKILL')
      owner.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

/** The pid of a process that has ended. */
function deadPid(): number {
  const done = spawnSync('true')
  return done.pid
}

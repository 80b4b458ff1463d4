import { spawn, spawnSync } from 'node:child_process'
import { createHash, X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { makeCertificate, makeIssuer, precertificateTbs, readCertificate, readTbs } from './certificate.ts'
import { createCtClient, parseCtLogs } from './client.ts'
import { startLocalCtLog, type LocalCtLog } from './local-log.ts'
import { decodeLeaf, encodeLeaf, leafHash, parseEntry, treeHash } from './rfc6962.ts'

const issuer = makeIssuer('Portal Test CA')

describe('certificates and log entries', () => {
  it('reads a certificate made here as node:crypto (OpenSSL) reads it', () => {
    const der = makeCertificate(issuer, ['acme-login.test', 'www.acme-login.test'], { serial: Buffer.from('00c0ffee01', 'hex') })
    const x509 = new X509Certificate(der)
    expect(x509.verify(new X509Certificate(issuer.certificate).publicKey)).toBe(true)
    const facts = readCertificate(der)
    expect(facts).toEqual({
      names: ['acme-login.test', 'www.acme-login.test'],
      commonName: 'acme-login.test',
      issuer: 'CN=Portal Test CA, O=Portal Test CA',
      issuerCommonName: 'Portal Test CA',
      notBefore: new Date(x509.validFrom).toISOString(),
      notAfter: new Date(x509.validTo).toISOString(),
      serial: 'c0ffee01',
    })
    expect(x509.subjectAltName).toBe('DNS:acme-login.test, DNS:www.acme-login.test')
    expect(x509.serialNumber.toLowerCase().replace(/^0+/, '')).toBe(facts.serial)
  })

  it('takes the poison out of a precertificate and reads its TBS to the same facts', () => {
    const precert = makeCertificate(issuer, ['acme-pay.test'], { precertificate: true })
    expect(new X509Certificate(precert).subjectAltName).toBe('DNS:acme-pay.test')
    const tbs = precertificateTbs(precert)
    expect(tbs.length).toBeLessThan(precert.length)
    expect(readTbs(tbs)).toEqual(readCertificate(precert))
    expect(() => precertificateTbs(makeCertificate(issuer, ['plain.test']))).toThrow(/poison/)
  })

  it('encodes and decodes MerkleTreeLeaf for both entry types', () => {
    const der = makeCertificate(issuer, ['acme.test'])
    const leaf = encodeLeaf(1_700_000_000_123, { type: 'x509', certificate: der })
    expect(decodeLeaf(leaf)).toEqual({ timestamp: 1_700_000_000_123, entry: { type: 'x509', certificate: der } })
    expect(parseEntry(7, leaf, Buffer.from([0, 0, 0]))).toMatchObject({ index: 7, type: 'x509', timestamp: 1_700_000_000_123, names: ['acme.test'] })
    expect(() => decodeLeaf(leaf.subarray(0, 20))).toThrow(/Truncated/)
    expect(() => decodeLeaf(Buffer.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(/v1/)
  })

  it('hashes the Merkle tree as RFC 6962 §2.1 says', () => {
    expect(treeHash([]).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const leaves = [0, 1, 2].map((n) => leafHash(Buffer.from([n])))
    expect(treeHash(leaves.slice(0, 1))).toEqual(leaves[0])
    const node = (left: Buffer, right: Buffer) =>
      createHash('sha256')
        .update(Buffer.from([1]))
        .update(left)
        .update(right)
        .digest()
    expect(treeHash(leaves)).toEqual(node(node(leaves[0]!, leaves[1]!), leaves[2]!))
  })
})

describe('the local log, read by our client and by certspotter', () => {
  let log: LocalCtLog
  const names = ['acme-login.test', 'www.acme-login.test', 'acme-pay.test', 'secure-acme.example']
  beforeAll(async () => {
    log = await startLocalCtLog()
    log.add([makeCertificate(issuer, names.slice(0, 2)), issuer.certificate])
    log.add([makeCertificate(issuer, ['acme-pay.test'], { precertificate: true }), issuer.certificate], { precertificate: true })
    const response = await fetch(new URL('ct/v1/add-chain', log.url), {
      method: 'POST',
      body: JSON.stringify({ chain: [makeCertificate(issuer, ['secure-acme.example']), issuer.certificate].map((c) => c.toString('base64')) }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ sct_version: 0, id: log.logId })
  })
  afterAll(() => log.close())

  it('answers a signed tree head and the entries as certificates’ facts', async () => {
    const client = createCtClient({ fetch: createOutbound({ resolver: null }).fetch, perSecond: 100, burst: 100 })
    const [source] = parseCtLogs(`${log.url}#${log.publicKeyDer.toString('base64')}`)
    const sth = await client.getSth(source!)
    expect(sth.treeSize).toBe(3)
    const { entries, unreadable } = await client.getEntries(source!, 0, sth.treeSize - 1)
    expect(unreadable).toBe(0)
    expect(entries.map((e) => [e.index, e.type, e.names])).toEqual([
      [0, 'x509', names.slice(0, 2)],
      [1, 'precert', ['acme-pay.test']],
      [2, 'x509', ['secure-acme.example']],
    ])
    await expect(client.getSth({ url: log.url, key: makeIssuer('other').publicKeyDer.toString('base64') })).rejects.toThrow(/does not verify/)
    expect((await fetch(new URL('ct/v1/get-entries?start=5&end=9', log.url))).status).toBe(400)
  })

  const certspotter = spawnSync('which', ['certspotter']).status === 0
  it.skipIf(!certspotter)('certspotter, reading the same log, sees the same names', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'certspotter-'))
    try {
      writeFileSync(path.join(dir, 'logs.json'), JSON.stringify(log.logList()))
      writeFileSync(path.join(dir, 'watchlist'), '.test\n.example\n')
      const seen = new Set<string>()
      const child = spawn('certspotter', ['-logs', path.join(dir, 'logs.json'), '-state_dir', path.join(dir, 'state'), '-watchlist', path.join(dir, 'watchlist'), '-stdout', '-no_save'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const stop = setTimeout(() => child.kill(), 30_000)
      let errors = ''
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()))
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`certspotter saw ${[...seen].join(', ')} in 20 s; stderr: ${errors}`)), 20_000)
        child.stdout.on('data', (chunk: Buffer) => {
          for (const match of chunk.toString().matchAll(/DNS Name = (\S+)/g)) seen.add(match[1]!)
          if (names.every((n) => seen.has(n))) {
            clearTimeout(timer)
            resolve()
          }
        })
        child.on('exit', (code) => reject(new Error(`certspotter exited ${code}: ${errors}`)))
      })
      // It prints a match before checking the tree: its verified position is the proof our root hash and signature are RFC 6962's.
      const logs = path.join(dir, 'state', 'logs')
      const verified = async (): Promise<number> => {
        for (let i = 0; i < 100; i++) {
          for (const entry of readdirSync(logs)) {
            const file = path.join(logs, entry, 'state.json')
            const state = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { verified_position?: { size?: number } }) : {}
            if (state.verified_position?.size === 3) return 3
          }
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        return -1
      }
      const size = await verified().finally(() => {
        clearTimeout(stop)
        child.kill()
      })
      expect(errors).not.toMatch(/does not match|error/i)
      expect(size).toBe(3)
      expect([...seen].sort()).toEqual([...names].sort())
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

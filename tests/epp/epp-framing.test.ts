import { connect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EppClient } from '#server/integrations/registry/client.ts'
import { encodeFrame, FrameReader } from '#server/integrations/registry/framing.ts'
import { startLocalRegistry, type LocalRegistryServer } from '#server/integrations/registry/local-server.ts'
import { checkXsdDir } from '#server/integrations/registry/xsd-validator.ts'
import { child, parseXml, path as xpath } from '#server/integrations/registry/xml.ts'

// What the local registry does with frames a client gets wrong (issue 26, item 13), over real TLS
// with raw bytes: RFC 5734 lengths it cannot read past, client transaction ids RFC 5730's schema
// refuses, and a domain delete RFC 5731 refuses. Every answer is validated against
// ../shared/epp-xsd by the server itself; an invalid one is a failure here.

const xsd = checkXsdDir()
if (!xsd.ok) throw new Error(`${xsd.reason} — the EPP tests need the RFC schemas in ../shared/epp-xsd beside the project.`)

const A = { id: 'registrar-f', password: 'secret-f-123' }
const MiB = 1024 * 1024
let server: LocalRegistryServer
let invalidOnPurpose = 0

beforeAll(async () => {
  server = await startLocalRegistry({ port: 0, clients: [A], policy: { tlds: { test: { createYears: [1], renewYears: [1], transferYears: [1] } } } })
})

afterAll(async () => {
  // Every answer the server sent validated (the server checks each before sending it).
  if (server?.validator) {
    const stats = server.validator.stats
    for (const deadline = Date.now() + 5_000; (stats.sent < server.frames.sent || stats.received < server.frames.received) && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20))
    expect(server.problems.filter((p) => p.direction === 'sent')).toEqual([])
    expect(stats.invalidSent).toBe(0)
    expect(stats.invalidReceived).toBe(invalidOnPurpose)
  }
  await server?.close()
})

/** A TLS connection speaking raw frames: `next(n)` the next answers, `closed()` when the server has closed it. */
async function rawSession() {
  const socket = connect({ host: '127.0.0.1', port: server.port, ca: server.certificate, servername: 'localhost' })
  const reader = new FrameReader()
  const inbox: string[] = []
  let isClosed = false
  let wake: (() => void) | undefined
  socket.on('data', (chunk: Buffer) => {
    inbox.push(...reader.push(chunk))
    wake?.()
  })
  socket.on('close', () => {
    isClosed = true
    wake?.()
  })
  socket.on('error', () => undefined)
  const next = async (count: number, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (inbox.length < count) {
      if (isClosed) throw new Error(`the server closed the connection after ${inbox.length} of ${count} answers`)
      if (Date.now() > deadline) throw new Error(`no answer within ${ms} ms`)
      await new Promise<void>((resolve) => {
        wake = resolve
        setTimeout(resolve, 100)
      })
    }
    return inbox.splice(0, count)
  }
  const closed = async (ms = 10_000) => {
    const deadline = Date.now() + ms
    while (!isClosed) {
      if (Date.now() > deadline) throw new Error(`the connection was still open after ${ms} ms`)
      await new Promise<void>((resolve) => {
        wake = resolve
        setTimeout(resolve, 100)
      })
    }
  }
  await next(1) // greeting
  return { socket, next, closed }
}

const header = (length: number) => {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(length)
  return bytes
}
const HELLO = '<?xml version="1.0" encoding="UTF-8"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><hello/></epp>'
const check = (clTRID: string) =>
  `<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><check><d:check xmlns:d="urn:ietf:params:xml:ns:domain-1.0"><d:name>raw.test</d:name></d:check></check><clTRID>${clTRID}</clTRID></command></epp>`

/** The answer's result code, its message, the clTRID it carries (if any) and its reason. */
function result(xml: string) {
  const response = child(parseXml(xml), 'epp:response')
  const res = child(response, 'epp:result')
  return {
    code: Number(res?.attrs.code),
    msg: child(res, 'epp:msg')?.text,
    clTRID: xpath(response, 'epp:trID', 'epp:clTRID')?.text,
    reason: xpath(res, 'epp:extValue', 'epp:reason')?.text ?? '',
  }
}

describe('RFC 5734 lengths the server cannot read past', () => {
  const cases: [string, Buffer, RegExp][] = [
    ['0', header(0), /length 0 is shorter than its own header/],
    ['3', header(3), /length 3 is shorter than its own header/],
    // A whole 2 MiB frame, sent in full: refused from its header, its body read and dropped.
    ['2 MiB', Buffer.concat([header(2 * MiB), Buffer.alloc(2 * MiB - 4, 0x20)]), /2097152 bytes exceeds the maximum of 1048576/],
    // Announces 2 GiB and sends a few bytes: answered at once, nothing of that size is waited for or allocated.
    ['0x7FFFFFFF', Buffer.concat([header(0x7fffffff), Buffer.from('<epp xmlns=')]), /2147483647 bytes exceeds the maximum/],
  ]

  it.each(cases)('a length of %s: the command before it is answered, then 2500 naming the problem, then the connection closes', async (_name, bad, reason) => {
    const { socket, next, closed } = await rawSession()
    // One write: a good frame, then the bad one.
    socket.write(Buffer.concat([encodeFrame(HELLO), bad]))
    const [greeting, refusal] = await next(2)
    expect(greeting).toContain('<greeting>')
    expect(result(refusal!)).toEqual({ code: 2500, msg: 'Command failed; server closing connection', clTRID: undefined, reason: expect.stringMatching(reason) })
    await closed()
  })

  it('an empty data unit (a length of 4, the header alone) is a command syntax error: 2001, and the session goes on', async () => {
    const { socket, next } = await rawSession()
    invalidOnPurpose++
    socket.write(Buffer.concat([header(4), encodeFrame(HELLO)]))
    const [empty, greeting] = await next(2)
    expect(result(empty!).code).toBe(2001)
    expect(greeting).toContain('<greeting>')
    socket.destroy()
  })
})

describe('clTRID (RFC 5730 trIDStringType: a token of 3 to 64 characters)', () => {
  it.each([
    ['too short', 'ab'],
    ['too long', 'X'.repeat(65)],
    ['blank', '    '],
  ])('a command with a clTRID %s is answered 2001 without echoing it, in an answer that validates', async (_case, clTRID) => {
    const { socket, next } = await rawSession()
    invalidOnPurpose++
    socket.write(encodeFrame(check(clTRID)))
    const [answer] = await next(1)
    expect(result(answer!)).toMatchObject({ code: 2001, clTRID: undefined, reason: expect.stringMatching(/clTRID/) })
    if (clTRID.trim()) expect(answer).not.toContain(clTRID)
    socket.destroy()
  })

  it('a valid clTRID is echoed as the schema reads it (whitespace collapsed)', async () => {
    const { socket, next } = await rawSession()
    socket.write(encodeFrame(check('  RAW   T-1 ')))
    const [answer] = await next(1)
    // Not logged in: refused, with the client's id.
    expect(result(answer!)).toMatchObject({ code: 2002, clTRID: 'RAW T-1' })
    socket.destroy()
  })
})

describe('deleting a domain with subordinate hosts (RFC 5731 §3.2.2)', () => {
  it('is refused 2305 naming them, keeping domain and hosts; once they are gone the delete goes through', async () => {
    const epp = new EppClient({ host: '127.0.0.1', port: server.port, tls: { ca: server.certificate, servername: 'localhost' } })
    await epp.connect()
    try {
      await epp.login({ clientId: A.id, password: A.password })
      await epp.createDomain({ name: 'parent.test', authInfo: 'auth-Parent-1' })
      await epp.createDomain({ name: 'user.test', authInfo: 'auth-User-1' })
      await epp.createHost({ name: 'ns1.parent.test', addresses: [{ ip: 'v4', address: '192.0.2.53' }] })
      await epp.createHost({ name: 'ns2.parent.test', addresses: [{ ip: 'v4', address: '192.0.2.54' }] })
      // One of them is only under the domain; the other is also another domain's name server.
      await epp.updateDomain({ name: 'user.test', add: { nameservers: ['ns2.parent.test'] } })

      await expect(epp.deleteDomain('parent.test')).rejects.toMatchObject({
        code: 2305,
        registryMessage: 'Object association prohibits operation',
        reason: expect.stringMatching(/ns1\.parent\.test, ns2\.parent\.test/),
      })
      expect((await epp.infoDomain('parent.test')).hosts).toEqual(['ns1.parent.test', 'ns2.parent.test'])
      expect((await epp.infoDomain('user.test')).nameservers).toEqual(['ns2.parent.test'])

      await epp.deleteHost('ns1.parent.test')
      await expect(epp.deleteDomain('parent.test')).rejects.toMatchObject({ code: 2305, reason: expect.stringMatching(/ns2\.parent\.test/) })
      await epp.updateDomain({ name: 'user.test', rem: { nameservers: ['ns2.parent.test'] } })
      await epp.deleteHost('ns2.parent.test')
      expect(await epp.deleteDomain('parent.test')).toMatchObject({ immediate: true })
    } finally {
      epp.destroy()
    }
  })
})

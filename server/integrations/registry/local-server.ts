import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createServer, type Server, type TLSSocket } from 'node:tls'
import type { Logger } from '#server/lib/logger.ts'
import { RESULT_MESSAGES } from './errors.ts'
import { encodeFrame, FrameError, FrameReader } from './framing.ts'
import { EppFault, LocalRegistry, type Answer, type LocalRegistryPolicy } from './local-registry.ts'
import { EppSchemaValidator, checkXsdDir, defaultXsdDir } from './xsd-validator.ts'
import { startRdapServer, type RdapServer, type RegistrarProfile } from './rdap-server.ts'
import { child, el, eppDocument, NS, parseXml, textOf, type XNode } from './xml.ts'

/**
 * A registry of our own speaking EPP over TLS on loopback, like a registry's test environment:
 * for development, the demo and tests. Every frame received and sent is validated against the
 * RFC schemas; an invalid command is answered 2001, an invalid answer is recorded as a bug.
 */

export type LocalRegistryOptions = {
  port?: number
  host?: string
  /** State snapshot goes to `<dataDir>/registry/state.json`; in memory only when omitted. */
  dataDir?: string
  clients: { id: string; password: string }[]
  policy?: Partial<LocalRegistryPolicy>
  /** Where the RFC schemas are (default `../shared/epp-xsd` beside the repository). */
  xsdDir?: string
  /** Without schemas the server refuses to start unless this is false (demo on a machine without them). */
  requireSchemas?: boolean
  now?: () => Date
  logger?: Logger
  maxFrameBytes?: number
  serverId?: string
  /** Folder of key.pem/cert.pem (made when absent); default DATA_DIR/registry/tls, or a temp folder. */
  tlsDir?: string
  /**
   * Answers each command this much later, after it has run and the state is saved: a slow
   * registry, for tests that stop a client between a registry's write and its own record.
   */
  answerDelayMs?: number
  /** The RDAP service's port (0 or left out: a free one); false: no RDAP service. */
  rdapPort?: number | false
  /** What RDAP publishes of each registrar, by client id (name, IANA id, abuse contact); a client left out is published by its id. */
  registrars?: Record<string, RegistrarProfile>
}

export type FrameProblem = { direction: 'received' | 'sent'; errors: string; xml: string }

export type LocalRegistryServer = {
  port: number
  host: string
  /** PEM of the self-signed certificate: give it to clients as `tls.ca`. */
  certificate: string
  tlsDir: string
  registry: LocalRegistry
  validator: EppSchemaValidator | undefined
  /** Frames that failed validation; every `sent` entry is a server bug. */
  problems: FrameProblem[]
  /** Frames processed per direction (whether or not validation is on). */
  frames: { received: number; sent: number }
  /** The RDAP service's base URL (`<rdapUrl>/domain/<name>`), or null when started without one. */
  rdapUrl: string | null
  close(): Promise<void>
}

const OBJ_URIS = [NS.domain, NS.host, NS.contact, NS.blk]
const EXT_URIS = [NS.secDNS, NS.rgp]
const MAX_FAILED_LOGINS = 3
/** How long a session refused for its framing waits for the client to close before it is cut. */
const UNFRAMED_LINGER_MS = 2_000

/** Starts the server; resolves once it listens. Port 0 picks a free port. */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistryServer> {
  const xsdDir = options.xsdDir ?? defaultXsdDir()
  const xsd = checkXsdDir(xsdDir)
  let validator: EppSchemaValidator | undefined
  if (xsd.ok) validator = new EppSchemaValidator(xsd.dir)
  else if (options.requireSchemas === false) options.logger?.warn('local registry runs WITHOUT frame validation', { reason: xsd.reason })
  else throw new Error(`${xsd.reason}. The local registry validates every frame against them.`)

  const { key, cert, dir: tlsDir } = makeCertificate(options.tlsDir ?? (options.dataDir ? path.join(options.dataDir, 'registry', 'tls') : undefined))
  const registry = new LocalRegistry({ policy: options.policy, now: options.now, dataDir: options.dataDir })
  const now = options.now ?? (() => new Date())
  const passwords = new Map(options.clients.map((c) => [c.id, c.password]))
  const problems: FrameProblem[] = []
  const frames = { received: 0, sent: 0 }
  const sockets = new Set<TLSSocket>()
  let svSeq = 0

  const greeting = () =>
    eppDocument(
      el(
        'greeting',
        null,
        el('svID', null, options.serverId ?? 'Registrar Portal local registry'),
        el('svDate', null, now().toISOString()),
        el(
          'svcMenu',
          null,
          el('version', null, '1.0'),
          el('lang', null, 'en'),
          OBJ_URIS.map((u) => el('objURI', null, u)),
          el(
            'svcExtension',
            null,
            EXT_URIS.map((u) => el('extURI', null, u)),
          ),
        ),
        el(
          'dcp',
          null,
          el('access', null, el('all')),
          el('statement', null, el('purpose', null, el('admin'), el('prov')), el('recipient', null, el('ours'), el('public')), el('retention', null, el('stated'))),
        ),
      ),
    )

  const response = (answer: Answer, clTRID: string | undefined, reason?: string) => {
    svSeq++
    const code = answer.code
    return eppDocument(
      el(
        'response',
        null,
        el(
          'result',
          { code },
          el('msg', null, answer.msg ?? RESULT_MESSAGES[code] ?? 'Command failed'),
          reason ? el('extValue', null, el('value', null, el('clTRID', null, clTRID ?? 'none')), el('reason', null, oneLine(reason))) : null,
        ),
        answer.msgQ
          ? el('msgQ', { count: answer.msgQ.count, id: answer.msgQ.id }, answer.msgQ.qDate ? el('qDate', null, answer.msgQ.qDate) : null, answer.msgQ.msg ? el('msg', null, answer.msgQ.msg) : null)
          : null,
        answer.resData ? el('resData', null, answer.resData) : null,
        answer.extension?.length ? el('extension', null, answer.extension) : null,
        el('trID', null, clTRID ? el('clTRID', null, clTRID) : null, el('svTRID', null, `LR-${now().getTime().toString(36)}-${svSeq}`)),
      ),
    )
  }

  const server: Server = createServer({ key, cert, minVersion: 'TLSv1.2' }, (socket) => {
    sockets.add(socket)
    const session = { clientId: undefined as string | undefined, failedLogins: 0 }
    const reader = new FrameReader(options.maxFrameBytes)
    let queue = Promise.resolve()
    let closing = false

    const send = async (xml: string) => {
      frames.sent++
      if (validator) {
        const result = await validator.check(xml, 'sent')
        if (!result.valid) {
          problems.push({ direction: 'sent', errors: result.errors, xml })
          options.logger?.error('local registry sent an invalid EPP frame', { errors: result.errors })
        }
      }
      if (!socket.destroyed) socket.write(encodeFrame(xml))
    }

    const handle = async (xml: string) => {
      frames.received++
      let root: XNode | undefined
      try {
        root = parseXml(xml)
      } catch {
        root = undefined
      }
      // Echoed only when it is a trIDStringType (RFC 5730): an answer carrying an invalid one would
      // itself fail the schema. A command with an invalid one is answered 2001 without it.
      const clTRID = validClTRID(textOf(child(root, 'epp:command'), 'epp:clTRID'))
      if (validator) {
        const result = await validator.check(xml, 'received')
        if (!result.valid) {
          problems.push({ direction: 'received', errors: result.errors, xml })
          return send(response({ code: 2001 }, clTRID, result.errors))
        }
      }
      if (!root || root.name !== 'epp:epp') return send(response({ code: 2001 }, clTRID, 'Not an EPP document'))
      if (child(root, 'epp:hello')) return send(greeting())
      const command = child(root, 'epp:command')
      if (!command) return send(response({ code: 2001 }, clTRID, 'Expected <hello> or <command>'))
      let answer: Answer
      let reason: string | undefined
      try {
        answer = execute(command)
      } catch (error) {
        if (!(error instanceof EppFault)) {
          options.logger?.error('local registry command failed', { error })
          answer = { code: 2400 }
        } else {
          answer = { code: error.code }
          reason = error.reason
        }
      }
      if (options.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs))
      await send(response(answer, clTRID, reason))
      if (answer.code === 1500 || (answer.code >= 2500 && answer.code <= 2502)) {
        closing = true
        socket.end()
      }
    }

    const execute = (command: XNode): Answer => {
      const op = command.children[0]
      if (!op) throw new EppFault(2001)
      if (op.name === 'epp:login') return login(op)
      if (!session.clientId) throw new EppFault(2002, 'Log in first')
      const clID = session.clientId
      if (op.name === 'epp:logout') {
        session.clientId = undefined
        return { code: 1500 }
      }
      const changedByTime = registry.settle()
      if (op.name === 'epp:poll') {
        const answer = op.attrs.op === 'ack' ? registry.pollAck(clID, op.attrs.msgID) : registry.pollRequest(clID)
        if (changedByTime || op.attrs.op === 'ack') registry.save()
        return answer
      }
      const object = op.children[0]
      const ext = child(command, 'epp:extension')
      if (!object) throw new EppFault(2001)
      const kind = `${op.name.slice(4)} ${object.name}`
      const reads: Record<string, () => Answer> = {
        'check domain:check': () => registry.domainCheck(object),
        'info domain:info': () => registry.domainInfo(object, clID),
        'check host:check': () => registry.hostCheck(object),
        'info host:info': () => registry.hostInfo(object),
        'check contact:check': () => registry.contactCheck(object),
        'info contact:info': () => registry.contactInfo(object, clID),
        'info blk:info': () => registry.blockInfo(object, clID),
      }
      const writes: Record<string, () => Answer> = {
        'create domain:create': () => registry.domainCreate(object, clID, ext),
        'renew domain:renew': () => registry.domainRenew(object, clID),
        'transfer domain:transfer': () => registry.domainTransfer(object, op.attrs.op ?? '', clID),
        'update domain:update': () => registry.domainUpdate(object, clID, ext),
        'delete domain:delete': () => registry.domainDelete(object, clID),
        'create host:create': () => registry.hostCreate(object, clID),
        'update host:update': () => registry.hostUpdate(object, clID),
        'delete host:delete': () => registry.hostDelete(object, clID),
        'create contact:create': () => registry.contactCreate(object, clID),
        'update contact:update': () => registry.contactUpdate(object, clID),
        'delete contact:delete': () => registry.contactDelete(object, clID),
        'create blk:create': () => registry.blockCreate(object, clID),
        'renew blk:renew': () => registry.blockRenew(object, clID),
        'delete blk:delete': () => registry.blockDelete(object, clID),
      }
      const read = reads[kind]
      if (read) {
        if (changedByTime) registry.save()
        return read()
      }
      const write = writes[kind]
      if (!write) throw new EppFault(2101, `${kind} is not implemented`)
      try {
        return write()
      } finally {
        registry.save()
      }
    }

    const login = (op: XNode): Answer => {
      if (session.clientId) throw new EppFault(2002, 'Already logged in')
      const clID = textOf(op, 'epp:clID') ?? ''
      const configured = passwords.get(clID)
      if (configured === undefined || textOf(op, 'epp:pw') !== registry.passwordFor(clID, configured)) {
        session.failedLogins++
        if (session.failedLogins >= MAX_FAILED_LOGINS) return { code: 2501 }
        throw new EppFault(2200)
      }
      if (textOf(child(op, 'epp:options'), 'epp:version') !== '1.0') throw new EppFault(2100)
      const svcs = child(op, 'epp:svcs')
      for (const uri of svcs?.children.filter((c) => c.name === 'epp:objURI') ?? []) if (!OBJ_URIS.includes(uri.text as never)) throw new EppFault(2307, `${uri.text} is not offered`)
      for (const uri of child(svcs, 'epp:svcExtension')?.children ?? []) if (!EXT_URIS.includes(uri.text as never)) throw new EppFault(2103, `${uri.text} is not offered`)
      const newPW = textOf(op, 'epp:newPW')
      if (newPW) {
        registry.state.passwords[clID] = newPW
        registry.save()
      }
      session.clientId = clID
      return { code: 1000 }
    }

    // A length header the stream cannot be read past (below the header's own 4 bytes, or above the
    // maximum: never buffered) ends the session: the commands before it are answered, then one 2500
    // naming the problem, then the connection closes. What the client still sends is read and
    // dropped, so the answer is not lost to a reset (decision 100).
    let unframed = false
    const refuseFrame = (error: FrameError) => {
      unframed = true
      options.logger?.warn('local registry: unreadable frame, answering 2500 and closing', { error: error.message })
      queue = queue
        .then(async () => {
          if (closing) return
          closing = true
          await send(response({ code: 2500 }, undefined, `${error.message}; closing the connection`))
        })
        .catch(() => undefined)
        .finally(() => {
          socket.end()
          setTimeout(() => socket.destroy(), UNFRAMED_LINGER_MS).unref()
        })
    }

    const enqueue = (xml: string) => {
      // One command at a time per session, answered in order (RFC 5730 §2).
      queue = queue
        .then(() => (closing ? undefined : handle(xml)))
        .catch((error) => {
          options.logger?.warn('local registry: session error', { error: (error as Error).message })
          socket.destroy()
        })
    }

    socket.on('data', (chunk: Buffer) => {
      if (unframed) return
      let received: string[]
      try {
        received = reader.push(chunk)
      } catch (error) {
        if (!(error instanceof FrameError)) throw error
        for (const xml of error.frames) enqueue(xml)
        refuseFrame(error)
        return
      }
      for (const xml of received) enqueue(xml)
    })
    socket.on('error', () => socket.destroy())
    socket.on('close', () => sockets.delete(socket))
    queue = queue.then(() => send(greeting()))
  })
  server.on('tlsClientError', () => undefined)

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  options.logger?.info('local EPP registry listening', { host, port, validation: !!validator })
  let rdap: RdapServer | undefined
  if (options.rdapPort !== false) {
    rdap = await startRdapServer({
      registry,
      registrars: options.registrars ?? {},
      host,
      ...(options.rdapPort ? { port: options.rdapPort } : {}),
      now,
      ...(options.logger ? { logger: options.logger } : {}),
    })
  }

  return {
    port,
    host,
    certificate: cert,
    tlsDir,
    registry,
    validator,
    problems,
    frames,
    rdapUrl: rdap?.url ?? null,
    close: async () => {
      await rdap?.close()
      await new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
    },
  }
}

/**
 * A client transaction id as an answer may carry it: epp:trIDStringType is a token (whitespace
 * collapsed) of 3 to 64 characters; anything else is not echoed.
 */
export function validClTRID(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const token = raw.replace(/[\t\n\r ]+/g, ' ').trim()
  const length = [...token].length
  return length >= 3 && length <= 64 ? token : undefined
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 500 ? `${flat.slice(0, 497)}...` : flat
}

/**
 * A self-signed certificate for localhost/127.0.0.1 made with the openssl CLI (node:crypto cannot
 * sign certificates). Reused from `tlsDir` when already there, so clients can keep trusting it.
 */
function makeCertificate(tlsDir: string | undefined): { key: string; cert: string; dir: string } {
  const dir = tlsDir ?? mkdtempSync(path.join(tmpdir(), 'epp-tls-'))
  mkdirSync(dir, { recursive: true })
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          keyFile,
          '-out',
          certFile,
          '-days',
          '825',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
        ],
        { stdio: 'pipe' },
      )
    } catch (error) {
      throw new Error(`Could not create the local registry's TLS certificate with openssl: ${(error as Error).message}`, { cause: error })
    }
  }
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), dir }
}

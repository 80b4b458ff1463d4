import type { AddressInfo } from 'node:net'
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'

export type CapturedMail = Email & { envelopeTo: string[] }

export type SmtpCapture = {
  /** smtp://127.0.0.1:port for SMTP_URL. */
  url: string
  messages: CapturedMail[]
  /** Resolves with the first message (received or still to come) that matches. */
  waitFor(match: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>
  close(): Promise<void>
}

/** A real SMTP server on a loopback port that keeps every message it receives, parsed. */
export async function startSmtpCapture(port = 0): Promise<SmtpCapture> {
  const messages: CapturedMail[] = []
  const waiters: { match: (m: CapturedMail) => boolean; resolve: (m: CapturedMail) => void }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            const mail = { ...email, envelopeTo: session.envelope.rcptTo.map((r) => r.address) }
            messages.push(mail)
            for (const waiter of [...waiters]) {
              if (waiter.match(mail)) {
                waiters.splice(waiters.indexOf(waiter), 1)
                waiter.resolve(mail)
              }
            }
            callback()
          })
          .catch(callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const actualPort = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match)
      if (found) return Promise.resolve(found)
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (m: CapturedMail) => {
            clearTimeout(timer)
            resolve(m)
          },
        }
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1)
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${messages.length})`))
        }, timeoutMs)
        waiters.push(waiter)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

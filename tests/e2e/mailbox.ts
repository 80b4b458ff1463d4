import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

// The shared e2e server's mail: a real SMTP server (in the launcher, tests/e2e/server.ts) writes
// every message it receives into a folder, one JSON file each; the specs, in other processes,
// read the folder. No Playwright import here: the launcher runs without it.

export type Mail = { to: string[]; subject: string; text: string }

/** Starts the SMTP server on a loopback port; every message lands in `dir`. Returns its SMTP_URL. */
export async function startMailbox(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  let count = 0
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
            const mail: Mail = { to: session.envelope.rcptTo.map((r) => r.address), subject: email.subject ?? '', text: email.text ?? email.html ?? '' }
            // Written whole under a temporary name, then renamed: a reader never sees half a file.
            const name = `${String(++count).padStart(6, '0')}.json`
            writeFileSync(path.join(dir, `.${name}`), JSON.stringify(mail))
            renameSync(path.join(dir, `.${name}`), path.join(dir, name))
            callback()
          })
          .catch(callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.server.address() as AddressInfo
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The first message in `dir` that matches, waiting for it up to `timeoutMs`. */
export async function waitForMail(dir: string, match: (mail: Mail) => boolean, timeoutMs = 15_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    for (const file of readdirSync(dir)
      .filter((f) => !f.startsWith('.'))
      .sort()) {
      const mail = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Mail
      if (match(mail)) return mail
    }
    if (Date.now() > deadline) throw new Error(`no matching mail in ${dir} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

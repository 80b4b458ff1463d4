import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { NS } from './xml.ts'

/**
 * Validates whole EPP frames against the RFC schemas with `xmllint --schema` (Debian libxml2-utils).
 * A process per run keeps libxml2 out of our process (frames waiting meanwhile share the next
 * run, see `validate`); the in-process WebAssembly build (npm xmllint-wasm) was measured at
 * 6 frames/s, far slower than this. The schemas are never
 * copied: a wrapper schema in a temp folder imports them by absolute path from the shared folder.
 */

const SCHEMA_FILES: Record<string, string> = {
  [NS.epp]: 'epp-1.0.xsd',
  [NS.eppcom]: 'eppcom-1.0.xsd',
  [NS.domain]: 'domain-1.0.xsd',
  [NS.host]: 'host-1.0.xsd',
  [NS.contact]: 'contact-1.0.xsd',
  [NS.secDNS]: 'secDNS-1.1.xsd',
  [NS.rgp]: 'rgp-1.0.xsd',
}
/** Mappings of our own (decision 302), kept in this repository beside the code that speaks them. */
const OWN_SCHEMAS: Record<string, string> = {
  [NS.blk]: path.join(import.meta.dirname, 'schemas', 'block-1.0.xsd'),
}

/** `../shared/epp-xsd` beside the repository, where CI and the team keep the RFC schemas. */
export function defaultXsdDir(): string {
  return path.resolve(import.meta.dirname, '../../../../shared/epp-xsd')
}

/** The folder when every schema file is in it, else a plain sentence saying what is missing. */
export function checkXsdDir(dir = defaultXsdDir()): { ok: true; dir: string } | { ok: false; reason: string } {
  const missing = Object.values(SCHEMA_FILES).filter((file) => !existsSync(path.join(dir, file)))
  if (missing.length) return { ok: false, reason: `EPP schemas absent: ${missing.join(', ')} not found in ${dir}` }
  return { ok: true, dir }
}

export type ValidationResult = { valid: true } | { valid: false; errors: string }

export type ValidationStats = {
  /** frames run through the validator, per direction */
  received: number
  sent: number
  invalidReceived: number
  invalidSent: number
}

type Pending = { xml: string; resolve: (result: ValidationResult) => void; reject: (error: Error) => void }

/** At most this many frames per xmllint run (a bound on argv and on what one failure takes down). */
const MAX_BATCH = 64

export class EppSchemaValidator {
  readonly xsdDir: string
  readonly stats: ValidationStats = { received: 0, sent: 0, invalidReceived: 0, invalidSent: 0 }
  /** xmllint runs so far (frames / runs is the batching achieved). */
  runs = 0
  private readonly wrapper: string
  private readonly dir: string
  private queue: Pending[] = []
  private running = false
  private seq = 0

  constructor(xsdDir: string) {
    const check = checkXsdDir(xsdDir)
    if (!check.ok) throw new Error(check.reason)
    this.xsdDir = xsdDir
    const imports = [...Object.entries(SCHEMA_FILES).map(([ns, file]) => [ns, path.join(xsdDir, file)] as const), ...Object.entries(OWN_SCHEMAS)]
      .map(([ns, file]) => `<import namespace="${ns}" schemaLocation="${pathToUri(file)}"/>`)
      .join('')
    this.dir = mkdtempSync(path.join(tmpdir(), 'epp-xsd-'))
    this.wrapper = path.join(this.dir, 'epp-all.xsd')
    writeFileSync(this.wrapper, `<?xml version="1.0" encoding="UTF-8"?><schema xmlns="http://www.w3.org/2001/XMLSchema">${imports}</schema>`)
  }

  /** Validates and counts one frame; `direction` says whether the server received or sent it. */
  async check(xml: string, direction: 'received' | 'sent'): Promise<ValidationResult> {
    const result = await this.validate(xml)
    this.stats[direction]++
    if (!result.valid) this.stats[direction === 'received' ? 'invalidReceived' : 'invalidSent']++
    return result
  }

  /**
   * Every frame is validated on its own, but frames that arrive while xmllint is busy share its
   * next run: starting xmllint and compiling the schemas is nearly all of the cost (~5 ms), each
   * further document ~0.2 ms. A lone frame starts a run at once, so its latency is unchanged.
   */
  validate(xml: string): Promise<ValidationResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ xml, resolve, reject })
      if (!this.running) void this.drain()
    })
  }

  private async drain(): Promise<void> {
    this.running = true
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH)
        try {
          const results = await this.run(batch.map((p) => p.xml))
          batch.forEach((p, i) => p.resolve(results[i]!))
        } catch (error) {
          for (const p of batch) p.reject(error as Error)
        }
      }
    } finally {
      this.running = false
    }
  }

  /** One xmllint run over the frames, each in its own file; answers per frame, in order. */
  private async run(frames: string[]): Promise<ValidationResult[]> {
    this.runs++
    const files = frames.map(() => path.join(this.dir, `frame-${++this.seq}.xml`))
    await Promise.all(frames.map((xml, i) => writeFile(files[i]!, xml)))
    try {
      const { code, stderr } = await new Promise<{ code: unknown; stderr: string; message?: string }>((resolve) => {
        execFile('xmllint', ['--noout', '--nonet', '--schema', this.wrapper, ...files], { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
          resolve({ code: error ? (error as { code?: unknown }).code : 0, stderr: stderr || (error?.message ?? '') })
        })
      })
      // xmllint: 1–4 mean some document is not well-formed or not valid; anything else is our problem.
      if (code !== 0 && code !== 1 && code !== 3 && code !== 4) throw new Error(`xmllint failed to run (${String(code)}): ${stderr}`)
      const segments = splitByFile(stderr, files)
      return files.map((file, i) => {
        const text = segments[i]!
        if (text.includes(`${file} validates`)) return { valid: true }
        if (code === 0) throw new Error(`xmllint said nothing about ${file}: ${stderr}`)
        return { valid: false, errors: text.split(`${file}:`).join('line ').split(`${file} `).join('- ').trim() }
      })
    } finally {
      await Promise.all(files.map((file) => rm(file, { force: true })))
    }
  }
}

/**
 * xmllint reports on the files in order; every report line starts with the file name (context
 * lines under a parser error follow their line), so each line belongs to the last file named.
 */
function splitByFile(stderr: string, files: string[]): string[] {
  const segments = files.map(() => '')
  let current = -1
  for (const line of stderr.split('\n')) {
    const at = files.findIndex((file, i) => i >= current && (line.startsWith(`${file}:`) || line.startsWith(`${file} `)))
    if (at !== -1) current = at
    if (current !== -1) segments[current] += `${line}\n`
  }
  return segments
}

function pathToUri(file: string): string {
  return file.split(path.sep).map(encodeURIComponent).join('/')
}

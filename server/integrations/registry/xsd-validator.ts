import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { NS } from './xml.ts'

/**
 * Validates whole EPP frames against the RFC schemas with `xmllint --schema` (Debian libxml2-utils).
 * One process per frame costs ~5 ms and keeps libxml2 out of our process; the schemas are never
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

export class EppSchemaValidator {
  readonly xsdDir: string
  readonly stats: ValidationStats = { received: 0, sent: 0, invalidReceived: 0, invalidSent: 0 }
  private readonly wrapper: string

  constructor(xsdDir: string) {
    const check = checkXsdDir(xsdDir)
    if (!check.ok) throw new Error(check.reason)
    this.xsdDir = xsdDir
    const imports = Object.entries(SCHEMA_FILES)
      .map(([ns, file]) => `<import namespace="${ns}" schemaLocation="${pathToUri(path.join(xsdDir, file))}"/>`)
      .join('')
    const dir = mkdtempSync(path.join(tmpdir(), 'epp-xsd-'))
    this.wrapper = path.join(dir, 'epp-all.xsd')
    writeFileSync(this.wrapper, `<?xml version="1.0" encoding="UTF-8"?><schema xmlns="http://www.w3.org/2001/XMLSchema">${imports}</schema>`)
  }

  /** Validates and counts one frame; `direction` says whether the server received or sent it. */
  async check(xml: string, direction: 'received' | 'sent'): Promise<ValidationResult> {
    const result = await this.validate(xml)
    this.stats[direction]++
    if (!result.valid) this.stats[direction === 'received' ? 'invalidReceived' : 'invalidSent']++
    return result
  }

  validate(xml: string): Promise<ValidationResult> {
    return new Promise((resolve, reject) => {
      const child = execFile('xmllint', ['--noout', '--nonet', '--schema', this.wrapper, '-'], { maxBuffer: 4 * 1024 * 1024 }, (error, _stdout, stderr) => {
        if (!error) return resolve({ valid: true })
        const code = (error as { code?: unknown }).code
        // xmllint: 1–4 mean the document is not well-formed or not valid; anything else is our problem.
        if (code === 1 || code === 3 || code === 4) return resolve({ valid: false, errors: stderr.replace(/^-:/gm, 'line ').trim() })
        reject(new Error(`xmllint failed to run (${String(code)}): ${stderr || error.message}`))
      })
      // xmllint may exit before reading all of stdin; the exit is reported through the callback above,
      // and an unhandled EPIPE on stdin would otherwise bring the whole process down.
      child.stdin?.on('error', () => {})
      child.stdin?.end(xml)
    })
  }
}

function pathToUri(file: string): string {
  return file.split(path.sep).map(encodeURIComponent).join('/')
}

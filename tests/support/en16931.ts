import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { XMLParser } from 'fast-xml-parser'

const XSLT = path.join(import.meta.dirname, 'en16931', 'EN16931-UBL-validation.xslt')
const SAXON = '/usr/share/java/Saxon-HE.jar'

/**
 * The EN 16931 rules (CEN's validation artefact, see en16931/README.md) each UBL document breaks,
 * as "BR-xx: text" for every fatal failed assertion; warnings are left out. The documents are
 * validated in one run of Saxon-HE (one JVM, the stylesheet compiled once).
 */
export function en16931Failures(documents: Record<string, string>): Record<string, string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'en16931-'))
  try {
    mkdirSync(path.join(dir, 'in'))
    mkdirSync(path.join(dir, 'out'))
    for (const [name, xml] of Object.entries(documents)) writeFileSync(path.join(dir, 'in', `${name}.xml`), xml)
    execFileSync('java', ['-jar', SAXON, `-s:${path.join(dir, 'in')}`, `-o:${path.join(dir, 'out')}`, `-xsl:${XSLT}`], { stdio: ['ignore', 'ignore', 'pipe'] })
    const parser = new XMLParser({ ignoreAttributes: false, removeNSPrefix: true, isArray: (name) => name === 'failed-assert' })
    return Object.fromEntries(
      Object.keys(documents).map((name) => {
        const report = parser.parse(readFileSync(path.join(dir, 'out', `${name}.xml`), 'utf8'))['schematron-output']
        const failed = (report['failed-assert'] ?? []) as { '@_id': string; '@_flag': string; text: string }[]
        return [name, failed.filter((f) => f['@_flag'] === 'fatal').map((f) => `${f['@_id']}: ${String(f.text).trim()}`)]
      }),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

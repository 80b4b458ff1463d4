import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkXsdDir, EppSchemaValidator } from './xsd-validator.ts'

const xsd = checkXsdDir()
if (!xsd.ok) throw new Error(`${xsd.reason} — the validator tests need the RFC schemas in ../shared/epp-xsd beside the project.`)

const info = (name: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command><info><domain:info xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>${name}</domain:name></domain:info></info><clTRID>T-${name}</clTRID></command></epp>`
const invalid = info('bogus.test').replace('</clTRID>', '</clTRID><bogus/>')
const broken = '<epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><command>'

describe('EppSchemaValidator', () => {
  it('answers each frame on its own when frames share an xmllint run, in any mix of valid, invalid and broken', async () => {
    const validator = new EppSchemaValidator(xsd.ok ? xsd.dir : '')
    const frames = Array.from({ length: 30 }, (_, i) => (i % 7 === 3 ? invalid : i % 11 === 5 ? broken : i % 13 === 12 ? '' : info(`n${i}.test`)))
    const results = await Promise.all(frames.map((xml, i) => validator.check(xml, i % 2 ? 'sent' : 'received')))
    results.forEach((result, i) => {
      const xml = frames[i]!
      if (xml === invalid) expect(result).toEqual({ valid: false, errors: expect.stringMatching(/^line 1: element bogus: Schemas validity error .*bogus.*not expected\.\n- fails to validate$/s) })
      else if (xml === broken) expect(result).toEqual({ valid: false, errors: expect.stringMatching(/^line 1: parser error/) })
      else if (xml === '') expect(result).toEqual({ valid: false, errors: expect.stringMatching(/Document is empty/) })
      else expect(result).toEqual({ valid: true })
    })
    const bad = results.filter((r) => !r.valid).length
    expect(bad).toBe(frames.filter((f) => f === invalid || f === broken || f === '').length)
    expect(validator.stats.received + validator.stats.sent).toBe(30)
    expect(validator.stats.invalidReceived + validator.stats.invalidSent).toBe(bad)
    // Thirty frames at once went through far fewer xmllint runs than frames.
    expect(validator.runs).toBeLessThan(5)
  })

  it('starts a run at once for a lone frame and keeps no temp file behind', async () => {
    const validator = new EppSchemaValidator(xsd.ok ? xsd.dir : '')
    expect(await validator.validate(info('alone.test'))).toEqual({ valid: true })
    expect(await validator.validate(invalid)).toMatchObject({ valid: false })
    expect(validator.runs).toBe(2)
    expect(readdirSync(path.dirname((validator as unknown as { wrapper: string }).wrapper))).toEqual(['epp-all.xsd'])
  })
})

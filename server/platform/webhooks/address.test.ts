import { describe, expect, it } from 'vitest'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { resolvedProblem, urlProblem } from './address.ts'
import { retryDelaySeconds } from './delivery.ts'

describe('webhook endpoint addresses (no server-side request forgery)', () => {
  it('takes HTTPS to public hosts only, unless private addresses are allowed for development', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeNull()
    expect(urlProblem('http://hooks.example.com/x', false)).toBe('https_required')
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.9',
      '169.254.169.254',
      '[::1]',
      '[fd00::1]',
      'localhost',
      'api.localhost',
      '[::ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[2002:7f00:1::1]',
      '[::a00:1]',
      '[fec0::1]',
      '[100::1]',
      '127.1',
      '0x7f.1',
    ]) {
      expect(urlProblem(`https://${host}/x`, false), host).toBe('private_address')
    }
    expect(urlProblem('https://user:pw@hooks.example.com/', false)).toBe('invalid')
    expect(urlProblem('http://127.0.0.1:8080/x', true)).toBeNull()
    expect(urlProblem('https://[2001:4860:4860::8888]/x', false)).toBeNull()
  })

  it('refuses a name that resolves to a private address; takes one that does not resolve (checked again at delivery)', async () => {
    expect(await resolvedProblem('https://localhost/x', false, createOutbound({ resolver: null }))).toBe('private_address')
    expect(await resolvedProblem('https://hooks.example.com/x', false, createOutbound({ resolver: null }))).toBeNull()
    expect(await resolvedProblem('https://localhost/x', true, createOutbound({ resolver: null }))).toBeNull()
  })

  it('retries on the schedule with jitter, honouring a longer Retry-After, and gives up after the last', () => {
    expect(retryDelaySeconds(1, null, undefined, () => 0.5)).toBe(5)
    expect(retryDelaySeconds(2, null, undefined, () => 0)).toBe(240)
    expect(retryDelaySeconds(1, 60, undefined, () => 1)).toBe(60)
    expect(retryDelaySeconds(8, null)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { isPrivateAddress, safeLookup, urlProblem } from './address.ts'
import { retryDelaySeconds } from './delivery.ts'

describe('webhook endpoint addresses (no server-side request forgery)', () => {
  it('takes HTTPS to public hosts only, unless private addresses are allowed for development', () => {
    expect(urlProblem('https://hooks.example.com/x', false)).toBeNull()
    expect(urlProblem('http://hooks.example.com/x', false)).toBe('https_required')
    for (const host of ['127.0.0.1', '10.1.2.3', '192.168.0.9', '169.254.169.254', '[::1]', '[fd00::1]', 'localhost', 'api.localhost']) {
      expect(urlProblem(`https://${host}/x`, false)).toBe('private_address')
    }
    expect(urlProblem('https://user:pw@hooks.example.com/', false)).toBe('invalid')
    expect(urlProblem('http://127.0.0.1:8080/x', true)).toBeNull()
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true)
    expect(isPrivateAddress('93.184.216.34')).toBe(false)
  })

  it('refuses a name that resolves to a private address at connect time', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => safeLookup(false)('localhost', {}, (e) => resolve(e)))
    expect(error?.code).toBe('EPRIVATE')
  })

  it('retries on the schedule with jitter, honouring a longer Retry-After, and gives up after the last', () => {
    expect(retryDelaySeconds(1, null, undefined, () => 0.5)).toBe(5)
    expect(retryDelaySeconds(2, null, undefined, () => 0)).toBe(240)
    expect(retryDelaySeconds(1, 60, undefined, () => 1)).toBe(60)
    expect(retryDelaySeconds(8, null)).toBeNull()
  })
})

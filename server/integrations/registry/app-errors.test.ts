import { describe, expect, it } from 'vitest'
import { AppError, toProblem } from '#server/platform/core/errors.ts'
import { registryErrorToAppError } from './app-errors.ts'
import { REGISTRY_THROTTLE_MESSAGE, RegistryConnectionError, RegistryError, RegistryThrottled } from './errors.ts'

describe('registryErrorToAppError', () => {
  it('answers 429 with the throttle text and Retry-After for a throttled registry call', () => {
    const problem = toProblem(registryErrorToAppError(new RegistryThrottled('local', 1.2)))
    expect(problem.status).toBe(429)
    expect(problem.body).toMatchObject({ detail: REGISTRY_THROTTLE_MESSAGE, retry_after: 2, registry: 'local' })
    expect(problem.headers['Retry-After']).toBe('2')
  })

  it("keeps the registry's message and code, with a status by kind", () => {
    const refused = registryErrorToAppError(new RegistryError(2004, 'Parameter value range error', { reason: 'Period of 3 year(s) is not allowed' })) as AppError
    expect([refused.status, refused.message, refused.extra]).toEqual([422, 'Parameter value range error: Period of 3 year(s) is not allowed', { registry_code: 2004 }])
    expect((registryErrorToAppError(new RegistryError(2302, 'Object exists')) as AppError).status).toBe(409)
    expect((registryErrorToAppError(new RegistryError(2303, 'Object does not exist')) as AppError).status).toBe(404)
    expect((registryErrorToAppError(new RegistryError(2400, 'Command failed')) as AppError).status).toBe(502)
    expect((registryErrorToAppError(new RegistryConnectionError('closed')) as AppError).status).toBe(503)
    const other = new Error('x')
    expect(registryErrorToAppError(other)).toBe(other)
  })
})

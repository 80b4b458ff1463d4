import { AppError, tooManyRequests } from '#server/platform/core/errors.ts'
import { REGISTRY_THROTTLE_MESSAGE, RegistryConnectionError, RegistryError, RegistryThrottled } from './errors.ts'

/**
 * How registry failures reach the Platform API: throttled → 429 with the throttle text (spec §8),
 * unreachable → 503, refused → a 4xx carrying the registry's own message and code so the item can
 * show it and be retried. Anything else is returned unchanged.
 */
export function registryErrorToAppError(error: unknown): unknown {
  if (error instanceof RegistryThrottled) {
    const appError = tooManyRequests(error.retryAfterSeconds, REGISTRY_THROTTLE_MESSAGE)
    Object.assign(appError.extra ?? {}, { registry: error.registry })
    return appError
  }
  if (error instanceof RegistryConnectionError) {
    return new AppError(503, 'registry-unavailable', 'The registry could not be reached; try again later', { cause: error })
  }
  if (error instanceof RegistryError) {
    const status = error.code === 2303 ? 404 : [2300, 2301, 2302, 2304, 2305].includes(error.code) ? 409 : error.code === 2200 || error.code >= 2400 ? 502 : 422
    const message = error.reason ? `${error.registryMessage}: ${error.reason}` : error.registryMessage
    return new AppError(status, 'registry-error', message, { extra: { registry_code: error.code }, cause: error })
  }
  return error
}

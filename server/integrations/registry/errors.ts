/** EPP result codes (RFC 5730 §3) with their standard messages. */
export const RESULT_MESSAGES: Record<number, string> = {
  1000: 'Command completed successfully',
  1001: 'Command completed successfully; action pending',
  1300: 'Command completed successfully; no messages',
  1301: 'Command completed successfully; ack to dequeue',
  1500: 'Command completed successfully; ending session',
  2000: 'Unknown command',
  2001: 'Command syntax error',
  2002: 'Command use error',
  2003: 'Required parameter missing',
  2004: 'Parameter value range error',
  2005: 'Parameter value syntax error',
  2100: 'Unimplemented protocol version',
  2101: 'Unimplemented command',
  2102: 'Unimplemented option',
  2103: 'Unimplemented extension',
  2104: 'Billing failure',
  2105: 'Object is not eligible for renewal',
  2106: 'Object is not eligible for transfer',
  2200: 'Authentication error',
  2201: 'Authorization error',
  2202: 'Invalid authorization information',
  2300: 'Object pending transfer',
  2301: 'Object not pending transfer',
  2302: 'Object exists',
  2303: 'Object does not exist',
  2304: 'Object status prohibits operation',
  2305: 'Object association prohibits operation',
  2306: 'Parameter value policy error',
  2307: 'Unimplemented object service',
  2308: 'Data management policy violation',
  2400: 'Command failed',
  2500: 'Command failed; server closing connection',
  2501: 'Authentication error; server closing connection',
  2502: 'Session limit exceeded; server closing connection',
}

/** Shown to people when the registry rate limit refuses an operation (spec §8, 429 for registrar actions). */
export const REGISTRY_THROTTLE_MESSAGE = 'Too many requests to the registry. Please wait a moment and try again.'

/** A 2xxx answer from the registry: the command was understood and refused (or failed there). */
export class RegistryError extends Error {
  readonly code: number
  /** The registry's own text, shown to the user as "the registry's message". */
  readonly registryMessage: string
  readonly reason: string | undefined
  readonly clTRID: string | undefined
  readonly svTRID: string | undefined

  constructor(code: number, registryMessage: string, options: { reason?: string; clTRID?: string; svTRID?: string } = {}) {
    super(options.reason ? `${registryMessage} (${code}): ${options.reason}` : `${registryMessage} (${code})`)
    this.name = 'RegistryError'
    this.code = code
    this.registryMessage = registryMessage
    this.reason = options.reason
    this.clTRID = options.clTRID
    this.svTRID = options.svTRID
  }

  /** 2500–2502: the server closes the session after answering. */
  get closesSession(): boolean {
    return this.code >= 2500 && this.code <= 2502
  }
}

/**
 * The registry could not be reached or the session broke (TLS error, timeout, closed socket,
 * unreadable frame). Safe to retry on a new session; the command may or may not have run.
 */
export class RegistryConnectionError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options)
    this.name = 'RegistryConnectionError'
  }
}

/** Our per-registry token bucket refused the call before it went out: the API answers 429. */
export class RegistryThrottled extends Error {
  readonly registry: string
  readonly retryAfterSeconds: number
  constructor(registry: string, retryAfterSeconds: number) {
    super(REGISTRY_THROTTLE_MESSAGE)
    this.name = 'RegistryThrottled'
    this.registry = registry
    this.retryAfterSeconds = retryAfterSeconds
  }
}

import { HTTPException } from 'hono/http-exception'
import { ZodError } from 'zod'

export type FieldError = { field: string; message: string; allowed?: string[] }

/**
 * The one error type of the Platform API. Services throw it; the HTTP layer turns it into
 * RFC 9457 problem details with its status. Anything else becomes a 500 without internals.
 */
export class AppError extends Error {
  readonly status: number
  readonly code: string
  readonly errors: FieldError[] | undefined
  readonly extra: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined

  constructor(status: number, code: string, message: string, options: { errors?: FieldError[]; extra?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = 'AppError'
    this.status = status
    this.code = code
    this.errors = options.errors
    this.extra = options.extra
    this.headers = options.headers
  }
}

export const badRequest = (message: string, errors?: FieldError[], extra?: Record<string, unknown>) => new AppError(400, 'invalid-request', message, { errors, extra })
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message)
export const forbidden = (message = 'You do not have permission to do this') => new AppError(403, 'forbidden', message)
export const notFound = (message = 'Not found') => new AppError(404, 'not-found', message)
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, 'conflict', message, { extra })
/**
 * 409 when a row changed since the client read it (decision 006): the one stale-version refusal,
 * code `version.conflict`, with the row's `current_version` so a client can tell what it missed.
 */
export const staleVersion = (current: number, label = 'record') =>
  new AppError(409, 'version.conflict', `Someone else changed this ${label}; reload it and try again`, {
    errors: [{ field: 'version', code: 'version.conflict', message: `The ${label} has changed since you loaded it` } as FieldError],
    extra: { current_version: current },
  })
/** A field error with a stable code (e.g. `phone.invalid`) the portal localises, beside its English message. */
export type CodedFieldError = FieldError & { code: string }

export const fieldError = (field: string, code: string, message: string, allowed?: string[]): CodedFieldError => (allowed ? { field, code, message, allowed } : { field, code, message })

/** 400 with per-field errors; the problem's own code names the first rule broken. */
export const invalid = (code: string, message: string, errors: CodedFieldError[]) => new AppError(400, code, message, { errors })

/** 409 for a rule on stored state (in use, last admin, duplicate), with a stable code. */
export const refused = (code: string, message: string, errors?: CodedFieldError[], extra?: Record<string, unknown>) =>
  new AppError(409, code, message, { ...(errors ? { errors } : {}), ...(extra ? { extra } : {}) })

export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many requests') =>
  new AppError(429, 'too-many-requests', message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    extra: { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) },
  })

/** Throws a 404 AppError unless the value is present. */
export function invariantFound<T>(value: T | null | undefined, message = 'Not found'): T {
  if (value === null || value === undefined) throw notFound(message)
  return value
}

export function fieldErrorsFromZod(error: ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const allowed = 'values' in issue && Array.isArray(issue.values) ? issue.values.map(String) : 'keys' in issue && Array.isArray(issue.keys) ? undefined : undefined
    const field = issue.path.length ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? (issue.keys as string[]).join(',') : '(body)'
    return allowed ? { field, message: issue.message, allowed } : { field, message: issue.message }
  })
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

export type ProblemBody = {
  type: string
  title: string
  status: number
  detail: string
  code: string
  errors?: FieldError[]
  request_id?: string
  [key: string]: unknown
}

/** RFC 9457 problem details for an error; internals of unexpected errors never leave. */
export function toProblem(error: unknown, requestId?: string): { body: ProblemBody; status: number; headers: Record<string, string> } {
  const appError = asAppError(error)
  const body: ProblemBody = {
    type: `https://registrar.example/problems/${appError.code}`,
    title: TITLES[appError.status] ?? 'Error',
    status: appError.status,
    detail: appError.message,
    code: appError.code,
    ...(appError.errors ? { errors: appError.errors } : {}),
    ...appError.extra,
    ...(requestId ? { request_id: requestId } : {}),
  }
  return { body, status: appError.status, headers: { 'content-type': 'application/problem+json', ...appError.headers } }
}

/** Maps anything thrown to an AppError: ours as they are, known framework and database errors by kind. */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof ZodError) return badRequest('The request is not valid', fieldErrorsFromZod(error))
  if (error instanceof HTTPException) {
    const message = error.status === 400 && /json/i.test(error.message) ? 'The request body is not valid JSON' : error.message || 'Request refused'
    return new AppError(error.status, error.status === 400 ? 'invalid-request' : 'http-error', message)
  }
  const code = (error as { code?: unknown } | null)?.code
  if (code === '23505') return conflict('This change conflicts with an existing record')
  if (code === '40001' || code === '40P01') return conflict('A concurrent change got in the way; try again')
  // Input the database cannot take that got past validation: the caller's to fix, never a 500.
  if (code === '22001' || code === '54000') return badRequest('A value is too long to be stored')
  if (code === '22021' || code === '22P05') return badRequest('A value holds a character that cannot be stored')
  if (code === '22P02' || code === '22007' || code === '22008' || code === '22003') return badRequest('A value is not valid for its field')
  return new AppError(500, 'internal', 'An unexpected error occurred')
}

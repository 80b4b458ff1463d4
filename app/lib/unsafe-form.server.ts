import { data, type MiddlewareFunction } from 'react-router'
import { requestUrl } from './request-url.ts'
import { isUnsafeText } from '#common/unsafe-text.ts'
import type { UnsafeTextRefusal } from './unsafe-text.ts'

const MAX_FIELDS = 20
const FORM = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i
const JSON_BODY = /^\s*application\/(.+\+)?json\s*(;|$)/i

/** A field name fit to show: unsafe characters in it replaced. */
const printable = (name: string) => name.replace(/[\0\uD800-\uDFFF]/g, '\uFFFD') || '(body)'

/**
 * The fields of a request's body (a form post, multipart included, or a JSON submission) holding
 * unsafe text in a name, a value or an uploaded file's name. A file's content is the receiving
 * screen's to judge. A body that cannot be parsed is the action's to refuse, as before.
 */
export async function unsafeFormFields(request: Request): Promise<string[]> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return []
  const type = request.headers.get('content-type') ?? ''
  const found = new Set<string>()
  if (FORM.test(type)) {
    let form: FormData
    try {
      form = await request.clone().formData()
    } catch {
      return []
    }
    for (const [name, value] of form) {
      if (found.size >= MAX_FIELDS) break
      if (isUnsafeText(name) || (typeof value === 'string' ? isUnsafeText(value) : isUnsafeText(value.name))) found.add(printable(name))
    }
  } else if (JSON_BODY.test(type)) {
    let body: unknown
    try {
      body = await request.clone().json()
    } catch {
      return []
    }
    walk(body, '', found, 0)
  }
  return [...found]
}

function walk(value: unknown, path: string, found: Set<string>, depth: number): void {
  if (found.size >= MAX_FIELDS || depth > 64) return
  if (typeof value === 'string') {
    if (isUnsafeText(value)) found.add(printable(path))
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, path ? `${path}.${index}` : String(index), found, depth + 1))
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key
      if (isUnsafeText(key)) found.add(printable(at))
      else walk(item, at, found, depth + 1)
    }
  }
}

/**
 * The query parameters of a request's address holding unsafe text. Only NUL can arrive there: a
 * lone surrogate has no UTF-8 form, and its nearest bytes (%ED%A0%80) decode to U+FFFD.
 */
export function unsafeQueryFields(request: Request): string[] {
  if (!request.url.includes('%00')) return []
  const found = new Set<string>()
  for (const [name, value] of requestUrl(request).searchParams) {
    if (found.size >= MAX_FIELDS) break
    if (isUnsafeText(name) || isUnsafeText(value)) found.add(printable(name))
  }
  return [...found]
}

/**
 * Every request to the portal goes through here before its loaders and action (root middleware):
 * a query parameter or a posted field holding a NUL character or a lone surrogate is refused with
 * 400, whichever screen it was meant for. The error screen names the fields in the user's language
 * (`error.unsafeText`), never a 500.
 */
export const unsafeFormMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const fields = [...new Set([...unsafeQueryFields(request), ...(await unsafeFormFields(request))])]
  if (fields.length) throw data({ code: 'unsafe_text', fields } satisfies UnsafeTextRefusal, { status: 400 })
  return next()
}

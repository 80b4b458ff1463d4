import { isUnsafeText } from '#common/unsafe-text.ts'
import { badRequest, type FieldError } from './errors.ts'

const MESSAGE = 'must not contain a NUL character or an unpaired UTF-16 surrogate'

/** The fields of a parsed JSON value holding unsafe text (keys included), as dotted paths. */
export function unsafeFields(value: unknown, path = '', found: FieldError[] = [], depth = 0): FieldError[] {
  if (found.length >= 20 || depth > 64) return found
  if (typeof value === 'string') {
    if (isUnsafeText(value)) found.push({ field: path || '(body)', message: MESSAGE })
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unsafeFields(item, path ? `${path}.${index}` : String(index), found, depth + 1))
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key
      if (isUnsafeText(key)) found.push({ field: at.replace(/[\0\uD800-\uDFFF]/g, '\uFFFD'), message: MESSAGE })
      else unsafeFields(item, at, found, depth + 1)
    }
  }
  return found
}

/** The query parameters and path segments of a URL holding unsafe text (or not decodable). */
export function unsafeUrlFields(url: URL): FieldError[] {
  const found: FieldError[] = []
  for (const segment of url.pathname.split('/')) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      found.push({ field: '(path)', message: 'is not valid percent-encoded UTF-8' })
      continue
    }
    if (isUnsafeText(decoded)) found.push({ field: '(path)', message: MESSAGE })
  }
  for (const [key, value] of url.searchParams) {
    if (isUnsafeText(key)) found.push({ field: '(query)', message: MESSAGE })
    else if (isUnsafeText(value)) found.push({ field: key, message: MESSAGE })
  }
  return found
}

/** Throws the 400 problem for a request carrying unsafe text anywhere in its URL or JSON body. */
export function refuseUnsafeText(url: URL, body: unknown): void {
  const errors = [...unsafeUrlFields(url), ...unsafeFields(body)]
  if (errors.length) throw badRequest('The request holds text that cannot be stored', errors)
}

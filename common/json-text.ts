/**
 * JSON text parse failures as the kinds of spec §5 (without ajv, so that an editor can say them
 * as the user types without loading the validator).
 */
export type JsonParseErrorKind = 'jsonUnexpectedToken' | 'jsonNonWhitespace' | 'jsonUnexpectedEnd' | 'jsonInvalidCharacter' | 'jsonParseError'

/** Classifies a JSON.parse failure into the parse-error kinds of spec §5, with the position when known. */
export function classifyJsonError(text: string, error: unknown): { kind: JsonParseErrorKind; position?: number; token?: string } {
  const message = error instanceof Error ? error.message : String(error)
  const at = /at position (\d+)/.exec(message)
  const position = at ? Number(at[1]) : undefined
  if (/Unexpected end of JSON input/i.test(message) || (position !== undefined && position >= text.trimEnd().length)) return { kind: 'jsonUnexpectedEnd' }
  if (/non-whitespace character after JSON/i.test(message)) return { kind: 'jsonNonWhitespace', ...(position !== undefined ? { position } : {}) }
  if (/Bad control character|Bad escaped character|Bad Unicode escape|invalid character/i.test(message)) return { kind: 'jsonInvalidCharacter', ...(position !== undefined ? { position } : {}) }
  const token = /Unexpected token '?(.)'?/.exec(message)
  if (token) {
    const found = position ?? text.indexOf(token[1]!)
    return { kind: 'jsonUnexpectedToken', token: token[1]!, ...(found >= 0 ? { position: found } : {}) }
  }
  return { kind: 'jsonParseError', ...(position !== undefined ? { position } : {}) }
}

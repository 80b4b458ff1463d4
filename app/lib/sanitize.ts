const UNSAFE = /[<>]|script|<?img\b|onerror/i

/** Spec §5 text sanitising: a string with angle brackets, script, img or onerror is dropped (null). */
export function sanitizeText(value: unknown): string | null {
  if (typeof value !== 'string') return null
  return UNSAFE.test(value) ? null : value
}

/** Applies sanitizeText to every string of an object, dropping unsafe ones. */
export function sanitizeRecord<T extends Record<string, unknown>>(record: T): Partial<T> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(record)) {
    if (typeof v !== 'string') out[k] = v
    else if (sanitizeText(v) !== null) out[k] = v
  }
  return out as Partial<T>
}

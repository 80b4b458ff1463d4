// Browser-safe: the error screen reads the refusal; the check runs in unsafe-form.server.ts.

/** What a refused post carries to the error screen: the names of the fields holding such text. */
export type UnsafeTextRefusal = { code: 'unsafe_text'; fields: string[] }

export function isUnsafeTextRefusal(value: unknown): value is UnsafeTextRefusal {
  return !!value && typeof value === 'object' && (value as { code?: unknown }).code === 'unsafe_text' && Array.isArray((value as { fields?: unknown }).fields)
}

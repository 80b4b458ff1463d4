/**
 * Text no field may hold: NUL (PostgreSQL's text cannot store it) and lone UTF-16 surrogates (no
 * Unicode character, no UTF-8 form). The Platform API refuses it at its edge
 * (server/platform/core/unsafe-text.ts) and the portal before any action runs
 * (app/lib/unsafe-form.server.ts): one rule, both sides.
 */
export function isUnsafeText(value: string): boolean {
  return value.includes('\0') || !value.isWellFormed()
}

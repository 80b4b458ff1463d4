/** One CSV cell: quoted when needed; a leading formula character is defused for spreadsheets. */
export function csvCell(value: unknown): string {
  let text = readable(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * A value as a person reads it in a spreadsheet: yes/no for a flag, a list (tags, name servers)
 * joined with "; ", other objects as JSON (issue 16).
 */
function readable(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map((v) => String(v ?? '')).join('; ')
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

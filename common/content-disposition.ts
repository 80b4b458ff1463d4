/**
 * A Content-Disposition `attachment` for a file name in any script (RFC 6266): an ASCII `filename`
 * for old clients (every other character, quote and backslash as `_`) and, when the name is not
 * plain ASCII, `filename*=UTF-8''…` (RFC 8187) with the name itself. A header value must be
 * ASCII: `登記簿謄本.pdf` sent as it is made the download a 500 (issue 26).
 */
export function attachmentDisposition(filename: string): string {
  const name =
    [...filename]
      .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
      .join('')
      .trim() || 'download'
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  if (fallback === name) return `attachment; filename="${name}"`
  // RFC 8187 attr-char: ALPHA / DIGIT / "!#$&+-.^_`|~"; everything else is percent-encoded.
  const encoded = [...new TextEncoder().encode(name)]
    .map((b) => (/[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b)) && b < 0x80 ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}

import { readFileSync } from 'node:fs'

// Loaded once, on first use: 3,000 short lines.
let list: Set<string> | undefined

function load(): Set<string> {
  const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
  return new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.toLowerCase()),
  )
}

/** True when the password, ignoring case and surrounding spaces, is among the 3,000 most common. */
export function isCommonPassword(password: string): boolean {
  list ??= load()
  return list.has(password.normalize('NFKC').trim().toLowerCase())
}

/** How many passwords the bundled list holds (for tests and diagnostics). */
export function commonPasswordCount(): number {
  list ??= load()
  return list.size
}

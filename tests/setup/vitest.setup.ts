import { afterEach, vi } from 'vitest'

// A console.error during a test is a bug we want to see, not noise to scroll past.
const original = console.error
afterEach(() => {
  vi.restoreAllMocks()
})
console.error = (...args: unknown[]) => {
  original(...args)
  throw new Error(`console.error called: ${args.map(String).join(' ')}`)
}

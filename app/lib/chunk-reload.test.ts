import { describe, expect, it } from 'vitest'
import { isChunkLoadError, shouldReload } from './chunk-reload.ts'

describe('chunk reload guard', () => {
  it('reloads at most once per 10 seconds', () => {
    expect(shouldReload(null, 1_000)).toBe(true)
    expect(shouldReload(1_000, 10_999)).toBe(false)
    expect(shouldReload(1_000, 11_000)).toBe(true)
  })

  it('recognises chunk load failures only', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isChunkLoadError(new Error('boom'))).toBe(false)
  })
})

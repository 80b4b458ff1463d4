import { describe, expect, it } from 'vitest'
import { activeContext, carryContext, isContextId, isUuid } from './context-param.ts'

const ID = '0b4f3c7e-6a5d-4c1b-9f2e-8d7a6b5c4d3e'
const OWN = '11111111-2222-4333-8444-555555555555'

describe('context parameter', () => {
  it('is honoured only at exactly 36 characters', () => {
    expect(isContextId(ID)).toBe(true)
    expect(isContextId(ID.slice(1))).toBe(false)
    expect(isContextId(`${ID}x`)).toBe(false)
    expect(isContextId(null)).toBe(false)
    expect(activeContext(new URL(`http://x/?context=${ID}`), OWN)).toBe(ID)
    expect(activeContext(new URL('http://x/?context=short'), OWN)).toBe(OWN)
    expect(activeContext(new URL('http://x/'), OWN)).toBe(OWN)
  })

  it('is carried to a next route that lacks it, except logout', () => {
    const current = new URLSearchParams({ context: ID })
    expect(carryContext('/domains?page=2#top', current)).toBe(`/domains?page=2&context=${ID}#top`)
    expect(carryContext(`/domains?context=${OWN}`, current)).toBe(`/domains?context=${OWN}`)
    expect(carryContext('/logout', current)).toBe('/logout')
    expect(carryContext('https://elsewhere.example/', current)).toBe('https://elsewhere.example/')
    expect(carryContext('/domains', new URLSearchParams({ context: 'bad' }))).toBe('/domains')
  })

  it('recognises UUIDs for route parameters', () => {
    expect(isUuid(ID)).toBe(true)
    expect(isUuid('not-a-uuid')).toBe(false)
    // What the API's uuid refuses (no RFC 9562 version or variant) is not an id here either (issue 26).
    expect(isUuid('12345678-1234-1234-1234-123456789abc')).toBe(false)
    expect(isUuid('00000000-0000-4000-8000-000000000001')).toBe(true)
  })
})

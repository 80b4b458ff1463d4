import { describe, expect, it } from 'vitest'
import { requestUrl } from './request-url.ts'

describe('request url', () => {
  it('gives the page address of a data request', () => {
    expect(requestUrl('http://x/accounts/log.data?pql=a&_routes=r').toString()).toBe('http://x/accounts/log?pql=a')
    expect(requestUrl('http://x/_root.data?context=c').pathname).toBe('/')
    expect(requestUrl('http://x/domains?page=2').toString()).toBe('http://x/domains?page=2')
  })
})

import { describe, expect, it } from 'vitest'
import { clientAddress, parseTrustProxy } from './client-address.ts'

describe('client address behind TRUST_PROXY', () => {
  it('trusts nothing by default: the socket is the client, X-Forwarded-For is ignored', () => {
    const none = parseTrustProxy(undefined)
    expect(clientAddress('203.0.113.9', '198.51.100.1', none)).toBe('203.0.113.9')
    expect(clientAddress('::ffff:203.0.113.9', undefined, none)).toBe('203.0.113.9')
    expect(clientAddress(undefined, '198.51.100.1', parseTrustProxy('false'))).toBe('unknown')
  })

  it('walks the chain back through trusted proxies only', () => {
    const loopback = parseTrustProxy('loopback, 10.0.0.0/8')
    expect(clientAddress('127.0.0.1', '198.51.100.1', loopback)).toBe('198.51.100.1')
    // The client wrote a first hop itself; the proxies appended the real one.
    expect(clientAddress('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3', loopback)).toBe('198.51.100.1')
    expect(clientAddress('203.0.113.9', '198.51.100.1', loopback)).toBe('203.0.113.9')
    expect(clientAddress('::1', 'not-an-ip', loopback)).toBe('::1')
  })

  it('takes a hop count as Express does', () => {
    const one = parseTrustProxy('1')
    expect(clientAddress('10.0.0.5', '6.6.6.6, 198.51.100.1', one)).toBe('198.51.100.1')
    expect(clientAddress('10.0.0.5', undefined, one)).toBe('10.0.0.5')
    expect(clientAddress('10.0.0.5', '6.6.6.6, 198.51.100.1', parseTrustProxy('2'))).toBe('6.6.6.6')
  })

  it('refuses a bad entry with a sentence', () => {
    expect(() => parseTrustProxy('proxy.example')).toThrow(/not an address/)
    expect(() => parseTrustProxy('10.0.0.0/40')).toThrow(/prefix length/)
  })
})

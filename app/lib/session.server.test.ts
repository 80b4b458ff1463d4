import { describe, expect, it } from 'vitest'
import { assertSameOrigin, isSameOrigin } from './auth/csrf.server.ts'
import { challengeOf } from './auth/sso.server.ts'
import { safeRedirect } from './safe-redirect.ts'
import { isSecureRequest, unsign } from './session.server.ts'

describe('safeRedirect', () => {
  it('keeps local paths with their query and refuses anything that could leave the site', () => {
    expect(safeRedirect('/domains?sort=-name&page=2')).toBe('/domains?sort=-name&page=2')
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'evil', '/\t/evil.example', '', null, undefined]) {
      expect(safeRedirect(bad, '/')).toBe('/')
    }
  })

  it('answers ASCII a Location header can carry: a path in another script percent-encoded, never left as it is (issue 26)', () => {
    expect(safeRedirect('/ドメイン?q=名前#日本')).toBe('/%E3%83%89%E3%83%A1%E3%82%A4%E3%83%B3?q=%E5%90%8D%E5%89%8D#%E6%97%A5%E6%9C%AC')
    expect(safeRedirect('/domains?sort=-name&page=2')).toBe('/domains?sort=-name&page=2')
    expect(() => new Headers({ location: safeRedirect('/ドメイン') })).not.toThrow()
    // Dot segments resolved by the parser may not make a protocol-relative address of what is left.
    for (const bad of ['/.//evil.example', '/..//evil.example', '/a/../..//evil.example', '/x\u007f']) expect(safeRedirect(bad, '/')).toBe('/')
  })
})

describe('session cookie signature', () => {
  it('refuses a value whose signature does not match', async () => {
    const { createHmac } = await import('node:crypto')
    const id = 'abc'
    const good = `${id}.${createHmac('sha256', 's'.repeat(32)).update(id).digest('base64url')}`
    expect(unsign(good, 's'.repeat(32))).toBe('abc')
    expect(unsign(good.replace('abc', 'abd'), 's'.repeat(32))).toBeNull()
    expect(unsign(good, 't'.repeat(32))).toBeNull()
    expect(unsign('no-dot', 's'.repeat(32))).toBeNull()
  })

  it('is Secure except on plain http localhost', () => {
    expect(isSecureRequest(new Request('http://localhost:3600/login'))).toBe(false)
    expect(isSecureRequest(new Request('https://portal.example/login'))).toBe(true)
    expect(isSecureRequest(new Request('http://portal.example/login'))).toBe(true)
  })
})

describe('assertSameOrigin', () => {
  const post = (headers: Record<string, string>) => new Request('http://localhost/login', { method: 'POST', headers })
  it('accepts same-origin posts and refuses cross-site or unmarked ones', () => {
    expect(isSameOrigin(post({ 'sec-fetch-site': 'same-origin' }))).toBe(true)
    expect(isSameOrigin(post({ origin: 'http://localhost' }))).toBe(true)
    expect(isSameOrigin(post({ 'sec-fetch-site': 'cross-site', origin: 'http://localhost' }))).toBe(false)
    expect(isSameOrigin(post({ 'sec-fetch-site': 'same-site' }))).toBe(false)
    expect(isSameOrigin(post({ origin: 'https://evil.example' }))).toBe(false)
    expect(isSameOrigin(post({}))).toBe(false)
    expect(isSameOrigin(post({ origin: 'https://portal.example' }), 'https://portal.example')).toBe(true)
    expect(() => assertSameOrigin(new Request('http://localhost/login'))).not.toThrow()
    expect(() => assertSameOrigin(post({ origin: 'https://evil.example' }))).toThrow()
  })
})

describe('PKCE challenge', () => {
  it('is the RFC 7636 S256 of the verifier, base64url without padding', () => {
    // RFC 7636 appendix B.
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')
  })
})

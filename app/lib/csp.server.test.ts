import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, newNonce } from './csp.server.ts'

describe('contentSecurityPolicy', () => {
  it('allows inline scripts only with the nonce, forbids framing, plugins and <base>', () => {
    const policy = contentSecurityPolicy('abc123')
    const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]))
    expect(directives.get('script-src')).toBe("'self' 'nonce-abc123'")
    expect(directives.get('frame-ancestors')).toBe("'none'")
    expect(directives.get('object-src')).toBe("'none'")
    expect(directives.get('base-uri')).toBe("'none'")
    expect(directives.get('form-action')).toBe("'self'")
    expect(policy).not.toContain('unsafe-eval')
    expect(directives.get('script-src')).not.toContain('unsafe-inline')
  })

  it('lets a form post be redirected to the single sign-on provider (origin only)', () => {
    expect(contentSecurityPolicy('n', { oidcIssuer: 'https://sso.example/realms/acme' })).toContain("form-action 'self' https://sso.example;")
  })

  it('makes a new 128-bit nonce each time', () => {
    const a = newNonce()
    expect(Buffer.from(a, 'base64')).toHaveLength(16)
    expect(newNonce()).not.toBe(a)
  })
})

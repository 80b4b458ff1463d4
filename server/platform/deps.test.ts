import { describe, expect, it } from 'vitest'
import { linkBase, listeningUrlOf } from './deps.ts'

describe('links we mail', () => {
  const config = (PUBLIC_URL?: string) => ({
    APP_ENV: 'test',
    BODY_LIMIT_BYTES: 1,
    SUPPORT_EMAIL: 's@x.example',
    PUBLIC_URL,
    OIDC_ISSUER: undefined,
    OIDC_CLIENT_ID: undefined,
    OIDC_CLIENT_SECRET: undefined,
    SMTP_URL: undefined,
    MAIL_FROM: 'x',
  })
  it('use PUBLIC_URL, else where the server listens (never the Host a client sent), else the request origin — never a guessed port', () => {
    const request = new Request('http://attacker.example/v1/password_resets')
    expect(linkBase({ config: config('https://portal.example/') }, request)).toBe('https://portal.example')
    expect(linkBase({ config: config(), listeningUrl: () => 'http://localhost:3999' }, request)).toBe('http://localhost:3999')
    expect(linkBase({ config: config(), listeningUrl: () => 'http://localhost:3999' })).toBe('http://localhost:3999')
    expect(linkBase({ config: config(), listeningUrl: () => undefined }, new Request('http://127.0.0.1:4123/v1/x'))).toBe('http://127.0.0.1:4123')
  })

  it('name where the server listens: localhost for a wildcard bind, the address it is bound to otherwise', () => {
    expect(listeningUrlOf('0.0.0.0', 3456)).toBe('http://localhost:3456')
    expect(listeningUrlOf('::', 3456)).toBe('http://localhost:3456')
    expect(listeningUrlOf('127.0.0.1', 3456)).toBe('http://127.0.0.1:3456')
    expect(listeningUrlOf('::1', 3456)).toBe('http://[::1]:3456')
    expect(listeningUrlOf('portal.internal', 80)).toBe('http://portal.internal:80')
  })
})

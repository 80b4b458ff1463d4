import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export const OIDC_CLIENT_ID = 'registrar-portal'

export type OidcProviderOptions = {
  /** Loopback port; 0 picks a free one. */
  port?: number
  host?: string
  /** Where the portal's /login receives the code. */
  redirectUris: string[]
  /** Where the provider's logout may send the browser back to (the portal's /logout). */
  logoutUris?: string[]
}

export type OidcTestProvider = { issuer: string; clientId: string; port: number; close(): Promise<void> }

/** The email claim of a login name: the name itself when it is an address, else name@sso.example. */
export const emailForLogin = (login: string) => (login.includes('@') ? login.trim().toLowerCase() : `${login.trim().toLowerCase()}@sso.example`)

/**
 * A real OpenID Connect provider (npm oidc-provider) on a loopback port with the portal registered
 * as a public client (PKCE S256, no client secret). Its built-in development pages accept any
 * login name; the account's email comes from that name. The first-party client is granted its
 * scopes without a consent page, as a company's own provider does for its own portal.
 * Besides the standard end_session endpoint it answers GET /logout?client_id&logout_uri (the
 * logout shape of spec §7), ending the provider session and redirecting to a registered URI.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcTestProvider> {
  const host = options.host ?? '127.0.0.1'
  const server: Server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const issuer = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`
  const logoutUris = options.logoutUris ?? []

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: logoutUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // Signed cookies need keys; a fresh random key per run is enough for a test provider.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600, AccessToken: 3600, IdToken: 3600, AuthorizationCode: 60 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: emailForLogin(sub), email_verified: true, name: sub }
        },
      }
    },
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      if (ctx.oidc.client!.clientId !== OIDC_CLIENT_ID) return undefined
      const grant = new ctx.oidc.provider.Grant({ clientId: OIDC_CLIENT_ID, accountId: ctx.oidc.session!.accountId! })
      grant.addOIDCScope('openid profile email')
      await grant.save()
      return grant
    },
  })

  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/logout') {
      const clientId = ctx.query.client_id
      const target = typeof ctx.query.logout_uri === 'string' ? ctx.query.logout_uri : ''
      if (clientId !== OIDC_CLIENT_ID || !logoutUris.includes(target)) {
        ctx.status = 400
        ctx.body = 'unknown client_id or logout_uri'
        return
      }
      const session = await provider.Session.get(ctx as never)
      if (session) await session.destroy()
      ctx.cookies.set('_session', null)
      ctx.cookies.set('_session.sig', null)
      ctx.redirect(target)
      return
    }
    await next()
  })

  server.on('request', provider.callback())
  return {
    issuer,
    clientId: OIDC_CLIENT_ID,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

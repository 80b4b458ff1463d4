// A single-sign-on provider for development: npm run dev:sso, then start the portal with
// OIDC_ISSUER=http://127.0.0.1:3401 OIDC_CLIENT_ID=registrar-portal. Any login name signs in;
// a name with an @ is the email (admin@acme.example is a demo user), others get @sso.example.
import { startOidcProvider } from '#tests/support/oidc.ts'

const port = Number(process.env.SSO_PORT ?? 3401)
const portal = (process.env.PORTAL_URL ?? 'http://localhost:3000').replace(/\/$/, '')
const provider = await startOidcProvider({ port, redirectUris: [`${portal}/login`], logoutUris: [`${portal}/logout`] })
process.stdout.write(`single-sign-on provider at ${provider.issuer} (client_id ${provider.clientId}, redirect_uri ${portal}/login)\n`)
const stop = () => void provider.close().then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

import { createContext, type RouterContext } from 'react-router'

/** What the Node server hands to every loader, action and middleware. */
export type AppServices = {
  /** Calls the Platform API (in process, or PLATFORM_URL when split). */
  platformFetch: (request: Request) => Promise<Response>
  requestId: string
  /** The browser at the other end: its address (the socket, or a TRUST_PROXY hop's word) and user agent. */
  client: { ip: string; userAgent: string }
  env: {
    appEnv: string
    supportEmail: string
    sessionSecret: string
    publicUrl: string | undefined
    oidc: { issuer: string; clientId: string } | null
  }
  /** Server-side portal state (sessions, preferences) lives in the database through this runner. */
  sql: {
    query(sql: string, params?: readonly unknown[]): Promise<{ rows: any[]; rowCount: number | null }>
  }
  log: (level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void
}

// The server entry and the built bundle each load this module; a registry symbol makes both
// copies share one context key.
const KEY = Symbol.for('registrar-portal.app-services')
const registry = globalThis as unknown as Record<symbol, RouterContext<AppServices> | undefined>

export const appServicesContext: RouterContext<AppServices> = (registry[KEY] ??= createContext<AppServices>())

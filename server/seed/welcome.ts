import { DEMO_PASSWORD } from './demo.ts'

/** The demo's sign-ins as README lists them: who, and what they can do. */
export const DEMO_LOGINS = [
  { email: 'staff@example.com', what: 'staff: every account, products, pricing, invoicing' },
  { email: 'admin@acme.example', what: 'client admin of Acme Corp' },
  { email: 'viewer@acme.example', what: 'read-only at Acme Corp' },
  { email: 'brand@acme.example', what: 'brand protection at Acme Corp (its brand acme and lookalikes)' },
  { email: 'admin@globex.example', what: 'client admin of Globex (Spanish)' },
] as const

/**
 * The last lines a newcomer reads after `npm start` (issue 28, item 18): where the portal answers
 * and how to sign in to the demo. Plain text for a person (on stderr: stdout stays JSON lines).
 */
export function demoWelcome(url: string): string {
  const width = Math.max(...DEMO_LOGINS.map((l) => l.email.length))
  return ['', `  Registrar Portal is ready: ${url}`, '', `  Demo sign-ins, all with the password ${DEMO_PASSWORD}:`, ...DEMO_LOGINS.map((l) => `    ${l.email.padEnd(width)}  ${l.what}`), '', ''].join(
    '\n',
  )
}

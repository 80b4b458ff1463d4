import { expect } from 'vitest'

type Call = (method: string, path: string, options?: { token?: string; body?: unknown }) => Promise<{ status: number; json: any; text: string }>

/**
 * A zone for a name no account holds (hosted elsewhere), made live as the portal makes it: created
 * (waiting for its proof of control, issue 26), then the proof confirmed by staff. Tests of what a
 * live zone does (publishing, DNSSEC, certificates) start from one; the proof itself through the
 * DNS is tests/integration/zone-tenancy.test.ts's. Answered as the creation (201) with the live zone.
 */
export async function liveZone(call: Call, account: string, token: string, staffToken: string, name: string) {
  const created = await call('POST', `/groups/${account}/zones`, { token, body: { name } })
  expect(created.status, JSON.stringify(created.json)).toBe(201)
  if (created.json.verified) return created
  const verified = await call('POST', `/groups/${account}/zones/${created.json.id}/verify`, { token: staffToken, body: { staff_confirmed: true } })
  expect(verified.status, JSON.stringify(verified.json)).toBe(200)
  // Answered as the creation was (201), with the zone as it is now.
  return { ...verified, status: created.status }
}

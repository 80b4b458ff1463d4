import { createHash } from 'node:crypto'
import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import { rdapOf, type RdapFacts, type WithRdap } from './rdap.ts'

/**
 * Evidence of a registered lookalike, captured as it is (issue 31): its DNS answers through the
 * configured resolver (decision 022; NS, A, AAAA, MX, TXT), its RDAP answer, and the web answer
 * (status, redirect chain, title, a hash of the page) fetched through the outbound guard with a
 * short deadline and a small body. A failing lookup is recorded as no answer, never as a live site.
 */
export type DnsCapture = { ns: string[]; a: string[]; aaaa: string[]; mx: string[]; txt: string[] }
export type WebCapture = { status: number; url: string; redirects: string[]; title: string | null; sha256: string } | { error: string }
export type Capture = { dns: DnsCapture; rdap: RdapFacts | null; web: WebCapture | null }

const text = (r: unknown): string =>
  Array.isArray(r) ? r.join('') : typeof r === 'object' && r && 'exchange' in r ? `${(r as { priority?: number }).priority ?? ''} ${String((r as { exchange: string }).exchange)}`.trim() : String(r)

export async function captureDns(deps: WithOutbound, name: string): Promise<DnsCapture> {
  const outbound = outboundOf(deps)
  const ask = (type: 'NS' | 'A' | 'AAAA' | 'MX' | 'TXT') =>
    outbound.resolveRecords(name, type).then(
      (rows) => rows.map(text).sort(),
      () => [] as string[],
    )
  const [ns, a, aaaa, mx, txt] = await Promise.all([ask('NS'), ask('A'), ask('AAAA'), ask('MX'), ask('TXT')])
  return { ns, a, aaaa, mx, txt }
}

export async function captureWeb(deps: WithOutbound, name: string): Promise<WebCapture> {
  try {
    const answer = await outboundOf(deps).fetch(`http://${name}/`, { timeoutMs: 3000, maxBytes: 256 * 1024, maxRedirects: 5, protocols: ['http:', 'https:'] })
    const body = answer.body.toString('utf8')
    const title = /<title[^>]*>([^<]{0,300})<\/title>/i.exec(body)?.[1]?.trim() ?? null
    return { status: answer.status, url: answer.url, redirects: answer.redirects, title, sha256: sha256(answer.body) }
  } catch (error) {
    return { error: (error as Error).message.slice(0, 200) }
  }
}

export async function captureAll(deps: WithOutbound & WithRdap, name: string, options: { web: boolean }): Promise<Capture> {
  const rdapClient = rdapOf(deps)
  const [dns, rdap] = await Promise.all([captureDns(deps, name), rdapClient ? rdapClient.lookup(name) : Promise.resolve(null)])
  const web = options.web && (dns.a.length || dns.aaaa.length) ? await captureWeb(deps, name) : null
  return { dns, rdap, web }
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')

/** A stable hash of what a capture says (key order fixed): equal captures add no evidence. */
export function fingerprintOf(capture: Capture): string {
  const web = capture.web && 'status' in capture.web ? { status: capture.web.status, sha256: capture.web.sha256 } : null
  const rdap = capture.rdap
    ? { registrar: capture.rdap.registrar, statuses: [...capture.rdap.statuses].sort(), nameservers: [...capture.rdap.nameservers].sort(), expires: capture.rdap.expires_at }
    : null
  return sha256(JSON.stringify({ dns: capture.dns, rdap, web }))
}

/** A web answer is a live site: a status below 500 with a page, not an error. */
export const webReady = (web: WebCapture | null) => !!web && 'status' in web && web.status < 500

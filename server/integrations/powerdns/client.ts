/**
 * A small client for PowerDNS Authoritative's HTTP API (v1). Names go over the wire absolute
 * with the trailing dot; errors carry PowerDNS's own reason so the portal can show it.
 */

export type PowerDnsSettings = {
  /** e.g. http://127.0.0.1:3981 (the webserver of pdns_server) */
  apiUrl: string
  apiKey: string
  serverId?: string
  /** The name servers new zones get (absolute, no trailing dot). */
  nameservers?: string[]
  /**
   * Send one change at a time: PowerDNS's SQLite backend answers 500 to a change that meets another
   * in flight (each API thread writes on its own connection; WAL or not, the second writer fails).
   * The local server sets it; a PostgreSQL-backed PowerDNS takes changes side by side.
   */
  oneWriter?: boolean
}

/** The change in flight per PowerDNS API (oneWriter): every client of this process queues behind it. */
const writing = new Map<string, Promise<unknown>>()

export type PdnsRecord = { content: string; disabled: boolean }
export type PdnsRrset = { name: string; type: string; ttl: number; records: PdnsRecord[]; changetype?: 'REPLACE' | 'DELETE' }
export type PdnsZone = { id: string; name: string; kind: string; serial: number; dnssec: boolean; rrsets: PdnsRrset[] }
export type PdnsCryptokey = { id: number; keytype: string; active: boolean; published: boolean; algorithm: string; bits: number; dnskey: string; ds?: string[]; flags?: number }

/** One entry of /statistics: a counter, a map (by qtype, rcode…) or a ring of recent items. */
export type PdnsStatistic = { name: string; type: 'StatisticItem' | 'MapStatisticItem' | 'RingStatisticItem'; size?: string; value: string | { name: string; value: string }[] }

export class PowerDnsError extends Error {
  readonly status: number
  /** PowerDNS's reason (its `error` field), or the HTTP failure. */
  readonly reason: string
  constructor(status: number, reason: string, what: string) {
    super(`PowerDNS refused ${what}: ${reason}`)
    this.status = status
    this.reason = reason
  }
  /** 4xx answers say the request itself is wrong: retrying the same data cannot help. */
  get permanent(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 404 && this.status !== 429
  }
}

/** The settings from the environment (main passes its whole config), or undefined. */
export function powerDnsFromEnv(config: object): PowerDnsSettings | undefined {
  const c = config as { POWERDNS_API_URL?: string; POWERDNS_API_KEY?: string; POWERDNS_ONE_WRITER?: boolean }
  return c.POWERDNS_API_URL && c.POWERDNS_API_KEY ? { apiUrl: c.POWERDNS_API_URL, apiKey: c.POWERDNS_API_KEY, ...(c.POWERDNS_ONE_WRITER ? { oneWriter: true } : {}) } : undefined
}

/** The environment that hands these settings to another process (powerDnsFromEnv's inverse). */
export const powerDnsEnv = (settings: PowerDnsSettings): Record<string, string> => ({
  POWERDNS_API_URL: settings.apiUrl,
  POWERDNS_API_KEY: settings.apiKey,
  ...(settings.oneWriter ? { POWERDNS_ONE_WRITER: '1' } : {}),
})

export const dotted = (name: string) => (name.endsWith('.') ? name : `${name}.`)

export function createPowerDnsClient(settings: PowerDnsSettings) {
  const base = `${settings.apiUrl.replace(/\/$/, '')}/api/v1/servers/${settings.serverId ?? 'localhost'}`

  function request<T>(method: string, path: string, what: string, body?: unknown, accept = 'application/json'): Promise<T> {
    if (!settings.oneWriter || method === 'GET') return send<T>(method, path, what, body, accept)
    // Queued behind this process's change in flight; another process's (WEB_CONCURRENCY > 1) can
    // still meet it, and its 500 is tried again twice, shortly after (nothing was written).
    const attempt = (left: number): Promise<T> =>
      send<T>(method, path, what, body, accept).catch(async (error: unknown) => {
        if (!(error instanceof PowerDnsError) || error.status !== 500 || left === 0) throw error
        await new Promise((resolve) => setTimeout(resolve, 150 * (3 - left)))
        return attempt(left - 1)
      })
    const previous = writing.get(base) ?? Promise.resolve()
    const mine = previous.catch(() => undefined).then(() => attempt(2))
    writing.set(base, mine)
    return mine
  }

  async function send<T>(method: string, path: string, what: string, body?: unknown, accept = 'application/json'): Promise<T> {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { 'X-API-Key': settings.apiKey, accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      })
    } catch (error) {
      throw new PowerDnsError(0, `cannot reach PowerDNS (${(error as Error).message})`, what)
    }
    const text = await response.text()
    if (!response.ok) {
      let reason = text || response.statusText
      try {
        reason = (JSON.parse(text) as { error?: string }).error ?? reason
      } catch {
        // Not JSON: the text is the reason.
      }
      throw new PowerDnsError(response.status, reason, what)
    }
    if (accept !== 'application/json') return text as T
    return (text ? JSON.parse(text) : undefined) as T
  }

  const zonePath = (zone: string) => `/zones/${encodeURIComponent(dotted(zone))}`

  return {
    settings,
    /** Creates a Native zone (nothing is sent to other servers) with the given rrsets. */
    createZone(zone: string, rrsets: PdnsRrset[], nameservers: string[] = []) {
      return request<PdnsZone>('POST', '/zones', `creating zone ${zone}`, {
        name: dotted(zone),
        kind: 'Native',
        nameservers: nameservers.map(dotted),
        rrsets,
        // Our serial is the truth: PowerDNS must not rewrite it on every change.
        soa_edit_api: '',
        api_rectify: true,
      })
    },
    async getZone(zone: string): Promise<PdnsZone | null> {
      try {
        return await request<PdnsZone>('GET', zonePath(zone), `reading zone ${zone}`)
      } catch (error) {
        if (error instanceof PowerDnsError && (error.status === 404 || (error.status === 422 && /not found|could not find/i.test(error.reason)))) return null
        throw error
      }
    },
    patchRrsets(zone: string, rrsets: PdnsRrset[]) {
      return request<void>('PATCH', zonePath(zone), `changing zone ${zone}`, { rrsets })
    },
    deleteZone(zone: string) {
      return request<void>('DELETE', zonePath(zone), `deleting zone ${zone}`)
    },
    exportZone(zone: string) {
      return request<string>('GET', `${zonePath(zone)}/export`, `exporting zone ${zone}`, undefined, 'text/plain')
    },
    rectify(zone: string) {
      return request<{ result: string }>('PUT', `${zonePath(zone)}/rectify`, `rectifying zone ${zone}`)
    },
    setDnssec(zone: string, dnssec: boolean) {
      return request<void>('PUT', zonePath(zone), `switching DNSSEC of ${zone}`, { dnssec })
    },
    /** A combined signing key (CSK) with ECDSAP256SHA256 unless told otherwise. */
    createCryptokey(zone: string, algorithm = 'ECDSAP256SHA256') {
      // The answer holds the private key: it is returned to the caller only, never logged.
      return request<PdnsCryptokey>('POST', `${zonePath(zone)}/cryptokeys`, `creating a key for ${zone}`, { keytype: 'csk', active: true, published: true, algorithm })
    },
    listCryptokeys(zone: string) {
      return request<PdnsCryptokey[]>('GET', `${zonePath(zone)}/cryptokeys`, `listing keys of ${zone}`)
    },
    /** Counters, maps and rings (`queries`: the latest questions as "qname/qtype" with counts). */
    statistics() {
      return request<PdnsStatistic[]>('GET', '/statistics?includerings=true', 'reading statistics')
    },
    deleteCryptokey(zone: string, id: number) {
      return request<void>('DELETE', `${zonePath(zone)}/cryptokeys/${id}`, `deleting key ${id} of ${zone}`)
    },
  }
}

export type PowerDnsClient = ReturnType<typeof createPowerDnsClient>

/**
 * Intelligence's vocabulary and rules (issue 32, decision 033): the modules an item runs, the TLD
 * groups of the gap matrix, a cell's states and the rule that picks one from what was found, and the
 * security score's measures with their published weights. Pure: the API computes with it, the portal
 * shows the same words and weights.
 */

/** The modules of the catalogue (/intelligence/modules): what each reads and how often it runs. */
export const MODULES = ['gap-analysis', 'ssl-focus', 'traffic-focus', 'registry-lock-focus', 'dns-mail-security'] as const
export type IntelligenceModule = (typeof MODULES)[number]
export const isModule = (name: string): name is IntelligenceModule => (MODULES as readonly string[]).includes(name)

/** What each module reads (its sources, shown as words) and when it runs: with every run of the item, or read live when the screen opens. */
export const MODULE_SOURCES: Record<IntelligenceModule, { reads: readonly ModuleSource[]; cadence: 'per-run' | 'live' }> = {
  'gap-analysis': { reads: ['lookalike-engine', 'registry-check', 'portfolio', 'blocks', 'dns-resolver', 'pricing-engine'], cadence: 'per-run' },
  'ssl-focus': { reads: ['certificates'], cadence: 'live' },
  'traffic-focus': { reads: ['dns-statistics'], cadence: 'live' },
  'registry-lock-focus': { reads: ['portfolio', 'zones'], cadence: 'live' },
  'dns-mail-security': { reads: ['zones'], cadence: 'live' },
}
export const MODULE_SOURCE_NAMES = ['lookalike-engine', 'registry-check', 'portfolio', 'blocks', 'dns-resolver', 'pricing-engine', 'certificates', 'dns-statistics', 'zones'] as const
export type ModuleSource = (typeof MODULE_SOURCE_NAMES)[number]

/** How often an item runs again by itself. */
export const SCHEDULES = ['none', 'daily', 'weekly'] as const
export type Schedule = (typeof SCHEDULES)[number]
export const SCHEDULE_HOURS: Record<Schedule, number | null> = { none: null, daily: 24, weekly: 24 * 7 }

export const ITEM_KINDS = ['client', 'prospect'] as const
export type ItemKind = (typeof ITEM_KINDS)[number]

export const RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

// ------------------------------------------------------------------ the gap matrix

/** The matrix's column groups. */
export const TLD_GROUPS = ['legacy', 'cctld', 'new-gtld', 'idn'] as const
export type TldGroup = (typeof TLD_GROUPS)[number]

/** The legacy gTLDs a gap analysis asks of (those not on sale are "not offered"). */
export const LEGACY_GTLDS = ['com', 'net', 'org', 'info', 'biz'] as const
/** The priority ccTLDs when an item names none. */
export const DEFAULT_PRIORITY_CCTLDS = ['de', 'es', 'eu', 'io', 'jp', 'uk', 'fr'] as const
/**
 * Country codes whose registry wants a local presence (a resident registrant or a trustee): a name
 * free there is "restricted", not simply available. The catalogue has no column for it yet.
 */
export const LOCAL_PRESENCE_TLDS = ['ca', 'au', 'fr', 'it', 'cn', 'jp'] as const

/** The kinds of a pattern (a matrix row): a brand string, a brand with a keyword, a lookalike of the engine above the item's score. */
export const PATTERN_KINDS = ['brand', 'keyword', 'lookalike'] as const
export type PatternKind = (typeof PATTERN_KINDS)[number]
export type Pattern = { label: string; kind: PatternKind; score: number; fuzzers?: string[] }

/** Every state a cell may be in (one name: a pattern in one TLD). */
export const CELL_STATES = [
  'ours',
  'ours-elsewhere',
  'third-party-live',
  'third-party-parked',
  'third-party-mail',
  'third-party',
  'available',
  'premium',
  'restricted',
  'blocked',
  'not-offered',
  'unknown',
] as const
export type CellState = (typeof CELL_STATES)[number]

/** Covered: the brand holds or blocks it. Exposed: someone else holds it, or anyone could take it. */
export const COVERED_STATES: readonly CellState[] = ['ours', 'ours-elsewhere', 'blocked']
export const EXPOSED_STATES: readonly CellState[] = ['third-party-live', 'third-party-parked', 'third-party-mail', 'third-party', 'available', 'premium', 'restricted']
/** The states "close the gap" can act on: a name anyone may register now at our price. */
export const CLOSABLE_STATES: readonly CellState[] = ['available']

/** Name servers of the parking services, by the names their NS answers end with. */
export const PARKING_NAMESERVERS = [
  'sedoparking.com',
  'parkingcrew.net',
  'bodis.com',
  'above.com',
  'parklogic.com',
  'dan.com',
  'afternic.com',
  'namebrightdns.com',
  'ztomy.com',
  'cashparking.com',
] as const

/** What was found of one name, from the sources a gap analysis reads. */
export type CellFacts = {
  offered: boolean
  /** A live domain of the item's account. */
  ours: boolean
  /** A name the brand says it holds (its own domains at another registrar). */
  known: boolean
  /** The block in force covering the label in its TLD. */
  block: { id: string; product: string } | null
  /** The registry's check: null when it was not asked or did not answer. */
  registry: { available: boolean; reason?: string } | null
  dns: { ns: string[]; a: string[]; mx: string[] } | null
  price: { minor: number; currency: string } | null
  localPresence: boolean
}

/** The one rule from facts to a state: what we hold or block first, then what the registry says, then the DNS evidence. */
export function cellState(f: CellFacts): CellState {
  if (f.ours) return 'ours'
  if (f.block) return 'blocked'
  if (!f.offered) return f.known ? 'ours-elsewhere' : 'not-offered'
  if (!f.registry) return f.known ? 'ours-elsewhere' : 'unknown'
  if (f.registry.available) {
    if (/premium/i.test(f.registry.reason ?? '')) return 'premium'
    if (f.localPresence) return 'restricted'
    return 'available'
  }
  if (/premium/i.test(f.registry.reason ?? '')) return 'premium'
  if (/restrict|presence|reserved/i.test(f.registry.reason ?? '')) return 'restricted'
  if (f.known) return 'ours-elsewhere'
  if (f.dns) {
    if (f.dns.ns.some((ns) => PARKING_NAMESERVERS.some((p) => ns.toLowerCase().replace(/\.$/, '').endsWith(p)))) return 'third-party-parked'
    if (f.dns.mx.length) return 'third-party-mail'
    if (f.dns.a.length) return 'third-party-live'
  }
  return 'third-party'
}

export type GapTotals = { cells: number; covered: number; exposed: number; unknown: number; closable: number; cost: { minor: number; currency: string }[] }

/** The matrix's totals: covered, exposed, and the cost to close the gap (the closable cells' prices, per currency). */
export function gapTotals(cells: readonly { state: CellState; price_minor: number | null; currency: string | null }[]): GapTotals {
  const cost = new Map<string, number>()
  let closable = 0
  for (const c of cells) {
    if (!CLOSABLE_STATES.includes(c.state) || c.price_minor === null || !c.currency) continue
    closable++
    cost.set(c.currency, (cost.get(c.currency) ?? 0) + c.price_minor)
  }
  return {
    cells: cells.length,
    covered: cells.filter((c) => COVERED_STATES.includes(c.state)).length,
    exposed: cells.filter((c) => EXPOSED_STATES.includes(c.state)).length,
    unknown: cells.filter((c) => c.state === 'unknown').length,
    closable,
    cost: [...cost].map(([currency, minor]) => ({ currency, minor })),
  }
}

// ------------------------------------------------------------------ the security score

/** The measures of the score (CSC's domain security report's, plus MTA-STS), each with our published weight; the weights add up to 100. */
export const MEASURES = ['registry-lock', 'dnssec', 'caa', 'ns-redundancy', 'registrar', 'spf', 'dmarc', 'dkim', 'mta-sts'] as const
export type Measure = (typeof MEASURES)[number]
export const MEASURE_WEIGHTS: Record<Measure, number> = { 'registry-lock': 20, dnssec: 15, caa: 10, 'ns-redundancy': 10, registrar: 5, spf: 10, dmarc: 15, dkim: 10, 'mta-sts': 5 }

/** A measure's result: passed, failed, or not visible from the data we hold (a zone hosted elsewhere; MTA-STS of a name that takes no mail). */
export type MeasureResult = 'pass' | 'fail' | 'unseen'

/** What we hold of one domain: its registry flags, its name servers, and its zone's records when we host it (null otherwise). */
export type DomainPosture = {
  registry_lock: boolean
  dnssec: boolean
  nameservers: number
  held_here: boolean
  zone: { caa: boolean; spf: boolean; dmarc: boolean; dkim: boolean; mta_sts: boolean; mx: boolean } | null
}

export function measuresOf(p: DomainPosture): Record<Measure, MeasureResult> {
  const z = p.zone
  const zoneMeasure = (ok: boolean | undefined): MeasureResult => (z ? (ok ? 'pass' : 'fail') : 'unseen')
  return {
    'registry-lock': p.registry_lock ? 'pass' : 'fail',
    dnssec: p.dnssec ? 'pass' : 'fail',
    caa: zoneMeasure(z?.caa),
    'ns-redundancy': p.nameservers >= 2 ? 'pass' : 'fail',
    registrar: p.held_here ? 'pass' : 'fail',
    spf: zoneMeasure(z?.spf),
    dmarc: zoneMeasure(z?.dmarc),
    dkim: zoneMeasure(z?.dkim),
    'mta-sts': z && z.mx ? (z.mta_sts ? 'pass' : 'fail') : 'unseen',
  }
}

/** The score 0–100: the weights passed over the weights seen (a measure we cannot see neither helps nor hurts). */
export function scoreOf(measures: Record<Measure, MeasureResult>): number {
  let seen = 0
  let passed = 0
  for (const m of MEASURES) {
    if (measures[m] === 'unseen') continue
    seen += MEASURE_WEIGHTS[m]
    if (measures[m] === 'pass') passed += MEASURE_WEIGHTS[m]
  }
  return seen === 0 ? 0 : Math.round((passed / seen) * 100)
}

/** The measures a fix writes in a zone we host (a record through the DNS service); the others go the existing ways (lock and DS through the domain's screens and their approval). */
export const ZONE_FIXES = ['caa', 'spf', 'dmarc', 'dkim'] as const
export type ZoneFix = (typeof ZONE_FIXES)[number]
export const isZoneFix = (m: string): m is ZoneFix => (ZONE_FIXES as readonly string[]).includes(m)

/**
 * The record a zone fix adds (relative name, type, content): CAA for the CA we order from; SPF that
 * sends from the MX hosts only (or from nowhere for a name without mail); DMARC rejecting for a name
 * without mail, monitoring (p=none) for one with mail so nothing legitimate bounces on day one; a
 * DKIM null key (every selector revoked) for a name that sends no mail — one with mail needs its
 * provider's key, which no fix can invent.
 */
export function zoneFixRecord(fix: ZoneFix, options: { mx: boolean; caIdentity: string }): { name: string; type: 'CAA' | 'TXT'; content: string } | null {
  switch (fix) {
    case 'caa':
      return { name: '@', type: 'CAA', content: `0 issue "${options.caIdentity}"` }
    case 'spf':
      return { name: '@', type: 'TXT', content: options.mx ? '"v=spf1 mx -all"' : '"v=spf1 -all"' }
    case 'dmarc':
      return { name: '_dmarc', type: 'TXT', content: options.mx ? '"v=DMARC1; p=none"' : '"v=DMARC1; p=reject"' }
    case 'dkim':
      return options.mx ? null : { name: '*._domainkey', type: 'TXT', content: '"v=DKIM1; p="' }
  }
}

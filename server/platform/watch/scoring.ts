import type { Reason, Risk } from '#common/watch.ts'

/**
 * A detection's rating (issue 31): points for each reason a registered lookalike is a danger, the
 * sum rated low, high or critical by the watch's thresholds. Pure: the run hands it what the
 * evidence says.
 */
export type ScoreInput = {
  /** The lookalike engine's 0–100 (edit distance and looks, decision 029). */
  similarity: number
  fuzzers: readonly string[]
  /** Words of the brand's dictionary found in the label (combosquatting: acme-login). */
  keywords: readonly string[]
  /** The DNS answers MX: ready to receive (and send) mail as the brand. */
  mx: boolean
  /** A web server answers it with a page (not a wildcard, not SERVFAIL). */
  web: boolean
  /** Days since a certificate for it was logged; null when none is known. */
  certificateAgeDays: number | null
  /** Days since it was registered (RDAP); null when unknown. */
  registeredDaysAgo: number | null
  /** The sponsoring registrar (RDAP), null when unknown. */
  registrar: string | null
  /** It is held at our own registry: an internal abuse ticket rather than a notice. */
  ourRegistry: boolean
}

export type ScoreReason = { code: Reason; points: number; detail?: string }
export type Thresholds = { high: number; critical: number }
export type Score = { points: number; risk: Risk; reasons: ScoreReason[] }

export const DEFAULT_THRESHOLDS: Thresholds = { high: 50, critical: 80 }
const FRESH_DAYS = 30

export function scoreDetection(input: ScoreInput, thresholds: Thresholds = DEFAULT_THRESHOLDS): Score {
  const reasons: ScoreReason[] = [{ code: 'similarity', points: Math.round(Math.max(0, Math.min(100, input.similarity)) * 0.4), detail: input.fuzzers.join(', ') }]
  if (input.keywords.length) reasons.push({ code: 'keyword', points: 10, detail: input.keywords.join(', ') })
  if (input.mx) reasons.push({ code: 'mail-ready', points: 25 })
  if (input.web) reasons.push({ code: 'web-ready', points: 15 })
  if (input.certificateAgeDays !== null && input.certificateAgeDays <= FRESH_DAYS) reasons.push({ code: 'fresh-certificate', points: 10, detail: `${input.certificateAgeDays}` })
  if (input.registeredDaysAgo !== null && input.registeredDaysAgo <= FRESH_DAYS) reasons.push({ code: 'fresh-registration', points: 10, detail: `${input.registeredDaysAgo}` })
  // The registrar is said, not counted: no registrar is guilty by name.
  if (input.registrar) reasons.push({ code: 'registrar', points: 0, detail: input.registrar })
  if (input.ourRegistry) reasons.push({ code: 'our-registry', points: 0 })
  const points = Math.min(
    100,
    reasons.reduce((sum, r) => sum + r.points, 0),
  )
  return { points, risk: riskOf(points, thresholds), reasons }
}

export const riskOf = (points: number, thresholds: Thresholds): Risk => (points >= thresholds.critical ? 'critical' : points >= thresholds.high ? 'high' : 'low')

/** The dictionary words inside a label (each at least 3 letters, the brand's own label left out). */
export function keywordsIn(label: string, words: readonly string[], brand: string): string[] {
  const rest = label.toLowerCase().replace(brand.toLowerCase(), ' ')
  return words.filter((w) => w.length >= 3 && rest.includes(w.toLowerCase()))
}

/** What the portfolio and the registry say of one of the account's own names (a brand's domain it holds). */
export type OwnNameInput = {
  /** The nameservers the registry delegates it to (RDAP's answer, else the registry's last word kept on the domain). */
  nameservers: readonly string[]
  /** The nameservers we run (our PowerDNS's). */
  ours: readonly string[]
  /** Its zone is ours: a delegation elsewhere is no change of ours. */
  zoneHere: boolean
  status: string
  expiresAt: Date | null
  autoRenew: boolean
  now: Date
}

/** Days before expiry from which an own name nobody renews is a detection. */
export const EXPIRING_DAYS = 30
const bare = (ns: string) => ns.toLowerCase().replace(/\.$/, '')

/**
 * An own name's hijack or lapse (issue 31), or null when nothing is wrong: delegated to
 * nameservers we do not run while its zone is ours (critical), expired or on its way to deletion
 * (critical), or expiring within EXPIRING_DAYS with auto-renew off (high).
 */
export function scoreOwnName(input: OwnNameInput, thresholds: Thresholds = DEFAULT_THRESHOLDS): Score | null {
  const reasons: ScoreReason[] = []
  const ours = new Set(input.ours.map(bare))
  const foreign = input.nameservers.map(bare).filter((ns) => !ours.has(ns))
  if (input.zoneHere && foreign.length) reasons.push({ code: 'own-nameservers', points: 100, detail: foreign.sort().join(', ') })
  const day = input.expiresAt?.toISOString().slice(0, 10)
  const lapsed = ['expired', 'redemption', 'pending-delete'].includes(input.status) || (input.expiresAt !== null && input.expiresAt <= input.now)
  if (lapsed) reasons.push({ code: 'own-lapsed', points: 100, ...(day ? { detail: day } : {}) })
  else if (input.expiresAt && !input.autoRenew && input.expiresAt.getTime() - input.now.getTime() <= EXPIRING_DAYS * 86_400_000)
    reasons.push({ code: 'own-expiring', points: thresholds.high, detail: day! })
  if (!reasons.length) return null
  const points = Math.min(
    100,
    reasons.reduce((sum, r) => sum + r.points, 0),
  )
  return { points, risk: riskOf(points, thresholds), reasons }
}

/**
 * Watch's vocabulary (issue 31, decision 032): what a watch draws on, how a detection is rated and
 * why, and the states a case goes through from detection to the end. Both sides read these: the
 * API checks them, the portal says them.
 */

/** The sources a watch draws on; `lookalikes` is the lookalike engine over the brand (decision 029). */
export const WATCH_SOURCES = ['lookalikes', 'zone-files', 'certificates', 'keywords'] as const
export type WatchSource = (typeof WATCH_SOURCES)[number]

export const RISKS = ['low', 'high', 'critical'] as const
export type Risk = (typeof RISKS)[number]

/**
 * Why a detection is rated as it is: each reason adds points (scoring.ts). The last three are the
 * account's own names (hijack and lapse): delegated to nameservers we do not run while its zone is
 * ours, expired or being deleted, or expiring soon with nobody renewing it.
 */
export const REASONS = [
  'similarity',
  'keyword',
  'mail-ready',
  'web-ready',
  'fresh-certificate',
  'fresh-registration',
  'registrar',
  'our-registry',
  'own-nameservers',
  'own-lapsed',
  'own-expiring',
] as const
export type Reason = (typeof REASONS)[number]

/** The `fuzzers` tag of a detection of one of the account's own names (no fuzzer made it): lists filter and mark them by it. */
export const OWN_NAME = 'own-name'

/** A case's states: new → triaged → action → resolved. */
export const CASE_STATES = ['new', 'triaged', 'action', 'resolved'] as const
export type CaseState = (typeof CASE_STATES)[number]

export const TRIAGES = ['false-positive', 'low', 'high'] as const
export type Triage = (typeof TRIAGES)[number]

export const CASE_ACTIONS = ['monitoring', 'notice-sent', 'takedown-requested', 'udrp', 'urs', 'acquisition', 'block'] as const
export type CaseAction = (typeof CASE_ACTIONS)[number]

export const RESOLUTIONS = ['taken-down', 'transferred', 'suspended', 'expired', 'dismissed'] as const
export type Resolution = (typeof RESOLUTIONS)[number]

/** The kinds of evidence captured at detection and at each re-check, kept as captured. */
export const EVIDENCE_KINDS = ['rdap', 'dns', 'certificate', 'web'] as const
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number]

/** The languages a takedown notice is written in (the portal's). */
export const NOTICE_LANGUAGES = ['en', 'es', 'ja'] as const
export type NoticeLanguage = (typeof NOTICE_LANGUAGES)[number]

/** Business days after a notice before its escalation reminder. */
export const ESCALATION_BUSINESS_DAYS = 5

/**
 * Where URS (the Uniform Rapid Suspension System) applies: every gTLD delegated under ICANN's
 * new gTLD programme and the legacy gTLDs whose registry agreements took it on; never a ccTLD
 * (two letters) nor .com, .net and the sponsored legacy ones that did not.
 */
const URS_REFUSED = new Set(['com', 'net', 'edu', 'gov', 'mil', 'int', 'arpa'])
export function ursApplies(tld: string): boolean {
  const last = tld.toLowerCase().split('.').pop() ?? ''
  if (tld.includes('.')) return false
  if (/^[a-z]{2}$/.test(last)) return false
  return !URS_REFUSED.has(last)
}

/** The language a notice about a name under `tld` is first offered in (the registrar may pick another). */
export function noticeLanguageOf(tld: string): NoticeLanguage {
  const last = tld.toLowerCase().split('.').pop() ?? ''
  if (['jp', 'xn--wgv71a'].includes(last)) return 'ja'
  if (['es', 'mx', 'ar', 'co', 'cl', 'pe', 'uy', 'ec', 've', 'bo', 'py', 'cr', 'gt', 'hn', 'ni', 'pa', 'sv', 'do', 'cu'].includes(last)) return 'es'
  return 'en'
}

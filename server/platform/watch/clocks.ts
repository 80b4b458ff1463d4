import { ESCALATION_BUSINESS_DAYS } from '#common/watch.ts'

/**
 * The statutory clocks of a case (issue 31), in UTC days. UDRP (the Rules, paragraphs 5, 15 and
 * 16; Policy 4(k)): the response is due 20 days after the proceeding commences, the panel decides
 * within 14 days of its appointment, and a transfer is implemented 10 business days after the
 * registrar is told of the decision. URS (the URS Procedure 4 and 5): the registry locks the name
 * within 24 hours of the complaint's notice, the response is due 14 days after the notice. A
 * takedown notice not answered is escalated after 5 business days. Business days are Monday to
 * Friday; holidays differ by country and are not counted out.
 */
const DAY = 86_400_000

const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()))
export const addDays = (d: Date, days: number) => new Date(startOfDay(d).getTime() + days * DAY)

/** `days` business days after `d` (a weekend day counts from the Monday after). */
export function addBusinessDays(d: Date, days: number): Date {
  let at = startOfDay(d)
  let left = days
  while (left > 0) {
    at = new Date(at.getTime() + DAY)
    const dow = at.getUTCDay()
    if (dow !== 0 && dow !== 6) left--
  }
  return at
}

/** Business days from `from` to `to` (0 when `to` is not later). */
export function businessDaysBetween(from: Date, to: Date): number {
  let count = 0
  for (let at = startOfDay(from); at < startOfDay(to);) {
    at = new Date(at.getTime() + DAY)
    const dow = at.getUTCDay()
    if (dow !== 0 && dow !== 6) count++
  }
  return count
}

export type Deadline = { key: 'udrp-response' | 'udrp-decision' | 'udrp-transfer' | 'urs-lock' | 'urs-response' | 'escalation'; due: Date }

export type ClockInput = {
  udrpCommencedAt?: Date | null
  udrpPanelAt?: Date | null
  udrpDecidedAt?: Date | null
  ursNoticedAt?: Date | null
  noticeSentAt?: Date | null
}

/** Every deadline a case's dates make, earliest first. */
export function deadlinesOf(c: ClockInput): Deadline[] {
  const out: Deadline[] = []
  if (c.udrpCommencedAt) out.push({ key: 'udrp-response', due: addDays(c.udrpCommencedAt, 20) })
  if (c.udrpPanelAt) out.push({ key: 'udrp-decision', due: addDays(c.udrpPanelAt, 14) })
  if (c.udrpDecidedAt) out.push({ key: 'udrp-transfer', due: addBusinessDays(c.udrpDecidedAt, 10) })
  if (c.ursNoticedAt) out.push({ key: 'urs-lock', due: new Date(c.ursNoticedAt.getTime() + DAY) }, { key: 'urs-response', due: addDays(c.ursNoticedAt, 14) })
  if (c.noticeSentAt) out.push({ key: 'escalation', due: addBusinessDays(c.noticeSentAt, ESCALATION_BUSINESS_DAYS) })
  return out.sort((a, b) => a.due.getTime() - b.due.getTime())
}

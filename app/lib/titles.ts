export const FALLBACK_PAGE_NAME = 'Portal'

/**
 * Page title of spec §2: the page name, then the path segments reversed, then the product short
 * name, joined with " - ".
 *
 * - A segment is a word of the route (`dns-log`) when `segmentLabel` knows it, and is shown by its
 *   translated label ("DNS log"). Any other segment is a parameter (an id, a token, a rule name):
 *   not a word, and never worth leaking into a tab title, so it is left out.
 * - The page name of a screen reached by words alone (/domains/dns-log) is the label of its last
 *   segment, whatever name the screen gives itself; so the title of every such screen is its path,
 *   read backwards, and two screens never name the same place differently. A screen whose path
 *   holds a parameter is about one thing (/domains/{id}/dnssec): its page name is that thing's
 *   name (the domain), else the fallback "Portal".
 * - An entry equal to the one before it is not repeated ("DNS log - DNS log - Domains"). Decision 017.
 */
export function pageTitle(input: {
  pageName?: string | null
  pathname: string
  productShortName: string
  /** The translated label of a route word, or null when the segment is not one (a parameter). */
  segmentLabel: (segment: string) => string | null
}): string {
  const raw = input.pathname.split('/').filter(Boolean).map(safeDecode)
  const labels = raw.map((segment) => input.segmentLabel(segment))
  const words = labels.filter((label): label is string => !!label)
  const hasParameter = words.length < labels.length
  const ownName = input.pageName?.trim() || null
  const pageName = (hasParameter ? ownName : (words.at(-1) ?? ownName)) ?? FALLBACK_PAGE_NAME
  const parts = [pageName, ...words.toReversed(), input.productShortName].filter(Boolean)
  return parts.filter((part, i) => i === 0 || part.toLocaleLowerCase() !== parts[i - 1]!.toLocaleLowerCase()).join(' - ')
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

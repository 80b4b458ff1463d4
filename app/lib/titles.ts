import { isUuid } from './context-param.ts'

export const FALLBACK_PAGE_NAME = 'Portal'

/**
 * Page title of spec §2: the page name, then the path segments reversed, then the product short
 * name, joined with " - ". Ids (UUIDs) are not words, so they are left out; a segment equal to
 * the entry before it is not repeated. `segmentLabel` translates a segment ("dns-log" → "DNS log").
 */
export function pageTitle(input: {
  pageName?: string | null
  pathname: string
  productShortName: string
  segmentLabel?: (segment: string) => string
}): string {
  const label = input.segmentLabel ?? humanizeSegment
  const segments = input.pathname
    .split('/')
    .filter((s) => s && !isUuid(s))
    .map((s) => label(safeDecode(s)))
    .reverse()
  const parts = [input.pageName?.trim() || FALLBACK_PAGE_NAME, ...segments, input.productShortName].filter(Boolean)
  return parts.filter((part, i) => i === 0 || part.toLowerCase() !== parts[i - 1]!.toLowerCase()).join(' - ')
}

/** "registrar-templates" → "Registrar templates". */
export function humanizeSegment(segment: string): string {
  const words = segment.replace(/[-_]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : words
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

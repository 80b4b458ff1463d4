import { cloneElement, Fragment, type ReactElement, type ReactNode } from 'react'

type Translate = (key: string, options?: Record<string, unknown>) => string

/**
 * A text with markup from the texts: `<mail>support</mail>` in the translation becomes the element
 * given as `components.mail` with the text inside. Plain tags, not nested; anything else stays text,
 * and React escapes it. The same on the server and in the browser.
 */
export function Trans({ t, i18nKey, values, components }: { t: Translate; i18nKey: string; values?: Record<string, unknown>; components: Record<string, ReactElement> }) {
  const text = t(i18nKey, values)
  const parts: ReactNode[] = []
  const tag = /<([a-z][a-z0-9]*)>([\s\S]*?)<\/\1>/g
  let last = 0
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    const element = components[match[1]!]
    if (!element) continue
    if (match.index > last) parts.push(text.slice(last, match.index))
    parts.push(cloneElement(element, { key: parts.length }, match[2]))
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return <Fragment>{parts}</Fragment>
}

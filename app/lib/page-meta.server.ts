import type { RouterContextProvider } from 'react-router'
import { getInstance } from './i18n.server.ts'
import { humanizeSegment, pageTitle } from './titles.ts'
import { requestUrl } from './request-url.ts'

export type PageMeta = { title: string; description: string }

/** Title (spec §2 rule) and description of a page, in the request's language. */
export function pageMeta(request: Request, context: Readonly<RouterContextProvider>, pageName?: string | null, description?: string): PageMeta {
  const i18n = getInstance(context)
  const t = i18n.getFixedT(i18n.language, 'common')
  const title = pageTitle({
    pageName,
    pathname: requestUrl(request).pathname,
    productShortName: t('app.shortName'),
    segmentLabel: (segment) => t(`segments.${segment}`, { defaultValue: humanizeSegment(segment) }),
  })
  return { title, description: description ?? t('app.description') }
}

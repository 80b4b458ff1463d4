import type { RouterContextProvider } from 'react-router'
import { getInstance } from './i18n.server.ts'
import { serverTexts } from './use-translation.ts'
import { pageTitle } from './titles.ts'
import { requestUrl } from './request-url.ts'

const ROUTE_WORD = /^[a-z][a-z0-9-]*$/

export type PageMeta = { title: string; description: string }

/** Title (spec §2 rule) and description of a page, in the request's language. */
export function pageMeta(request: Request, context: Readonly<RouterContextProvider>, pageName?: string | null, description?: string): PageMeta {
  const i18n = getInstance(context)
  const t = serverTexts(i18n, 'common')
  const title = pageTitle({
    pageName,
    pathname: requestUrl(request).pathname,
    productShortName: t('app.shortName'),
    // Route words are lower-case kebab (app/routes.ts); anything else is a parameter, not looked up.
    segmentLabel: (segment) => (ROUTE_WORD.test(segment) ? t(`segments.${segment}`, { defaultValue: '' }) || null : null),
  })
  return { title, description: description ?? t('app.description') }
}

import { getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/guide.ts'
import { docsContent } from './content.server.ts'
import { DocsSectionView, DocsTitle } from './docs-ui.tsx'

/**
 * The prose pages of the docs (public), one module for both: /api/context (accounts as contexts,
 * the 36-character rule, staff acting in an account) and /api/authentication (password and
 * two-factor sign-in, refresh, single sign-on, API tokens).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const all = docsContent(getLocale(context))
  const content = requestUrl(request).pathname.endsWith('/authentication') ? all.authentication : all.context
  return { content, meta: pageMeta(request, context, content.title, content.description) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ApiGuide({ loaderData }: Route.ComponentProps) {
  const { content } = loaderData
  return (
    <article>
      <DocsTitle title={content.title} lead={content.lead} />
      <nav aria-label={content.title} className="mb-8 flex flex-wrap gap-x-4 gap-y-1 text-sm print:hidden">
        {content.sections.map((section) => (
          <a key={section.id} href={`#${section.id}`} className="text-blue-700 hover:underline dark:text-blue-400">
            {section.title}
          </a>
        ))}
      </nav>
      {content.sections.map((section) => (
        <DocsSectionView key={section.id} section={section} />
      ))}
    </article>
  )
}

import { Link } from 'react-router'
import { getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { platformBaseUrl } from '#app/lib/platform.server.ts'
import { services } from '#app/lib/session.server.ts'
import type { Route } from './+types/overview.ts'
import { docsContent } from './content.server.ts'
import { CodeBlock, DocsPart, DocsTitle, Prose } from './docs-ui.tsx'
import { quickStart, QUICK_START_STEPS } from './quick-start.ts'

/** /api (public): what the API is, and a quick start whose commands a test runs as shown. */
export function loader({ request, context }: Route.LoaderArgs) {
  const content = docsContent(getLocale(context)).overview
  const steps = quickStart(platformBaseUrl(request, services(context).env))
  return { content, steps, meta: pageMeta(request, context, content.title, content.description) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ApiOverview({ loaderData }: Route.ComponentProps) {
  const { content, steps } = loaderData
  const next = [
    ['/api/context', content.next.context],
    ['/api/authentication', content.next.authentication],
    ['/api/reference', content.next.reference],
  ] as const
  return (
    <article>
      <DocsTitle title={content.title} lead={content.lead} />
      <ul className="mb-10 grid max-w-4xl gap-3 text-sm leading-relaxed text-slate-700 sm:grid-cols-2 dark:text-slate-300">
        {content.facts.map((fact, index) => (
          <li key={index} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
            <Prose text={fact} />
          </li>
        ))}
      </ul>
      <DocsPart id="quick-start" title={content.quickStartTitle} intro={content.quickStartIntro} className="max-w-4xl">
        <ol className="space-y-6">
          {QUICK_START_STEPS.map((step, index) => (
            <li key={step} id={`step-${step}`} className="grid scroll-mt-6 grid-cols-[1.75rem_1fr] gap-x-3">
              <span aria-hidden className="mt-0.5 flex size-6 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                {index + 1}
              </span>
              <div className="min-w-0 space-y-2">
                <h3 className="font-medium">{content.steps[step].title}</h3>
                <p className="text-sm leading-relaxed text-slate-600 dark:text-slate-400">
                  <Prose text={content.steps[step].text} />
                </p>
                <CodeBlock code={steps[step]} />
              </div>
            </li>
          ))}
        </ol>
      </DocsPart>
      <DocsPart id="next" title={content.nextTitle} className="max-w-3xl">
        <ul className="grid gap-3 sm:grid-cols-3">
          {next.map(([to, text]) => (
            <li key={to}>
              <Link
                to={to}
                className="block h-full rounded-lg border border-slate-200 p-3 text-sm hover:border-blue-400 hover:bg-blue-50/40 dark:border-slate-800 dark:hover:border-blue-700 dark:hover:bg-blue-950/30"
              >
                <span className="font-mono text-xs text-blue-700 dark:text-blue-400">{to}</span>
                <span className="mt-1 block text-slate-600 dark:text-slate-300">{text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </DocsPart>
    </article>
  )
}

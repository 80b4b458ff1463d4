import { data, Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { getLocale } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform, platformBaseUrl } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { services } from '#app/lib/session.server.ts'
import type { Route } from './+types/reference.ts'
import { docsContent } from './content.server.ts'
import { CodeBlock, DocsPart, DocsTitle } from './docs-ui.tsx'
import { exampleOf, referenceView, schemaAnchor, type OpenApiDocument, type ReferenceView } from './reference-model.ts'
import { Operation, SchemaFields } from './reference-view.tsx'

const QUERY_MAX = 200

/**
 * The last document read and its full view: the document is fetched from the API on every
 * request (the live one, never a copy), and parsed and grouped again only when its text changed.
 */
let last: { text: string; doc: OpenApiDocument; full?: ReferenceView } | null = null

/** /api/reference (public): the running platform's OpenAPI document, rendered on the server. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const words = docsContent(getLocale(context)).reference
  const query = (requestUrl(request).searchParams.get('q') ?? '').trim().slice(0, QUERY_MAX)
  const platform = await getPlatform(request, context)
  const response = await platform.raw('/openapi.json')
  if (!response.ok) throw data('The API document could not be read', { status: 502 })
  const text = await response.text()
  if (last?.text !== text) last = { text, doc: JSON.parse(text) as OpenApiDocument }
  const view = query ? referenceView(last.doc, query) : (last.full ??= referenceView(last.doc))
  return {
    words,
    view,
    download: `${platformBaseUrl(request, services(context).env)}/openapi.json`,
    meta: pageMeta(request, context, words.title, words.description),
  }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ApiReference({ loaderData }: Route.ComponentProps) {
  const { words, view, download } = loaderData
  const problem = view.schemas.Problem
  return (
    <article id="top" className="api-ref">
      <DocsTitle title={words.title} lead={words.description} />
      <div className="mb-6 flex flex-wrap items-end justify-between gap-3 print:hidden">
        <Form method="get" role="search" className="flex w-full max-w-lg items-end gap-2">
          <div className="flex-1">
            <label htmlFor="reference-q" className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
              {words.searchLabel}
            </label>
            <Input id="reference-q" type="search" name="q" defaultValue={view.query} maxLength={QUERY_MAX} placeholder={words.searchPlaceholder} />
          </div>
          <Button type="submit" variant="secondary">
            {words.search}
          </Button>
          {view.query ? (
            <a href="/api/reference" className="h-9 content-center px-1 text-sm text-blue-700 hover:underline dark:text-blue-400">
              {words.clear}
            </a>
          ) : null}
        </Form>
        <a href={download} download="openapi.json" className="text-sm font-medium text-blue-700 hover:underline dark:text-blue-400">
          {words.download}
        </a>
      </div>
      <p role="status" className="mb-4 text-sm text-slate-500 dark:text-slate-400">
        {view.title} {view.version} · {words.count.replace('{matched}', String(view.matched)).replace('{total}', String(view.total))}
      </p>
      {view.matched === 0 ? <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">{words.noMatch}</p> : null}

      {view.matched > 0 ? (
        <nav aria-label={words.contents} className="mb-8 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
          <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{words.areas}</h2>
          <ul className="columns-1 gap-6 text-sm sm:columns-2 lg:columns-3">
            {view.areas.map((area) => (
              <li key={area.id} className="break-inside-avoid py-0.5">
                <a href={`#${area.id}`} className="text-blue-700 hover:underline dark:text-blue-400">
                  {area.name}
                </a>{' '}
                <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">{area.operations.length}</span>
              </li>
            ))}
            {view.webhooks.length ? (
              <li className="break-inside-avoid py-0.5">
                <a href="#webhooks" className="text-blue-700 hover:underline dark:text-blue-400">
                  {words.webhooks}
                </a>{' '}
                <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">{view.webhooks.length}</span>
              </li>
            ) : null}
            <li className="break-inside-avoid py-0.5">
              <a href="#errors" className="text-blue-700 hover:underline dark:text-blue-400">
                {words.errorsTitle}
              </a>
            </li>
            <li className="break-inside-avoid py-0.5">
              <a href="#schemas" className="text-blue-700 hover:underline dark:text-blue-400">
                {words.schemas}
              </a>
            </li>
          </ul>
        </nav>
      ) : null}

      {view.areas.map((area) => (
        <DocsPart key={area.id} id={area.id} title={area.name}>
          <div className="space-y-4">
            {area.operations.map((op) => (
              <Operation key={op.id} op={op} schemas={view.schemas} words={words} />
            ))}
          </div>
        </DocsPart>
      ))}

      {view.webhooks.length ? (
        <DocsPart id="webhooks" title={words.webhooks} intro={words.webhooksIntro}>
          <div className="space-y-4">
            {view.webhooks.map((hook) => (
              <Operation key={hook.id} op={hook} schemas={view.schemas} words={words} event={hook.event} />
            ))}
          </div>
        </DocsPart>
      ) : null}

      {view.matched > 0 ? (
        <DocsPart id="errors" title={words.errorsTitle} intro={words.errorsIntro} className="max-w-3xl">
          {problem ? (
            <>
              <SchemaFields schema={{ $ref: '#/components/schemas/Problem' }} schemas={view.schemas} words={words} />
              <div className="mt-3">
                <CodeBlock
                  code={JSON.stringify(
                    {
                      ...(exampleOf(problem, view.schemas) as object),
                      type: 'about:blank',
                      title: 'Bad Request',
                      status: 400,
                      detail: 'The request is not valid',
                      code: 'invalid-request',
                      errors: [{ field: 'name', message: 'Required' }],
                    },
                    null,
                    2,
                  )}
                />
              </div>
            </>
          ) : null}
        </DocsPart>
      ) : null}

      {view.matched > 0 ? (
        <DocsPart id="schemas" title={words.schemas} intro={words.schemasIntro}>
          <div className="space-y-4">
            {Object.keys(view.schemas)
              .sort((a, b) => a.localeCompare(b))
              .map((name) => (
                <section key={name} id={schemaAnchor(name)} aria-label={name} className="scroll-mt-6 rounded-xl border border-slate-200 p-4 print:break-inside-avoid-page dark:border-slate-800">
                  <h3 className="mb-2 font-mono text-sm font-semibold">
                    <a href={`#${schemaAnchor(name)}`} className="hover:underline">
                      {name}
                    </a>
                  </h3>
                  {view.schemas[name]!.description ? <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">{view.schemas[name]!.description}</p> : null}
                  <SchemaFields schema={view.schemas[name]!} schemas={view.schemas} words={words} />
                </section>
              ))}
          </div>
          <p className="mt-6 text-sm print:hidden">
            <a href="#top" className="text-blue-700 hover:underline dark:text-blue-400">
              {words.backToTop}
            </a>
          </p>
        </DocsPart>
      ) : null}
    </article>
  )
}

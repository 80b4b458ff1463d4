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
import type { DocsContent } from './content/types.ts'
import { CodeBlock, DocsPart, DocsTitle } from './docs-ui.tsx'
import {
  exampleOf,
  FULL_MATCHES,
  REFERENCE_PARTS,
  REFERENCE_PATH,
  referenceContents,
  referenceHref,
  referencePart,
  referenceView,
  schemaAnchor,
  schemaHref,
  type OpenApiDocument,
  type OperationLink,
  type ReferenceContents,
  type ReferencePart,
  type ReferenceView,
} from './reference-model.ts'
import { MethodBadge, Operation, SchemaFields } from './reference-view.tsx'

const QUERY_MAX = 200

type Words = DocsContent['reference']

/**
 * The last document read and what was made of it, built once: every request asks the API whether
 * the document changed (a conditional GET with its ETag: 304 while it is the same, so the live one,
 * never a stale copy, without its ~700 KB read again), and it is parsed, grouped and cut into pages
 * again only when it did. At most one entry per page of the reference is kept (its areas and three more).
 */
let last: { etag: string | null; text: string; doc: OpenApiDocument; full?: ReferenceView; contents?: ReferenceContents; parts: Map<string, ReferencePart> } | null = null

/**
 * /api/reference (public): the running platform's OpenAPI document, rendered on the server in
 * pages (issue 34: the whole reference was 2 MB in one document). The first page lists every
 * operation as a link to its area's page (/api/reference/<area>), where it is rendered in full
 * with the schemas it reaches; the webhook events, the errors and every schema have a page each.
 * A search of at most FULL_MATCHES operations shows them in full here; more are listed as links.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const words = docsContent(getLocale(context)).reference
  const query = (requestUrl(request).searchParams.get('q') ?? '').trim().slice(0, QUERY_MAX)
  const platform = await getPlatform(request, context)
  const response = await platform.raw('/openapi.json', last?.etag ? { headers: { 'If-None-Match': last.etag } } : {})
  if (response.status === 304 && last) await response.body?.cancel()
  else if (!response.ok) throw data('The API document could not be read', { status: 502 })
  else {
    const text = await response.text()
    if (last?.text !== text) last = { etag: response.headers.get('ETag'), text, doc: JSON.parse(text) as OpenApiDocument, parts: new Map() }
    else last.etag = response.headers.get('ETag')
  }
  const full = (last.full ??= referenceView(last.doc))
  const download = `${platformBaseUrl(request, services(context).env)}/openapi.json`
  const section = params.section
  if (section !== undefined) {
    const part = last.parts.get(section) ?? referencePart(full, last.doc, section)
    if (!part) throw data(`Page Not Found ${requestUrl(request).pathname}`, { status: 404 })
    last.parts.set(section, part)
    return { page: 'part' as const, words, part, download, meta: pageMeta(request, context, partTitle(part, words), words.description) }
  }
  const meta = pageMeta(request, context, words.title, words.description)
  if (query) {
    const view = referenceView(last.doc, query)
    if (view.matched <= FULL_MATCHES) return { page: 'found' as const, words, view, download, meta }
    return { page: 'contents' as const, words, contents: referenceContents(view), download, meta }
  }
  return { page: 'contents' as const, words, contents: (last.contents ??= referenceContents(full)), download, meta }
}

const partTitle = (part: ReferencePart, words: Words) =>
  part.kind === 'area' ? part.name : part.kind === 'webhooks' ? words.webhooks : part.kind === 'errors' ? words.errorsTitle : part.name ? `${words.schemas}: ${part.name}` : words.schemas

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const linkClass = 'text-blue-700 hover:underline dark:text-blue-400'

export default function ApiReference({ loaderData }: Route.ComponentProps) {
  if (loaderData.page === 'part') return <PartPage part={loaderData.part} words={loaderData.words} download={loaderData.download} />
  const { words, download } = loaderData
  const view = loaderData.page === 'found' ? loaderData.view : loaderData.contents
  return (
    <article id="top" className="api-ref">
      <DocsTitle title={words.title} lead={words.description} />
      <SearchBar words={words} query={view.query} download={download} />
      <p role="status" className="mb-4 text-sm text-slate-500 dark:text-slate-400">
        {view.title} {view.version} · {words.count.replace('{matched}', String(view.matched)).replace('{total}', String(view.total))}
      </p>
      {view.matched === 0 ? <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">{words.noMatch}</p> : null}
      {loaderData.page === 'found' ? <FoundPage view={loaderData.view} words={words} /> : <ContentsPage contents={loaderData.contents} words={words} />}
    </article>
  )
}

function SearchBar({ words, query, download }: { words: Words; query: string; download: string }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3 print:hidden">
      <Form method="get" action={REFERENCE_PATH} role="search" className="flex w-full max-w-lg items-end gap-2">
        <div className="flex-1">
          <label htmlFor="reference-q" className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-400">
            {words.searchLabel}
          </label>
          <Input id="reference-q" type="search" name="q" defaultValue={query} maxLength={QUERY_MAX} placeholder={words.searchPlaceholder} />
        </div>
        <Button type="submit" variant="secondary">
          {words.search}
        </Button>
        {query ? (
          <a href={REFERENCE_PATH} className="h-9 content-center px-1 text-sm text-blue-700 hover:underline dark:text-blue-400">
            {words.clear}
          </a>
        ) : null}
      </Form>
      <a href={download} download="openapi.json" className="text-sm font-medium text-blue-700 hover:underline dark:text-blue-400">
        {words.download}
      </a>
    </div>
  )
}

/** The contents (with the areas, webhooks, errors and schemas) at the top of a page of lists or entries. */
function Contents({ words, items }: { words: Words; items: { href: string; label: string; count?: number }[] }) {
  return (
    <nav aria-label={words.contents} className="mb-8 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">{words.areas}</h2>
      <ul className="columns-1 gap-6 text-sm sm:columns-2 lg:columns-3">
        {items.map((item) => (
          <li key={item.href} className="break-inside-avoid py-0.5">
            <a href={item.href} className={linkClass}>
              {item.label}
            </a>
            {item.count === undefined ? null : (
              <>
                {' '}
                <span className="text-xs tabular-nums text-slate-500 dark:text-slate-400">{item.count}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * A list of operations, each a link to its full entry on the page `href`; the line keeps the
 * entry's anchor, so an old deep link (/api/reference#get-v1-…) lands on it. Its look is
 * `.api-ops` in app/app.css: some 240 lines on the first page, without a class list each.
 */
function OperationLinks({ operations, href, anchors = true }: { operations: OperationLink[]; href: string; anchors?: boolean }) {
  return (
    <ul className="api-ops">
      {operations.map((op) => (
        <li key={op.id} id={anchors ? op.id : undefined}>
          <MethodBadge method={op.method} />
          <a href={`${href}#${op.id}`}>{op.path}</a>
          <span>{op.summary}</span>
        </li>
      ))}
    </ul>
  )
}

/** The first page: every operation the search keeps, by area, each a link to its area's page. */
function ContentsPage({ contents, words }: { contents: ReferenceContents; words: Words }) {
  if (contents.matched === 0) return null
  return (
    <>
      <Contents
        words={words}
        items={[
          ...contents.areas.map((area) => ({ href: `#${area.id}`, label: area.name, count: area.operations.length })),
          ...(contents.webhooks.length ? [{ href: '#webhooks', label: words.webhooks, count: contents.webhooks.length }] : []),
          { href: referenceHref(REFERENCE_PARTS.errors), label: words.errorsTitle },
          { href: '#schemas', label: words.schemas },
        ]}
      />
      <p className="mb-6 max-w-3xl text-sm text-slate-600 dark:text-slate-400">{words.listed}</p>
      {contents.areas.map((area) => (
        <PartLinks key={area.id} id={area.id} title={area.name} href={area.href}>
          <OperationLinks operations={area.operations} href={area.href} />
        </PartLinks>
      ))}
      {contents.webhooks.length ? (
        <PartLinks id="webhooks" title={words.webhooks} href={referenceHref(REFERENCE_PARTS.webhooks)}>
          <OperationLinks operations={contents.webhooks} href={referenceHref(REFERENCE_PARTS.webhooks)} />
        </PartLinks>
      ) : null}
      <PartLinks id="schemas" title={words.schemas} href={referenceHref(REFERENCE_PARTS.schemas)}>
        <SchemaNames names={contents.schemas} />
      </PartLinks>
    </>
  )
}

/**
 * Schemas by name, each a link to its entry on its letter's page; the line keeps the entry's
 * anchor, so an old deep link (/api/reference#schema-…, /api/reference/schemas#schema-…) lands on it.
 */
function SchemaNames({ names }: { names: string[] }) {
  return (
    <ul className="api-names">
      {names.map((name) => (
        <li key={name} id={schemaAnchor(name)}>
          <a href={schemaHref(name)}>{name}</a>
        </li>
      ))}
    </ul>
  )
}

/** A part of the contents: its heading links to the part's own page. */
function PartLinks({ id, title, href, children }: { id: string; title: string; href: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="mb-8 scroll-mt-6">
      <h2 id={`${id}-title`} className="mb-3 text-lg font-semibold tracking-tight">
        <a href={href} className="hover:underline">
          {title}
        </a>
      </h2>
      {children}
    </section>
  )
}

/** The errors every refusal shares: the Problem's fields and an example. */
function ErrorsPart({ view, words, bare = false }: { view: ReferenceView; words: Words; bare?: boolean }) {
  const problem = view.schemas.Problem
  const content = problem ? (
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
  ) : null
  // On the errors' own page the page's title and lead say what the part's heading would.
  if (bare) return <div className="mb-10 max-w-3xl">{content}</div>
  return (
    <DocsPart id="errors" title={words.errorsTitle} intro={words.errorsIntro} className="max-w-3xl">
      {content}
    </DocsPart>
  )
}

/** The schemas of a page, each once, in name order. */
function SchemasPart({ view, words, bare = false }: { view: ReferenceView; words: Words; bare?: boolean }) {
  const names = Object.keys(view.schemas).sort((a, b) => a.localeCompare(b))
  if (names.length === 0) return null
  const content = (
    <>
      <div className="space-y-4">
        {names.map((name) => (
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
        <a href="#top" className={linkClass}>
          {words.backToTop}
        </a>
      </p>
    </>
  )
  // On the schemas' own page the page's title and lead say what the part's heading would.
  if (bare) return <div id="schemas">{content}</div>
  return (
    <DocsPart id="schemas" title={words.schemas} intro={words.schemasIntro}>
      {content}
    </DocsPart>
  )
}

/** A search of a few operations: each in full, then the errors and the schemas they reach. */
function FoundPage({ view, words }: { view: ReferenceView; words: Words }) {
  if (view.matched === 0) return null
  return (
    <>
      <Contents
        words={words}
        items={[
          ...view.areas.map((area) => ({ href: `#${area.id}`, label: area.name, count: area.operations.length })),
          ...(view.webhooks.length ? [{ href: '#webhooks', label: words.webhooks, count: view.webhooks.length }] : []),
          { href: '#errors', label: words.errorsTitle },
          { href: '#schemas', label: words.schemas },
        ]}
      />
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
      <ErrorsPart view={view} words={words} />
      <SchemasPart view={view} words={words} />
    </>
  )
}

/** One page of the reference: an area's operations in full, the webhook events, the errors or every schema. */
function PartPage({ part, words, download }: { part: ReferencePart; words: Words; download: string }) {
  const { view } = part
  const errorsHref = referenceHref(REFERENCE_PARTS.errors)
  const listed: OperationLink[] = [...view.areas.flatMap((area) => area.operations), ...view.webhooks.map((hook) => ({ ...hook, path: hook.event }))].map((op) => ({
    id: op.id,
    method: op.method,
    path: op.path,
    summary: op.summary,
  }))
  return (
    <article id="top" className="api-ref">
      <p className="mb-2 text-sm print:hidden">
        <a href={REFERENCE_PATH} className={linkClass}>
          {words.allAreas}
        </a>
      </p>
      <DocsTitle
        title={partTitle(part, words)}
        lead={part.kind === 'webhooks' ? words.webhooksIntro : part.kind === 'errors' ? words.errorsIntro : part.kind === 'schemas' ? words.schemasIntro : undefined}
      />
      <SearchBar words={words} query="" download={download} />
      {/* The page's own contents: its operations or events as lines, each leading to its entry below. */}
      {listed.length > 1 ? (
        <nav aria-label={words.contents} className="mb-8">
          <OperationLinks operations={listed} href="" anchors={false} />
        </nav>
      ) : null}
      {view.areas.map((area) => (
        <div key={area.id} id={area.id} className="mb-10 space-y-4">
          {area.operations.map((op) => (
            <Operation key={op.id} op={op} schemas={view.schemas} words={words} errorsHref={errorsHref} />
          ))}
        </div>
      ))}
      {view.webhooks.length ? (
        <div id="webhooks" className="mb-10 space-y-4">
          {view.webhooks.map((hook) => (
            <Operation key={hook.id} op={hook} schemas={view.schemas} words={words} event={hook.event} />
          ))}
        </div>
      ) : null}
      {part.kind === 'schemas' && !part.name && part.names ? <SchemaNames names={part.names} /> : null}
      {part.kind === 'errors' ? <ErrorsPart view={view} words={words} bare /> : null}
      <SchemasPart view={view} words={words} bare={part.kind === 'schemas'} />
    </article>
  )
}

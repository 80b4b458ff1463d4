import { Fragment, type ReactNode } from 'react'
import { cn } from '#app/lib/utils.ts'
import type { DocsContent } from './content/types.ts'
import { CodeBlock, Prose } from './docs-ui.tsx'
import { constraints, exampleOf, fieldsOf, refName, resolve, schemaAnchor, typeLabel, type BodyView, type OperationView, type ResponseView, type Schema } from './reference-model.ts'

type Words = DocsContent['reference']
type Schemas = Record<string, Schema>

/** An operation's method: its look (and colour by method) from `.api-method` in app/app.css. */
export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span className={cn('api-method', className)} data-method={method}>
      {method}
    </span>
  )
}

/** Who may call the operation, from its `x-permission` (and `x-session-only`: no API token). */
export function PermissionBadge({ permission, sessionOnly = false, words }: { permission: string | null; sessionOnly?: boolean; words: Words }) {
  const text = permission === 'public' ? words.permissionPublic : permission === 'signed-in' ? words.permissionSignedIn : (permission ?? words.permissionUndeclared)
  const tone =
    permission === 'public'
      ? 'bg-slate-50 text-slate-700 ring-slate-200 dark:bg-slate-800/60 dark:text-slate-300 dark:ring-slate-700'
      : 'bg-violet-50 text-violet-800 ring-violet-200 dark:bg-violet-950/60 dark:text-violet-200 dark:ring-violet-900'
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
      {words.permission}
      <span className={cn('rounded-md px-1.5 py-0.5 font-medium ring-1 ring-inset', permission && permission !== 'public' && permission !== 'signed-in' && 'font-mono', tone)}>{text}</span>
      {sessionOnly ? (
        <span className="rounded-md bg-amber-50 px-1.5 py-0.5 font-medium text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-900">
          {words.permissionSessionOnly}
        </span>
      ) : null}
    </span>
  )
}

/** A field's type with the named schemas it uses as links to them. */
function TypeOf({ schema }: { schema: Schema }): ReactNode {
  if (schema.$ref) {
    const name = refName(schema.$ref)
    return (
      <a href={`#${schemaAnchor(name)}`} className="ref">
        {name}
      </a>
    )
  }
  const variants = schema.oneOf ?? schema.anyOf
  if (variants) {
    return variants.map((variant, index) => (
      <Fragment key={index}>
        {index > 0 ? ' | ' : null}
        <TypeOf schema={variant} />
      </Fragment>
    ))
  }
  if (schema.type === 'array' && schema.items) {
    return (
      <>
        <TypeOf schema={schema.items} />
        []
      </>
    )
  }
  return typeLabel(schema)
}

/** Nested object fields shown inline: an object written in place, or an array of them. */
function inlineObject(schema: Schema): Schema | null {
  const own = schema.type === 'array' && schema.items ? schema.items : schema
  return !own.$ref && (own.properties || own.allOf) ? own : null
}

function FieldRows({ schema, schemas, words, depth }: { schema: Schema; schemas: Schemas; words: Words; depth: number }) {
  return fieldsOf(schema, schemas).map(([name, field, required]) => {
    const nested = depth < 4 ? inlineObject(field) : null
    const limits = constraints(field)
    return (
      <Fragment key={name}>
        <tr data-depth={depth || undefined}>
          <td>
            <code>{name}</code>
            <span className={required ? 'req' : 'opt'}>{required ? words.required : words.optional}</span>
          </td>
          <td className="type">
            <TypeOf schema={field} />
          </td>
          <td>
            {field.description ? <Prose text={field.description} /> : null}
            {limits.length ? <span className="limits">{limits.join(' · ')}</span> : null}
          </td>
        </tr>
        {nested ? <FieldRows schema={nested} schemas={schemas} words={words} depth={depth + 1} /> : null}
      </Fragment>
    )
  })
}

const tableClass = 'api-fields'

/** A schema as a table of its fields (nested objects indented, named schemas linked). */
export function SchemaFields({ schema, schemas, words }: { schema: Schema; schemas: Schemas; words: Words }) {
  const own = resolve(schema, schemas)
  const variants = own.oneOf ?? own.anyOf
  if (variants && !own.properties) {
    return (
      <div className="space-y-2">
        <p className="text-xs text-slate-500 dark:text-slate-400">{words.oneOf}</p>
        {variants.map((variant, index) => (
          <div key={index} className="rounded-md border border-slate-200 p-2 dark:border-slate-800">
            <SchemaFields schema={variant} schemas={schemas} words={words} />
          </div>
        ))}
      </div>
    )
  }
  const object = inlineObject(own) ?? (own.type === 'array' && own.items?.$ref ? resolve(own.items, schemas) : own)
  if (fieldsOf(object, schemas).length === 0) {
    return (
      <p className="type text-slate-600 dark:text-slate-400">
        <TypeOf schema={schema} />
      </p>
    )
  }
  return (
    <div className="overflow-x-auto">
      <table className={tableClass}>
        <thead>
          <tr>
            <th className="w-1/4">{words.field}</th>
            <th className="w-1/4">{words.type}</th>
            <th>{words.descriptionColumn}</th>
          </tr>
        </thead>
        <tbody>
          <FieldRows schema={object} schemas={schemas} words={words} depth={0} />
        </tbody>
      </table>
    </div>
  )
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/** A body: its media type and schema, the fields when `fields` (request bodies), and an example. */
function Body({ body, schemas, words, heading, fields }: { body: BodyView; schemas: Schemas; words: Words; heading: ReactNode; fields: boolean }) {
  const example = body.example ?? (body.schema ? exampleOf(body.schema, schemas) : null)
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
        {heading}
        {body.mediaType ? <code className="font-mono text-[12px] text-slate-500 dark:text-slate-400">{body.mediaType}</code> : null}
        {body.schema && (body.schema.$ref || !fields) ? (
          <span className="type">
            <TypeOf schema={body.schema} />
          </span>
        ) : null}
      </div>
      {body.schema && fields ? <SchemaFields schema={body.schema} schemas={schemas} words={words} /> : null}
      {body.schema ? (
        <div>
          <p className="mb-1 text-xs font-medium text-slate-500 dark:text-slate-400">{words.example}</p>
          <CodeBlock code={json(example)} />
        </div>
      ) : null}
    </div>
  )
}

const sectionTitle = 'mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400'

function Answer({ response, schemas, words }: { response: ResponseView; schemas: Schemas; words: Words }) {
  const heading = (
    <>
      <span
        className={cn(
          'rounded px-1.5 font-mono text-[12px] font-semibold',
          response.status.startsWith('2') ? 'bg-emerald-50 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200' : 'bg-amber-50 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200',
        )}
      >
        {response.status}
      </span>
      <span className="text-slate-700 dark:text-slate-300">{response.description}</span>
    </>
  )
  if (!response.schema) return <div className="flex flex-wrap items-baseline gap-x-2 text-sm">{heading}</div>
  // An answer names its schema (a link to it under Schemas) and shows an example; its fields are
  // listed once there, not again under every operation that answers it.
  return <Body body={response} schemas={schemas} words={words} heading={heading} fields={false} />
}

/**
 * One operation: its anchor, summary, permission, parameters, body, answers and error answers. A
 * webhook event (`event`) is the call we make to the reader: named by the event, no permission.
 */
export function Operation({ op, schemas, words, event, errorsHref = '#errors' }: { op: OperationView; schemas: Schemas; words: Words; event?: string; errorsHref?: string }) {
  // A webhook's answers are the reader's own (410 disables the endpoint): listed as they are.
  const errors = event ? [] : op.responses.filter((r) => r.isProblem || Number(r.status) >= 400)
  const answers = op.responses.filter((r) => !errors.includes(r))
  return (
    <section
      id={op.id}
      aria-labelledby={`${op.id}-title`}
      className="scroll-mt-6 rounded-xl border border-slate-200 bg-white p-4 print:break-inside-avoid-page sm:p-5 dark:border-slate-800 dark:bg-slate-950"
    >
      <h3 id={`${op.id}-title`} className="flex min-w-0 items-start gap-2">
        <MethodBadge method={op.method} className="mt-0.5" />
        <a href={`#${op.id}`} className="min-w-0 break-all font-mono text-[13px] font-medium hover:underline">
          {event ?? op.path}
        </a>
        {op.deprecated ? <span className="text-xs text-amber-700 dark:text-amber-400">{words.deprecated}</span> : null}
      </h3>
      {op.summary ? <p className="mt-2 text-[15px] text-slate-800 dark:text-slate-200">{op.summary}</p> : null}
      {op.description ? (
        <p className="mt-1 text-sm leading-relaxed text-slate-600 dark:text-slate-400">
          <Prose text={op.description} />
        </p>
      ) : null}
      {event ? null : (
        <div className="mt-3">
          <PermissionBadge permission={op.permission} sessionOnly={op.sessionOnly} words={words} />
        </div>
      )}
      {op.parameters.length ? (
        <div className="mt-4">
          <h4 className={sectionTitle}>{words.parameters}</h4>
          <div className="overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className="w-1/4">{words.field}</th>
                  <th className="w-16">{words.in}</th>
                  <th className="w-1/5">{words.type}</th>
                  <th>{words.descriptionColumn}</th>
                </tr>
              </thead>
              <tbody>
                {op.parameters.map((p) => (
                  <tr key={`${p.in}:${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                      <span className={p.required ? 'req' : 'opt'}>{p.required ? words.required : words.optional}</span>
                    </td>
                    <td className="text-xs">{p.in}</td>
                    <td className="type">
                      <TypeOf schema={p.schema} />
                    </td>
                    <td>
                      {p.description ? <Prose text={p.description} /> : null}
                      {p.schema.example !== undefined ? <span className="limits">{json(p.schema.example)}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      {op.body ? (
        <div className="mt-4">
          <h4 className={sectionTitle}>{words.requestBody}</h4>
          <Body body={op.body} schemas={schemas} words={words} heading={null} fields />
        </div>
      ) : null}
      {answers.length ? (
        <div className="mt-4 space-y-3">
          <h4 className={sectionTitle}>{words.responses}</h4>
          {answers.map((response) => (
            <Answer key={response.status} response={response} schemas={schemas} words={words} />
          ))}
        </div>
      ) : null}
      {errors.length ? (
        <div className="mt-4">
          <h4 className={sectionTitle}>{words.errorAnswers}</h4>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {errors.map((response, index) => (
              <Fragment key={response.status}>
                {index > 0 ? ' · ' : null}
                <a href={errorsHref} className="ref type font-semibold">
                  {response.status}
                </a>{' '}
                {response.description}
              </Fragment>
            ))}
          </p>
        </div>
      ) : null}
    </section>
  )
}

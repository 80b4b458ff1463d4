/**
 * The Platform API's operations as types, read from the API's own OpenAPI document
 * (common/api/openapi.ts, written by `npm run api-types`; decision 023). The platform client's
 * get/post/put/patch/delete take an operation's path template as the document writes it (without
 * the /v1 the client's base address carries) and answer that operation's success body: a path the
 * document lacks, a missing path parameter, an unknown query name or a body of the wrong shape is a
 * type error. A screen that needs a narrower shape derives it from these (`Answer<…>['data'][number]`),
 * never writes it again.
 */
import type { components, paths } from '#common/api/openapi.ts'

/** The document's paths as the client writes them: /v1 is the base address's. */
type Documented = { [P in keyof paths as P extends `/v1${infer Rest}` ? Rest : never]: paths[P] }

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** The path templates that have an operation for `M`. */
export type ApiPath<M extends Method = Method> = { [P in keyof Documented]: Documented[P][M] extends { responses: object } ? P : never }[keyof Documented]

export type Operation<P extends ApiPath<M>, M extends Method> = Extract<Documented[P][M], { responses: object }>

type SuccessCode = 200 | 201 | 202 | 204
type Body<R> = R extends { content: infer C } ? (C extends { 'application/json': infer J } ? J : C[keyof C]) : undefined
type Success<O> = O extends { responses: infer R } ? { [S in keyof R & SuccessCode]: Body<R[S]> }[keyof R & SuccessCode] : never

/** The success answer of an operation: `Answer<'/groups/{context}/domains/{id}'>`. */
export type Answer<P extends ApiPath<M>, M extends Method = 'get'> = Success<Operation<P, M>>

/** A body of one of the media types an operation takes: JSON as typed; another (text/dns) also as a Blob or File, streamed. */
type MediaBody<C> = { [K in keyof C]: K extends 'application/json' ? C[K] : C[K] | Blob }[keyof C]

/** The request body of an operation (JSON, or another media type it declares). */
export type RequestBody<P extends ApiPath<M>, M extends Method> = Operation<P, M> extends { requestBody?: { content: infer C } } ? MediaBody<C> : never

/** A named schema of the document. */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N]

export type ListMeta = Schema<'ListMeta'>
/** A page of a list resource as the list engine reads it: rows are projected by `fields`. */
export type ListPage = { data: Record<string, unknown>[]; meta: ListMeta }

type Parameters<O> = O extends { parameters: infer Ps } ? Ps : never
type PathParams<O> = Parameters<O> extends { path: infer X } ? X : never
type QueryParams<O> = NonNullable<Parameters<O> extends { query?: infer Q } ? Q : never>
/** Query values as callers hold them: a string parameter also takes a number or a boolean. */
type QueryValue<V> = V extends string ? (string extends V ? string | number | boolean : V) : V
/** A list operation (spec §7) also takes `filter[field]` beside its declared parameters. */
type ListFilters<O> = QueryParams<O> extends { pql?: unknown } ? { [K in `filter[${string}]`]?: string | number } : unknown
/** A list's `fields` is typed by its literal (`'id,name'`) so the answer's rows carry those fields (see Projected). */
type Query<O> = [QueryParams<O>] extends [never] ? never : { [K in Exclude<keyof QueryParams<O>, 'fields'>]?: QueryValue<QueryParams<O>[K]> | null } & ListFilters<O>
type Fields<O> = 'fields' extends keyof QueryParams<O> ? unknown : never

/** A path parameter the route may not have matched (React Router types them optional): a missing one throws. */
type PathPart<O> = [PathParams<O>] extends [never] ? { path?: never } : { path: { [K in keyof PathParams<O>]: PathParams<O>[K] | undefined } }
type BodyPart<O> = O extends { requestBody: { content: infer C } } ? { body: MediaBody<C> } : O extends { requestBody?: { content: infer C } } ? { body?: MediaBody<C> } : { body?: never }

/** What a call says beside its path: path parameters, query, body, and the transport's options. */
export type Init<O, F extends string = string> = PathPart<O> &
  BodyPart<O> & {
    query?: Query<O> & { fields?: F & Fields<O> }
    headers?: HeadersInit
    /** Queued ahead of ordinary calls when the channel is full. */
    priority?: boolean
    signal?: AbortSignal
  }

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]
/** The init argument, required when the operation has path parameters or a required body. */
export type InitArgs<O> = [RequiredKeys<Init<O>>] extends [never] ? [init?: Init<O>] : [init: Init<O>]
/** The paths of `M` whose operation needs no init (no path parameter, no required body). */
export type BarePath<M extends Method> = { [P in ApiPath<M>]: [RequiredKeys<Init<Operation<P, M>>>] extends [never] ? P : never }[ApiPath<M>]

type Split<S extends string> = S extends `${infer Head},${infer Tail}` ? Head | Split<Tail> : S
type TopLevel<S extends string> = S extends `${infer Parent}.${string}` ? Parent : S
/**
 * A list answer's rows as a call asked for them: the document types a row's fields optional, as
 * `fields` may project any of them away; without `fields` every field comes, with a literal
 * `fields` (`'id,name'`) those do (a nested field brings its parent), with another string any may be missing.
 */
export type Projected<A, F extends string> = A extends { data: readonly (infer R)[] }
  ? Omit<A, 'data'> & { data: ([F] extends [never] ? Required<R> : string extends F ? R : R & Required<Pick<R, TopLevel<Split<F>> & keyof R>>)[] }
  : A
/** A row of a list answer as a call asked for it (see Projected). */
export type ProjectedRow<A, F extends string> = Projected<A, F> extends { data: readonly (infer R)[] } ? R : never
/** A row of a list operation as it comes without `fields` (every field): `Row<'/groups/{context}/contacts'>`. */
export type Row<P extends ApiPath<'get'>> = ProjectedRow<Answer<P>, never>

/** The path template with its parameters filled in, each encoded as one segment. */
export function fillPath(template: string, params: Record<string, string | number> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined || value === '') throw new TypeError(`platform call ${template}: path parameter ${name} is missing`)
    return encodeURIComponent(String(value))
  })
}

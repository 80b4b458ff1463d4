import { describe, expect, it } from 'vitest'
import { areaSlug, exampleOf, fieldsOf, referenceContents, referencePart, referenceView, typeLabel, type OpenApiDocument, type Schema } from './reference-model.ts'

const problem = { description: 'Not found', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } }
const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {
    '/v1/groups/{context}/domains': {
      get: {
        tags: ['Domains'],
        summary: 'Domains of the account',
        'x-permission': 'domain-viewer',
        parameters: [{ name: 'context', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: '#/components/schemas/Domain' } } } }, 404: problem },
      },
    },
    '/v1/login': {
      post: {
        tags: ['Authentication'],
        summary: 'Sign in',
        'x-permission': 'public',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Login' } } } },
        responses: { 200: { description: 'OK' } },
      },
    },
  },
  webhooks: {
    'domain.registered': {
      post: {
        summary: 'A domain was registered',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/DomainEvent' } } } },
        responses: { 200: { description: 'Received' } },
      },
    },
  },
  components: {
    schemas: {
      Domain: {
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string', example: 'acme.com' }, expires_at: { type: ['string', 'null'] } },
        required: ['id', 'name'],
      },
      Login: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } }, required: ['username', 'password'] },
      DomainEvent: { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: { $ref: '#/components/schemas/Domain' } }, required: ['data'] }] },
      Envelope: { type: 'object', properties: { type: { type: 'string', enum: ['domain.registered'] }, timestamp: { type: 'string', format: 'date-time' } }, required: ['type'] },
      Problem: { type: 'object', properties: { status: { type: 'integer' } } },
      Unused: { type: 'object' },
    },
  },
}

describe('the reference view', () => {
  it('groups operations by area, keeps their permission, error answers and the schemas they reach, and renders webhooks', () => {
    const view = referenceView(doc)
    expect(view.total).toBe(3)
    expect(view.areas.map((a) => [a.name, a.operations.map((op) => op.id)])).toEqual([
      ['Authentication', ['post-v1-login']],
      ['Domains', ['get-v1-groups-context-domains']],
    ])
    const list = view.areas[1]!.operations[0]!
    expect(list.permission).toBe('domain-viewer')
    expect(list.responses.map((r) => [r.status, r.isProblem])).toEqual([
      ['200', false],
      ['404', true],
    ])
    expect(view.webhooks.map((w) => [w.event, w.id])).toEqual([['domain.registered', 'webhook-domain-registered']])
    expect(Object.keys(view.schemas).sort()).toEqual(['Domain', 'DomainEvent', 'Envelope', 'Login', 'Problem'])
  })

  it('searches every word in path, summary, area and permission', () => {
    expect(referenceView(doc, 'PUBLIC sign').areas.flatMap((a) => a.operations.map((op) => op.id))).toEqual(['post-v1-login'])
    expect(referenceView(doc, 'domain-viewer').matched).toBe(1)
    expect(referenceView(doc, 'nothing like this').matched).toBe(0)
  })

  it('reads schemas as fields, types and examples', () => {
    const schemas = doc.components!.schemas!
    const event: Schema = { $ref: '#/components/schemas/DomainEvent' }
    expect(fieldsOf(event, schemas).map(([name, , required]) => [name, required])).toEqual([
      ['type', true],
      ['timestamp', false],
      ['data', true],
    ])
    expect(exampleOf(event, schemas)).toEqual({
      type: 'domain.registered',
      timestamp: '2026-01-31T12:00:00.000Z',
      data: { id: '0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a', name: 'acme.com', expires_at: '2026-01-31T12:00:00.000Z' },
    })
    expect(typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Domain' } })).toBe('Domain[]')
    expect(typeLabel({ type: ['string', 'null'], format: 'uuid' })).toBe('string (uuid) | null')
  })

  it('cuts the reference into pages: contents of links, an area with the schemas it reaches, the webhooks, the errors, every schema', () => {
    const full = referenceView(doc)
    const contents = referenceContents(full)
    expect(contents.areas.map((a) => [a.href, a.operations.map((op) => op.id)])).toEqual([
      ['/api/reference/authentication', ['post-v1-login']],
      ['/api/reference/domains', ['get-v1-groups-context-domains']],
    ])
    expect(contents.webhooks.map((w) => [w.path, w.id])).toEqual([['domain.registered', 'webhook-domain-registered']])
    const domains = referencePart(full, doc, 'domains')!
    expect(domains.view.areas.map((a) => a.name)).toEqual(['Domains'])
    expect(Object.keys(domains.view.schemas).sort()).toEqual(['Domain', 'Problem'])
    expect(Object.keys(referencePart(full, doc, 'webhook-events')!.view.schemas).sort()).toEqual(['Domain', 'DomainEvent', 'Envelope'])
    expect(Object.keys(referencePart(full, doc, 'errors')!.view.schemas)).toEqual(['Problem'])
    // The schemas: every name on one page, each in full on its letter's page with the schemas it reaches.
    expect(referencePart(full, doc, 'schemas')!.names).toContain('Unused')
    expect(Object.keys(referencePart(full, doc, 'schemas-u')!.view.schemas)).toContain('Unused')
    expect(Object.keys(referencePart(full, doc, 'schemas-d')!.view.schemas).sort()).toEqual(['Domain', 'DomainEvent', 'Envelope'])
    expect(referencePart(full, doc, 'schemas-q')).toBeNull()
    expect(areaSlug('Schemas S')).toBe('schemas-s-area')
    expect(referencePart(full, doc, 'nothing')).toBeNull()
    // An area named like another page gets a page of its own.
    expect(areaSlug('Webhook events')).toBe('webhook-events-area')
    expect(areaSlug('Webhooks')).toBe('webhooks')
  })
})

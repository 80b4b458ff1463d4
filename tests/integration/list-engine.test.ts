import { createRoute } from '@hono/zod-openapi'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { createRouter } from '#server/platform/core/http.ts'
import { access, ListQueryParams, ProblemResponses } from '#server/platform/core/openapi.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { COUNT_CAP, listQueryFromUrl, runList, type ListResource } from '#server/platform/list/engine.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The list engine over a real table of its own, through the real Platform API (PGlite by
// default, PostgreSQL when DATABASE_URL is set). The probe routes are mounted on the test's API
// instance only; production has no such routes.

const probes: ListResource = {
  name: 'list-probes',
  from: 'list_probes p LEFT JOIN list_probe_owners o ON o.id = p.owner_id',
  tiebreak: 'p.id',
  defaultSort: 'seq',
  fields: {
    id: { type: 'uuid', column: 'p.id', filterable: true },
    seq: { type: 'integer', column: 'p.seq', filterable: true, sortable: true },
    name: { type: 'text', column: 'p.name', filterable: true, sortable: true },
    kind: { type: 'enum', column: 'p.kind', filterable: true, sortable: true, choices: ['a', 'b', 'c'] },
    size: { type: 'integer', column: 'p.size', filterable: true, sortable: true },
    active: { type: 'boolean', column: 'p.active', filterable: true, sortable: true },
    born: { type: 'date', column: 'p.born', filterable: true, sortable: true },
    seen_at: { type: 'timestamp', column: 'p.seen_at', filterable: true, sortable: true },
    tags: { type: 'tags', column: 'p.tags', filterable: true },
    note: { type: 'text', column: 'p.note' },
    'owner.id': { type: 'uuid', column: 'o.id', filterable: true },
    'owner.name': { type: 'text', column: 'o.name', filterable: true, sortable: true },
  },
}

// 10,050 rows without a table: enough to pass the count cap.
const series: ListResource = {
  name: 'series',
  from: 'generate_series(1, 10050) AS g(n)',
  tiebreak: 'g.n',
  defaultSort: 'n',
  fields: { n: { type: 'integer', column: 'g.n', filterable: true, sortable: true } },
}

type Probe = { seq: number; name: string; kind: string; size: number | null; active: boolean; born: string | null; seen_at: string | null; tags: string[]; owner: 'ada' | 'bob' | null; note?: string }

const ROWS: Probe[] = [
  { seq: 1, name: 'alpha.com', kind: 'a', size: 10, active: true, born: '2026-01-01', seen_at: '2026-03-01T00:00:00Z', tags: ['red'], owner: 'ada' },
  { seq: 2, name: 'beta.net', kind: 'b', size: 20, active: false, born: '2026-01-15', seen_at: '2026-03-01T23:59:59.999Z', tags: ['blue'], owner: 'ada' },
  { seq: 3, name: 'gamma.org', kind: 'a', size: 30, active: true, born: '2026-02-01', seen_at: '2026-03-02T00:00:00Z', tags: ['red', 'green'], owner: 'bob' },
  { seq: 4, name: '100%_real.com', kind: 'c', size: 40, active: true, born: '2026-02-28', seen_at: '2026-03-02T12:30:00Z', tags: [], owner: 'bob' },
  { seq: 5, name: '100x-real.com', kind: 'c', size: 50, active: false, born: '2026-03-01', seen_at: '2026-03-03T00:00:00Z', tags: ['Blue-ish'], owner: null },
  { seq: 6, name: 'a_b.com', kind: 'b', size: null, active: true, born: null, seen_at: null, tags: [], owner: 'ada' },
  { seq: 7, name: 'axb.com', kind: 'a', size: 70, active: true, born: '2026-03-10', seen_at: '2026-02-28T23:59:59Z', tags: [], owner: 'ada', note: "it's \\ here" },
  { seq: 8, name: 'x,y.com', kind: 'c', size: 80, active: true, born: '2026-03-11', seen_at: '2026-03-04T00:00:00Z', tags: ['teal'], owner: 'bob' },
]

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const ids = new Map<number, string>()
const owners = { ada: '', bob: '' }

beforeAll(async () => {
  platform = await createTestPlatform()
  const db = platform.db
  await sql`CREATE TABLE list_probe_owners (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL)`.execute(db)
  await sql`CREATE TABLE list_probes (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq integer NOT NULL,
    name text NOT NULL,
    kind text NOT NULL,
    size integer,
    active boolean NOT NULL,
    born date,
    seen_at timestamptz,
    tags text[] NOT NULL DEFAULT '{}',
    note text,
    owner_id uuid REFERENCES list_probe_owners (id)
  )`.execute(db)
  for (const name of ['Ada', 'Bob'] as const) {
    const { rows } = await sql<{ id: string }>`INSERT INTO list_probe_owners (name) VALUES (${name}) RETURNING id`.execute(db)
    owners[name.toLowerCase() as 'ada' | 'bob'] = rows[0]!.id
  }
  for (const r of ROWS) {
    const { rows } = await sql<{ id: string }>`INSERT INTO list_probes (seq, name, kind, size, active, born, seen_at, tags, note, owner_id)
      VALUES (${r.seq}, ${r.name}, ${r.kind}, ${r.size}, ${r.active}, ${r.born}, ${r.seen_at}, ${sql.val(r.tags)}::text[], ${r.note ?? null}, ${r.owner ? owners[r.owner] : null})
      RETURNING id`.execute(db)
    ids.set(r.seq, rows[0]!.id)
  }

  const listRoute = (path: string) => createRoute({ method: 'get', path, ...access('public'), request: { query: ListQueryParams }, responses: { 200: { description: 'A page' }, ...ProblemResponses } })
  const router = createRouter()
    .openapi(listRoute('/list-probes'), async (c) => c.json((await runList(c.get('deps').db, probes, listQueryFromUrl(probes, new URL(c.req.url)), { accountId: null })) as never, 200))
    .openapi(listRoute('/list-series'), async (c) => c.json((await runList(c.get('deps').db, series, listQueryFromUrl(series, new URL(c.req.url)), { accountId: null })) as never, 200))
  platform.api.route('/', router)
})
afterAll(() => platform?.close())

async function list(query: string, path = '/list-probes') {
  return platform.call('GET', `${path}?${query}`)
}

/** The `seq` of every row the query answers, in order (all pages of up to 1000). */
async function seqs(query: string): Promise<number[]> {
  const res = await list(`${query}${query ? '&' : ''}limit=1000`)
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return (res.json.data as { seq: number }[]).map((r) => r.seq)
}

const pql = (text: string) => `pql=${encodeURIComponent(text)}`
const f = (field: string, value: string) => `${encodeURIComponent(`filter[${field}]`)}=${encodeURIComponent(value)}`

describe('operators per type', () => {
  it('text: equals (case-sensitive), lists, contains / starts_with / ends_with (case-insensitive)', async () => {
    expect(await seqs(pql("name equals 'alpha.com'"))).toEqual([1])
    expect(await seqs(pql("name equals 'ALPHA.com'"))).toEqual([])
    expect(await seqs(pql("name equals 'alpha.com,beta.net'"))).toEqual([1, 2])
    expect(await seqs(pql("name contains 'AMMA'"))).toEqual([3])
    expect(await seqs(pql("name starts_with 'be'"))).toEqual([2])
    expect(await seqs(pql("name ends_with '.org'"))).toEqual([3])
  })

  it('text: % and _ are literal characters, not LIKE wildcards', async () => {
    expect(await seqs(pql("name contains '%'"))).toEqual([4])
    expect(await seqs(pql("name contains '_'"))).toEqual([4, 6])
    expect(await seqs(pql("name starts_with '100%'"))).toEqual([4])
    expect(await seqs(pql("name ends_with '_b.com'"))).toEqual([6])
    expect(await seqs(f('name', '*_b.com'))).toEqual([6])
    expect(await seqs(pql("name contains '\\\\'"))).toEqual([])
  })

  it('text: an escaped comma (\\,) is part of the value, in pql and in filter[…]', async () => {
    expect(await seqs(pql("name equals 'x\\,y.com'"))).toEqual([8])
    expect(await seqs(f('name', 'x\\,y.com'))).toEqual([8])
    expect(await seqs(f('name', 'x,y.com'))).toEqual([])
  })

  it('legacy filter[…]: * wildcards give starts_with, ends_with and contains; commas give lists', async () => {
    expect(await seqs(f('name', 'be*'))).toEqual([2])
    expect(await seqs(f('name', '*.org'))).toEqual([3])
    expect(await seqs(f('name', '*AMM*'))).toEqual([3])
    expect(await seqs(f('name', 'alpha.com'))).toEqual([1])
    expect(await seqs(f('kind', 'b,c'))).toEqual([2, 4, 5, 6, 8])
    expect(await seqs(`${f('kind', 'a')}&${f('active', 'true')}`)).toEqual([1, 3, 7])
  })

  it('enum: equals and lists', async () => {
    expect(await seqs(pql("kind equals 'a'"))).toEqual([1, 3, 7])
    expect(await seqs(pql("kind equals 'b,c'"))).toEqual([2, 4, 5, 6, 8])
  })

  it('integer: every comparison and between (inclusive)', async () => {
    expect(await seqs(pql("size equals '30'"))).toEqual([3])
    expect(await seqs(pql("size equals '30,50'"))).toEqual([3, 5])
    expect(await seqs(pql("size less_than '20'"))).toEqual([1])
    expect(await seqs(pql("size less_than_and_including '20'"))).toEqual([1, 2])
    expect(await seqs(pql("size greater_than '70'"))).toEqual([8])
    expect(await seqs(pql("size greater_than_and_including '70'"))).toEqual([7, 8])
    expect(await seqs(pql("size between '20,40'"))).toEqual([2, 3, 4])
  })

  it('boolean and uuid: equals', async () => {
    expect(await seqs(pql("active equals 'false'"))).toEqual([2, 5])
    expect(await seqs(pql(`id equals '${ids.get(3)}'`))).toEqual([3])
    expect(await seqs(pql(`id equals '${ids.get(3)!.toUpperCase()}'`))).toEqual([3])
    expect(await seqs(pql(`owner.id equals '${owners.bob}'`))).toEqual([3, 4, 8])
  })

  it('tags: equals any of the listed tags, contains a tag by substring', async () => {
    expect(await seqs(pql("tags equals 'red'"))).toEqual([1, 3])
    expect(await seqs(pql("tags equals 'blue,green'"))).toEqual([2, 3])
    expect(await seqs(pql("tags contains 'blue'"))).toEqual([2, 5])
  })

  it('nested fields filter through the join', async () => {
    expect(await seqs(pql("owner.name equals 'Ada'"))).toEqual([1, 2, 6, 7])
    expect(await seqs(pql("owner.name starts_with 'b' and size greater_than '30'"))).toEqual([4, 8])
  })

  it('joins several conditions with and', async () => {
    expect(await seqs(pql("kind equals 'a' and size greater_than '10'"))).toEqual([3, 7])
    expect(await seqs(`${pql("kind equals 'a'")}&${f('name', 'a*')}`)).toEqual([1, 7])
  })
})

describe('dates', () => {
  it('date: equals, comparisons, before / after / between (inclusive)', async () => {
    expect(await seqs(pql("born equals '2026-02-01'"))).toEqual([3])
    expect(await seqs(pql("born less_than '2026-01-15'"))).toEqual([1])
    expect(await seqs(pql("born less_than_and_including '2026-01-15'"))).toEqual([1, 2])
    expect(await seqs(pql("born greater_than_and_including '2026-03-10'"))).toEqual([7, 8])
    expect(await seqs(f('born_before', '2026-01-15'))).toEqual([1])
    expect(await seqs(f('born_after', '2026-02-28'))).toEqual([5, 7, 8])
    expect(await seqs(f('born_between', '2026-01-15,2026-02-28'))).toEqual([2, 3, 4])
    expect(await seqs(pql("born between '2026-01-15,2026-02-28'"))).toEqual([2, 3, 4])
  })

  it('timestamp with a date-only value: the whole UTC day', async () => {
    expect(await seqs(pql("seen_at equals '2026-03-01'"))).toEqual([1, 2])
    expect(await seqs(pql("seen_at equals '2026-03-01,2026-03-03'"))).toEqual([1, 2, 5])
    expect(await seqs(f('seen_at_before', '2026-03-01'))).toEqual([7])
    expect(await seqs(f('seen_at_after', '2026-03-02'))).toEqual([5, 8])
    expect(await seqs(f('seen_at_between', '2026-03-01,2026-03-02'))).toEqual([1, 2, 3, 4])
    expect(await seqs(pql("seen_at less_than_and_including '2026-03-01'"))).toEqual([1, 2, 7])
    expect(await seqs(pql("seen_at greater_than_and_including '2026-03-03'"))).toEqual([5, 8])
  })

  it('timestamp with full timestamps: exact instants, any offset', async () => {
    expect(await seqs(pql("seen_at equals '2026-03-02T12:30:00Z'"))).toEqual([4])
    expect(await seqs(pql("seen_at equals '2026-03-02T13:30:00+01:00'"))).toEqual([4])
    expect(await seqs(f('seen_at_after', '2026-03-02T12:30:00Z'))).toEqual([5, 8])
    expect(await seqs(f('seen_at_before', '2026-03-01T00:00:00Z'))).toEqual([7])
    expect(await seqs(f('seen_at_between', '2026-03-01T12:00:00Z,2026-03-02T00:00:00Z'))).toEqual([2, 3])
    expect(await seqs(pql("seen_at greater_than_and_including '2026-03-02 12:30:00Z'"))).toEqual([4, 5, 8])
    expect(await seqs(pql("seen_at less_than '2026-03-01T23:59:59.999Z'"))).toEqual([1, 7])
  })
})

describe('sort', () => {
  it('sorts on several keys, descending with a leading -, nulls last when descending', async () => {
    expect(await seqs('sort=kind,-size')).toEqual([7, 3, 1, 2, 6, 8, 5, 4])
    expect(await seqs('sort=-kind,name')).toEqual([4, 5, 8, 6, 2, 1, 7, 3])
    expect(await seqs('sort=size')).toEqual([6, 1, 2, 3, 4, 5, 7, 8])
    expect(await seqs('sort=owner.name,-seq')).toEqual([5, 7, 6, 2, 1, 8, 4, 3])
  })

  it('pages through ties without overlap or gaps (the id breaks ties)', async () => {
    for (const sort of ['kind', 'active', '-active,kind']) {
      const all = (await list(`sort=${sort}&limit=1000`)).json.data.map((r: { id: string }) => r.id)
      const paged: string[] = []
      for (let page = 1; page <= 4; page++) {
        const res = await list(`sort=${sort}&limit=2&page=${page}`)
        paged.push(...res.json.data.map((r: { id: string }) => r.id))
      }
      expect(paged).toEqual(all)
      expect(new Set(paged).size).toBe(ROWS.length)
    }
  })
})

describe('fields', () => {
  it('projects the requested fields only', async () => {
    const res = await list('fields=name,size&sort=seq&limit=2')
    expect(res.json.data).toEqual([
      { name: 'alpha.com', size: 10 },
      { name: 'beta.net', size: 20 },
    ])
  })

  it('a nested field adds its parent (spec §7: the whole parent object); a parent brings all its fields', async () => {
    const nested = await list('fields=seq,owner.name&sort=seq&limit=1')
    expect(nested.json.data).toEqual([{ seq: 1, owner: { id: owners.ada, name: 'Ada' } }])
    const parent = await list('fields=owner&sort=seq&limit=1')
    expect(parent.json.data).toEqual([{ owner: { id: owners.ada, name: 'Ada' } }])
  })

  it('answers every declared field by default, dates as ISO strings', async () => {
    const res = await list(pql("seq equals '4'"))
    expect(res.json.data[0]).toEqual({
      id: ids.get(4),
      seq: 4,
      name: '100%_real.com',
      kind: 'c',
      size: 40,
      active: true,
      born: '2026-02-28',
      seen_at: '2026-03-02T12:30:00.000Z',
      tags: [],
      note: null,
      owner: { id: owners.bob, name: 'Bob' },
    })
  })
})

describe('paging', () => {
  it('limit 1, a page beyond the end, limit 1000', async () => {
    const one = await list('limit=1&page=3')
    expect(one.json.data.map((r: { seq: number }) => r.seq)).toEqual([3])
    expect(one.json.meta).toEqual({ total: 8, page: 3, limit: 1 })
    const beyond = await list('limit=5&page=3')
    expect(beyond.status).toBe(200)
    expect(beyond.json).toEqual({ data: [], meta: { total: 8, page: 3, limit: 5 } })
    const big = await list('limit=1000')
    expect(big.json.meta).toEqual({ total: 8, page: 1, limit: 1000 })
    const defaults = await list('')
    expect(defaults.json.meta).toEqual({ total: 8, page: 1, limit: 25 })
  })

  it('limit 1000 returns 1000 rows of a larger set', async () => {
    const res = await list('limit=1000&page=2', '/list-series')
    expect(res.json.data).toHaveLength(1000)
    expect(res.json.data[0]).toEqual({ n: 1001 })
  })

  it(`caps the count at ${COUNT_CAP} and says so`, async () => {
    const capped = await list('limit=1', '/list-series')
    expect(capped.json.meta).toEqual({ total: COUNT_CAP, page: 1, limit: 1, total_capped: true })
    const exact = await list(`limit=1&${pql("n less_than_and_including '10000'")}`, '/list-series')
    expect(exact.json.meta).toEqual({ total: 10_000, page: 1, limit: 1 })
    const under = await list(`limit=1&${pql("n greater_than '50'")}&sort=-n`, '/list-series')
    expect(under.json.meta).toEqual({ total: 10_000, page: 1, limit: 1 })
    expect(under.json.data).toEqual([{ n: 10050 }])
    // Paging past the cap still reaches the rows.
    const deep = await list('limit=1000&page=11', '/list-series')
    expect(deep.json.data).toHaveLength(50)
    expect(deep.json.meta.total_capped).toBe(true)
  })
})

describe('bad list queries answer 400 problem+json naming the problem', () => {
  async function problem(query: string, path = '/list-probes') {
    const res = await list(query, path)
    expect(res.status, JSON.stringify(res.json)).toBe(400)
    expect(res.headers.get('content-type')).toContain('application/problem+json')
    expect(res.json).toMatchObject({ status: 400, code: 'invalid-request', title: 'Bad Request' })
    return res.json as { detail: string; errors: { field: string; message: string; allowed?: string[] }[]; position?: number }
  }

  it('paging: limit 1001, limit 0, page 0, non-numbers', async () => {
    expect((await problem('limit=1001')).errors).toEqual([{ field: 'limit', message: 'limit must be between 1 and 1000' }])
    expect((await problem('limit=0')).errors[0]!.field).toBe('limit')
    expect((await problem('page=0')).errors).toEqual([{ field: 'page', message: 'page must be between 1 and 9007199254740991' }])
    expect((await problem('page=two')).errors[0]!.field).toBe('page')
    expect((await problem('limit=-1')).errors[0]!.field).toBe('limit')
  })

  it('an unknown filter field, in pql and filter[…], lists the filterable fields', async () => {
    const body = await problem(pql("colour equals 'red'"))
    expect(body.errors[0]).toMatchObject({ field: 'colour', message: "Unknown filter field 'colour'" })
    expect(body.errors[0]!.allowed).toEqual(expect.arrayContaining(['name', 'kind', 'owner.name']))
    expect(body.errors[0]!.allowed).not.toContain('note')
    expect((await problem(f('colour', 'red'))).errors[0]!.field).toBe('colour')
    // Declared but not filterable is unknown to filters too.
    expect((await problem(pql("note equals 'x'"))).errors[0]!.field).toBe('note')
  })

  it('an operator that does not fit the type lists the operators that do', async () => {
    const enumContains = await problem(pql("kind contains 'a'"))
    expect(enumContains.errors[0]).toEqual({ field: 'kind', message: "Operator 'contains' does not apply to enum field 'kind'", allowed: ['equals'] })
    const intContains = await problem(pql("size contains '1'"))
    expect(intContains.errors[0]!.allowed).toEqual(['equals', 'less_than', 'less_than_and_including', 'greater_than', 'greater_than_and_including', 'between'])
    expect((await problem(pql("name less_than 'b'"))).errors[0]!.allowed).toEqual(['equals', 'contains', 'starts_with', 'ends_with'])
    expect((await problem(pql("active between 'true,false'"))).errors[0]!.field).toBe('active')
    expect((await problem(pql("tags greater_than 'a'"))).errors[0]!.field).toBe('tags')
    expect((await problem(f('name_before', '2026-01-01'))).errors[0]!.field).toBe('name')
  })

  it('a value that does not fit the type names the field (and the choices)', async () => {
    expect((await problem(pql("kind equals 'z'"))).errors[0]).toEqual({ field: 'kind', message: "'z' is not a valid enum value for 'kind'", allowed: ['a', 'b', 'c'] })
    expect((await problem(pql("active equals 'yes'"))).errors[0]!.allowed).toEqual(['true', 'false'])
    expect((await problem(pql("size equals 'ten'"))).errors[0]!.field).toBe('size')
    expect((await problem(pql("id equals 'not-a-uuid'"))).errors[0]!.field).toBe('id')
    expect((await problem(pql("born equals '2026-13-01'"))).errors[0]!.field).toBe('born')
    expect((await problem(pql("born equals '2026-01-01T10:00:00Z'"))).errors[0]!.field).toBe('born')
    expect((await problem(pql("seen_at after 'yesterday'"))).errors[0]!.field).toBe('pql')
    expect((await problem(f('seen_at_after', 'yesterday'))).errors[0]!.field).toBe('seen_at')
    expect((await problem(pql("size between '1'"))).errors[0]!.message).toMatch(/two values/)
    expect((await problem(pql("size less_than '1,2'"))).errors[0]!.message).toMatch(/one value/)
  })

  it('a pql syntax error gives its position and what was expected', async () => {
    const unquoted = await problem(pql('name equals alpha'))
    expect(unquoted.position).toBe(12)
    expect(unquoted.detail).toMatch(/position 12/)
    expect(unquoted.errors[0]!.field).toBe('pql')
    const operator = await problem(pql("name is 'x'"))
    expect(operator.position).toBe(5)
    expect(operator.errors[0]!.allowed).toContain('starts_with')
    const joiner = await problem(pql("name equals 'x' or size equals '1'"))
    expect(joiner.position).toBe(16)
    expect(joiner.errors[0]!.allowed).toEqual(['and'])
    expect((await problem(pql("name equals 'open"))).detail).toMatch(/Unterminated/)
  })

  it('an unknown or unsortable sort key lists the sortable keys', async () => {
    const body = await problem('sort=name,-colour')
    expect(body.errors).toHaveLength(1)
    expect(body.errors[0]).toMatchObject({ field: 'sort', message: "Cannot sort by 'colour'" })
    expect(body.errors[0]!.allowed).toEqual(expect.arrayContaining(['name', 'seq', 'owner.name']))
    expect((await problem('sort=tags')).errors[0]!.field).toBe('sort')
  })

  it('an unknown field in fields lists the fields', async () => {
    const body = await problem('fields=name,colour')
    expect(body.errors[0]).toMatchObject({ field: 'fields', message: "Unknown field 'colour'" })
    expect(body.errors[0]!.allowed).toEqual(expect.arrayContaining(['name', 'owner.name']))
    expect((await problem('fields=owner.colour')).errors[0]!.field).toBe('fields')
  })

  it('reports every problem of a query at once', async () => {
    const body = await problem(`${pql("colour equals 'x' and kind equals 'z'")}&sort=nope&fields=nada`)
    expect(body.errors.map((e) => e.field)).toEqual(['colour', 'kind', 'sort', 'fields'])
  })
})

describe('a production list resource (audit entries) answers the same way', () => {
  it('filters, pages and refuses bad queries through GET /v1/groups/{context}/audit-entries', async () => {
    const account = await createAccount(platform.db, systemScope('test'), { name: 'List Engine Co' })
    await createUser(platform.db, systemScope('test', account.id), { account_id: account.id, email: 'lister@list.example', password: 'list-engine-pw-1', roles: ['account-viewer', 'user-viewer'] })
    const login = await platform.call('POST', '/login', { body: { username: 'lister@list.example', password: 'list-engine-pw-1' } })
    const token = login.json.access_token as string
    const path = `/groups/${account.id}/audit-entries`

    const users = await platform.call('GET', `${path}?${pql("area equals 'users'")}&fields=action,entity_type`, { token })
    expect(users.status).toBe(200)
    expect(users.json).toEqual({ data: [{ action: 'create', entity_type: 'user' }], meta: { total: 1, page: 1, limit: 25 } })
    const all = await platform.call('GET', `${path}?sort=area&limit=1&page=2&fields=area`, { token })
    expect(all.json).toEqual({ data: [{ area: 'users' }], meta: { total: 2, page: 2, limit: 1 } })

    for (const query of [pql("area equals 'nowhere'"), pql('area equals'), 'sort=changes', 'limit=1001', 'page=0', 'fields=secret', f('nope', 'x')]) {
      const res = await platform.call('GET', `${path}?${query}`, { token })
      expect(res.status, query).toBe(400)
      expect(res.headers.get('content-type')).toContain('application/problem+json')
      expect(res.json.errors.length, query).toBeGreaterThan(0)
    }
  })
})

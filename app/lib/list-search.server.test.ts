import { describe, expect, it } from 'vitest'
import { canonicalListParams } from './list-page.server.ts'
import { searchColumnOf, type ListDefinition } from './lists.ts'

// The toolbar's search box (issue 28, Look): its text is the list's "<name> contains <text>" filter.
const def = {
  id: 'things',
  apiPath: () => '/things',
  columns: [
    { key: 'status', type: 'enum', filterable: true, choices: ['active', 'expired'] },
    { key: 'code', type: 'text', filterable: true },
    { key: 'name', type: 'text', filterable: true },
  ],
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: () => '',
} satisfies ListDefinition

const canonical = (query: string) => canonicalListParams(def, new URLSearchParams(query))?.params.toString()

describe('the list search box', () => {
  it('searches the name, else the first text field a filter may use, else nothing', () => {
    expect(searchColumnOf(def.columns)?.key).toBe('name')
    expect(searchColumnOf(def.columns.filter((c) => c.key !== 'name'))?.key).toBe('code')
    expect(searchColumnOf(def.columns.filter((c) => c.type === 'enum'))).toBeNull()
  })

  it('adds its text as a "contains" filter beside the others and starts at the first page', () => {
    expect(canonical("f_q=acme&pql=status+equals+'active'&page=3&sort=name")).toBe('pql=status+equals+%27active%27+and+name+contains+%27acme%27&sort=name')
  })

  it('replaces the search it set before, and an empty box removes it', () => {
    expect(canonical("f_q=globex&pql=name+contains+'acme'")).toBe('pql=name+contains+%27globex%27')
    expect(canonical("f_q=&pql=status+equals+'active'+and+name+contains+'acme'")).toBe('pql=status+equals+%27active%27')
    // With no filter left, page 1 stands for "no filter" (an address without list keys brings back the list's last filter).
    expect(canonical("f_q=++&pql=name+contains+'acme'")).toBe('page=1')
  })
})

import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the TLD catalogue (decision 024). Each read takes the caller's
 * executor (the database or a `change()`'s transaction); the builders let the caller pick columns.
 */

/** The catalogue entry of a TLD (its name without the dot). */
export function tldNamed(db: Kysely<DB>, name: string) {
  return db.selectFrom('tlds').where('tlds.name', '=', name)
}

/** Every TLD's name. */
export async function tldNames(db: Pick<Kysely<DB>, 'selectFrom'>): Promise<string[]> {
  return (await db.selectFrom('tlds').select('name').execute()).map((t) => t.name)
}

/** The periods (years) each of these TLDs offers, in one query; a TLD not in the catalogue is absent. */
export async function tldPeriods(db: Kysely<DB>, names: string[]): Promise<Map<string, number[]>> {
  if (names.length === 0) return new Map()
  const rows = await db
    .selectFrom('tlds')
    .select(['name', 'periods'])
    .where('name', 'in', [...new Set(names)])
    .execute()
  return new Map(rows.map((t) => [t.name, t.periods]))
}

/** The TLDs on sale and every TLD's configured scripts (`idn_scripts`), in one query: what the lookalike engine needs of the catalogue. */
export async function tldScriptsAndOffers(db: Pick<Kysely<DB>, 'selectFrom'>): Promise<{ offered: string[]; all: string[]; scripts: Map<string, string[]> }> {
  const rows = await db.selectFrom('tlds').select(['name', 'is_offered', 'idn_scripts']).execute()
  return {
    offered: rows.filter((t) => t.is_offered).map((t) => t.name),
    all: rows.map((t) => t.name),
    scripts: new Map(rows.filter((t) => t.idn_scripts?.length).map((t) => [t.name, t.idn_scripts!])),
  }
}

/** Every TLD's kind, sale and IDN flag: what a gap analysis groups its columns by (issue 32). */
export function tldKinds(db: Pick<Kysely<DB>, 'selectFrom'>) {
  return db.selectFrom('tlds').select(['name', 'unicode_name', 'kind', 'is_offered', 'idn']).execute()
}

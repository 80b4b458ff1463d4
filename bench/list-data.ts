import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * Bench data: `count` domains in one account, generated inside the database (INSERT … SELECT
 * over generate_series) so that 200k rows take seconds, not minutes. Deterministic: the same
 * count gives the same names, TLDs and dates, so figures are comparable between runs.
 *
 * This is benchmark data, not a seed: it bypasses the services (and the audit trail) on purpose.
 */
export async function generateDomains(db: Kysely<DB>, accountId: string, count: number, options: { batch?: number; prefix?: string; analyze?: boolean } = {}): Promise<void> {
  const batch = options.batch ?? 50_000
  const prefix = options.prefix ?? ''
  const words = [
    'acme',
    'rocket',
    'anvil',
    'falcon',
    'harbor',
    'summit',
    'cedar',
    'orbit',
    'pixel',
    'quartz',
    'nova',
    'delta',
    'ember',
    'lumen',
    'atlas',
    'vertex',
    'meadow',
    'cobalt',
    'zephyr',
    'granite',
    'techno',
    'sierra',
    'tango',
    'bravo',
  ]
  const suffixes = ['', 'shop', 'labs', 'cloud', 'group', 'online', 'store', 'direct', 'global', 'mail', 'tech', 'hub']
  const tlds = ['com', 'net', 'org', 'io', 'de', 'es', 'eu', 'shop', 'jp']
  const statuses = ['active', 'active', 'active', 'active', 'active', 'active', 'expired', 'redemption', 'pending', 'transferring']
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1)
    await sql`
      INSERT INTO domains (account_id, name, unicode_name, tld, status, expires_at, auto_renew, registry_lock, dnssec, tags, created_at, updated_at)
      SELECT ${accountId}::uuid, n.name || '.' || n.tld, n.name || '.' || n.tld, n.tld,
             (${sql.val(statuses)}::text[])[1 + (i * 7) % ${statuses.length}],
             timestamptz '2026-01-01 00:00:00+00' + ((i::bigint * 7919) % 1460 - 365) * interval '1 day' + (i % 86400) * interval '1 second',
             i % 5 <> 0, i % 11 = 0, i % 3 = 0,
             CASE WHEN i % 4 = 0 THEN ARRAY['vip'] WHEN i % 4 = 1 THEN ARRAY['parked', 'legacy'] ELSE '{}'::text[] END,
             timestamptz '2020-01-01 00:00:00+00' + i * interval '17 minutes',
             timestamptz '2020-01-01 00:00:00+00' + i * interval '17 minutes'
      FROM generate_series(${start}::int, ${end}::int) AS i
      CROSS JOIN LATERAL (
        SELECT ${prefix} || (${sql.val(words)}::text[])[1 + i % ${words.length}]
                 || (${sql.val(suffixes)}::text[])[1 + (i / ${words.length}) % ${suffixes.length}]
                 || '-' || i::text AS name,
               (${sql.val(tlds)}::text[])[1 + (i * 31) % ${tlds.length}] AS tld
      ) AS n`.execute(db)
  }
  if (options.analyze !== false) await sql`ANALYZE domains`.execute(db)
}

const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chiara',
  'Diego',
  'Elif',
  'Farah',
  'Goran',
  'Hana',
  'Ivan',
  'Jia',
  'Kofi',
  'Lena',
  'Marta',
  'Nils',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tomás',
  'Uma',
  'Viktor',
  'Wen',
  'Yusuf',
  'Zoe',
]
const LAST_NAMES = [
  'Andersen',
  'Barros',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Hoffmann',
  'Ito',
  'Jansen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Weber',
]
const COUNTRIES = ['DE', 'ES', 'FR', 'JP', 'NL', 'GB', 'US', 'IT', 'SE', 'PL']

/**
 * `count` registrant contacts in one account (bench data, straight SQL like the domains): people
 * with realistic names, e-mails and countries. Returns their ids.
 */
export async function generateContacts(db: Kysely<DB>, accountId: string, count: number, options: { emailDomain?: string } = {}): Promise<string[]> {
  const emailDomain = options.emailDomain ?? 'example.com'
  const result = await sql<{ id: string }>`
    INSERT INTO contacts (account_id, name, organisation, email, country_code, city)
    SELECT ${accountId}::uuid, f.name || ' ' || l.name, CASE WHEN i % 3 = 0 THEN l.name || ' GmbH' ELSE '' END,
           lower(f.name) || '.' || i::text || '@' || ${emailDomain}, (${sql.val(COUNTRIES)}::text[])[1 + i % ${COUNTRIES.length}], 'Springfield'
    FROM generate_series(1, ${count}::int) AS i
    CROSS JOIN LATERAL (SELECT (${sql.val(FIRST_NAMES)}::text[])[1 + i % ${FIRST_NAMES.length}] AS name) AS f
    CROSS JOIN LATERAL (SELECT (${sql.val(LAST_NAMES)}::text[])[1 + (i * 7) % ${LAST_NAMES.length}] AS name) AS l
    RETURNING id`.execute(db)
  return result.rows.map((r) => r.id)
}

/** Gives every domain of the account without one a registrant, spread over `contactIds` (one statement). */
export async function assignRegistrants(db: Kysely<DB>, accountId: string, contactIds: string[]): Promise<void> {
  if (!contactIds.length) return
  await sql`
    INSERT INTO domain_contacts (domain_id, contact_id, role)
    SELECT d.id, (${sql.val(contactIds)}::uuid[])[1 + abs(hashtext(d.name)) % ${contactIds.length}], 'registrant'
    FROM domains d
    WHERE d.account_id = ${accountId}::uuid
      AND NOT EXISTS (SELECT 1 FROM domain_contacts x WHERE x.domain_id = d.id AND x.role = 'registrant')`.execute(db)
}

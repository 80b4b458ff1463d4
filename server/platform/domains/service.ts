import type { Kysely } from 'kysely'
import { parseDomainName } from '#common/domain-name.ts'
import type { DB, Domain } from '#server/db/schema.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest, type FieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'

export type ManagedDomainInput = { name: string; expires_at: Date; auto_renew?: boolean; registry_lock?: boolean; dnssec?: boolean; tags?: string[]; created_at?: Date }

/**
 * Brings existing domains under management in the scope's account, all or nothing: one invalid
 * or already-managed name and no row is written.
 */
export async function addManagedDomains(db: Kysely<DB>, scope: Scope, inputs: ManagedDomainInput[]): Promise<Domain[]> {
  const accountId = scope.accountId
  if (!accountId) throw badRequest('An account is required')
  const errors: FieldError[] = []
  const rows = inputs.map((input, index) => {
    const parsed = parseDomainName(input.name)
    if (!parsed.ok) {
      errors.push({ field: `domains.${index}.name`, message: `Invalid domain name (${parsed.error})` })
      return null
    }
    return {
      account_id: accountId,
      name: parsed.domain.ascii,
      unicode_name: parsed.domain.unicode,
      tld: parsed.domain.tld,
      expires_at: input.expires_at,
      auto_renew: input.auto_renew ?? true,
      registry_lock: input.registry_lock ?? false,
      dnssec: input.dnssec ?? false,
      tags: input.tags ?? [],
      ...(input.created_at ? { created_at: input.created_at, updated_at: input.created_at } : {}),
    }
  })
  if (errors.length) throw badRequest('Some domain names are not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const created: Domain[] = []
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500) as NonNullable<(typeof rows)[number]>[]
      created.push(...(await tx.insertInto('domains').values(chunk).returningAll().execute()))
    }
    for (const domain of created) {
      await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, action: 'add', after: { name: domain.name, expires_at: domain.expires_at, auto_renew: domain.auto_renew } })
    }
    return created
  })
}

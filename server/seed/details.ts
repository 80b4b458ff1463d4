import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Logger } from '#server/lib/logger.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { updateDomain } from '#server/platform/domains/update.ts'
import { setApprovers, setMaterial } from '#server/platform/material-changes/service.ts'
import { runItem } from '#server/platform/orders/jobs.ts'
import { createOrder } from '#server/platform/orders/service.ts'
import { allowCaByCaa } from '#server/platform/ssl/caa.ts'
import { importCertificate, orderCertificate, sslSettings } from '#server/platform/ssl/service.ts'

const run = promisify(execFile)

/** The demo's order: a new name Acme registers, then registered at the registry as the order's job does it. */
export const DEMO_ORDERED_DOMAIN = 'acme-robotics.com'
/** The approvers of Acme's material domains; acme-corp.com's admin contact change waits for them. */
export const DEMO_APPROVER = 'legal@acme.example'

/**
 * What the demo's detail screens show from the first sign-in (issue 28, item 17), made as Acme's
 * admin through the services the API uses: a certificate for acme-corp.com (ordered from the CA
 * when one is configured — the local Pebble by default, its issuance the worker's job — else one
 * bought elsewhere, imported), an order whose registration the registry made, and a material change
 * request waiting for its approver. Runs after the zones and the registry exist; each part that
 * cannot be made is said in the log and left out.
 */
export async function seedDemoDetails(deps: PlatformDeps, logger: Logger = deps.logger): Promise<void> {
  const admin = await deps.db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.email', 'users.account_id', 'users.roles', 'users.abilities'])
    .where('users.email', '=', 'admin@acme.example')
    .executeTakeFirst()
  if (!admin) return
  const scope: Scope = {
    actor: { userId: admin.id, label: admin.email, homeAccountId: admin.account_id, roles: admin.roles, abilities: admin.abilities },
    accountId: admin.account_id,
    requestId: null,
  }
  const made: Record<string, string> = {}
  const attempt = async (what: string, work: () => Promise<string>) => {
    try {
      made[what] = await work()
    } catch (error) {
      logger.warn(`demo ${what} not made`, { error: (error as Error).message })
    }
  }
  await attempt('certificate', () => demoCertificate(deps, scope))
  await attempt('order', () => demoOrder(deps, scope))
  await attempt('material change request', () => demoMaterialChange(deps, scope))
  logger.info('demo details seeded', made)
}

const domainNamed = (deps: PlatformDeps, accountId: string, name: string) =>
  deps.db.selectFrom('domains').select(['id', 'version']).where('account_id', '=', accountId).where('name', '=', name).where('status', '<>', 'deleted').executeTakeFirst()

/** acme-corp.com's certificate: ordered from the CA (its CAA record set to allow it first, as the one-click fix does), or imported. */
async function demoCertificate(deps: PlatformDeps, scope: Scope): Promise<string> {
  const name = 'acme-corp.com'
  const acme = sslSettings(deps).acme
  if (acme) {
    await allowCaByCaa(deps, scope, name, acme)
    const cert = await orderCertificate(deps, scope, { product: 'dv-single', period_months: 12, names: [name] })
    return `${cert.common_name} ordered from ${acme.caName} (${cert.status})`
  }
  const { certificate, chain, key } = await boughtElsewhere(name)
  const cert = await importCertificate(deps, scope, { certificate, chain, private_key: key })
  return `${cert.common_name} imported (no CA configured)`
}

/**
 * A certificate of `name` as another CA would sell it: a leaf signed by a demo CA (the chain),
 * valid for a year from now (made with the openssl CLI, which the embedded registry needs anyway).
 */
async function boughtElsewhere(name: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'demo-cert-'))
  const file = (f: string) => path.join(dir, f)
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
    await run('openssl', ['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '3650', '-subj', '/O=Demo Trust Services/CN=Demo Trust DV CA'])
    await run('openssl', ['req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', `/CN=${name}`])
    await writeFile(file('ext.cnf'), `subjectAltName=DNS:${name},DNS:www.${name}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n`)
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '365',
      '-extfile',
      file('ext.cnf'),
      '-out',
      file('leaf.pem'),
    ])
    return { certificate: await readFile(file('leaf.pem'), 'utf8'), chain: await readFile(file('ca.pem'), 'utf8'), key: await readFile(file('leaf.key'), 'utf8') }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** An order of one registration, with the account's first contact as registrant, run as its job runs it. */
async function demoOrder(deps: PlatformDeps, scope: Scope): Promise<string> {
  const registrant = await deps.db.selectFrom('contacts').select('id').where('account_id', '=', scope.accountId!).orderBy('created_at').orderBy('id').executeTakeFirstOrThrow()
  const order = await createOrder(deps, scope, [{ type: 'register', name: DEMO_ORDERED_DOMAIN, period: 1 }], { registrant: registrant.id })
  // The job is queued too; made here so the order is done whether or not this process works jobs (the job then finds it done).
  for (const item of order.items) await runItem(deps, item.id)
  return `${DEMO_ORDERED_DOMAIN} (order ${order.id})`
}

/** acme-corp.com made material, with an approver; a new admin contact for it then waits for approval. */
async function demoMaterialChange(deps: PlatformDeps, scope: Scope): Promise<string> {
  const domain = await domainNamed(deps, scope.accountId!, 'acme-corp.com')
  if (!domain) throw new Error('acme-corp.com is not in the demo')
  const contact = await deps.db.selectFrom('contacts').select('id').where('account_id', '=', scope.accountId!).where('name', '=', 'Amelia Hughes').executeTakeFirstOrThrow()
  await setApprovers(deps.db, scope, [DEMO_APPROVER])
  await setMaterial(deps.db, scope, [domain.id], true)
  const outcome = await updateDomain(deps, scope, domain.id, { contacts: { admin: contact.id } })
  if (outcome.outcome !== 'approval_requested') throw new Error(`the change was ${outcome.outcome}`)
  return outcome.material_change_request_id
}

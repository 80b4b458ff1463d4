import { sql, type Kysely } from 'kysely'
import { SSL_ORGANISATIONS_LIST } from '#common/lists/ssl.ts'
import {
  checkErrors,
  organisationErrors,
  SSL_ORGANISATION_FIELDS,
  sslCheckSchema,
  sslOrganisationSchema,
  type SslOrganisationDetails,
  type SslOrganisationField,
  type SslOrganisationInput,
} from '#common/ssl-organisation.ts'
import { organisationStatus, SSL_DOCUMENT_MAX_BYTES, SSL_DOCUMENT_TYPES, SSL_ORGANISATION_CHECKS, type SslCheckState, type SslOrganisationCheck, EV_BUSINESS_CATEGORY_TEXT } from '#common/ssl.ts'
import type { DB } from '#server/db/schema.ts'
import type { SslCheck, SslOrganisation } from '#server/db/schema-ssl.ts'
import { auditWriter, change, type Tx } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import { reachOf, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { publicFields, queueIssue } from './queue.ts'
import { joinAccounts } from '#server/platform/accounts/reads.ts'

/**
 * SSL organisations (issue 19): the legal entity an OV or EV certificate names, per account. The
 * customer keeps its details; staff work through its checklist (organisation, agreement,
 * documents, callback, approver), each waiting / attention / validated with a note. When the last
 * check is validated, the organisation is, and its OV/EV orders waiting in draft go to the CA.
 * Changing what a check verified (the legal details, the phone, the approver) sets that check
 * back to waiting. Pebble issues DV only: the organisation goes into the CSR's subject (O, C, L,
 * ST), which is what an OV/EV CA would receive, and Pebble leaves it out of the certificate.
 */

const columns = {
  id: 'o.id',
  group_id: 'o.account_id',
  'account.name': 'a.name',
  legal_name: 'o.legal_name',
  registration_number: 'o.registration_number',
  city: 'o.city',
  country: 'o.country',
  approver_email: 'o.approver_email',
  status: 'o.status',
  validated_at: 'o.validated_at',
  created_at: 'o.created_at',
  updated_at: 'o.updated_at',
}
export const organisationsResource = listResource(SSL_ORGANISATIONS_LIST, { from: `ssl_organisations o ${joinAccounts('a', 'o.account_id')}`, tiebreak: 'o.id', columns })
export const scopedOrganisationsResource: ListResource = { ...organisationsResource, accountColumn: 'o.account_id' }

const organisationSchema = sslOrganisationSchema()
const checkSchema = sslCheckSchema()

/** The details checked and made canonical (common/ssl-organisation.ts: E.164 phones, upper-case countries), or every field's refusal at once. */
function cleanInput(input: SslOrganisationInput): SslOrganisationDetails {
  const parsed = organisationSchema.safeParse(input)
  if (!parsed.success) throw invalid('ssl.organisation-invalid', 'The organisation is not valid', organisationErrors(parsed.error))
  return parsed.data
}

/** Which checks a change of details undoes: what each check verified. */
const APPROVER_FIELDS: SslOrganisationField[] = ['approver_name', 'approver_email', 'approver_phone']
const CHECKED_BY: Record<SslOrganisationCheck, SslOrganisationField[]> = {
  // Every detail but the phone (the callback's) and the approver's (the approver check's).
  organisation: SSL_ORGANISATION_FIELDS.filter((f) => f !== 'phone' && !APPROVER_FIELDS.includes(f)),
  agreement: [],
  documents: ['legal_name', 'registration_number'],
  callback: ['phone'],
  approver: APPROVER_FIELDS,
}

const emptyChecks = (): Record<SslOrganisationCheck, SslCheck> => Object.fromEntries(SSL_ORGANISATION_CHECKS.map((c) => [c, { state: 'waiting', note: '', by: '', at: null }])) as never

const nameTaken = () => invalid('ssl.organisation-invalid', 'The organisation is not valid', [fieldError('legal_name', 'ssl.organisation-taken', 'This account has an organisation of this name')])

async function nameFree(db: Kysely<DB> | Tx, accountId: string, name: string, except: string | null) {
  let query = db
    .selectFrom('ssl_organisations')
    .select('id')
    .where('account_id', '=', accountId)
    .where(sql`lower(legal_name)`, '=', name.toLowerCase())
  if (except) query = query.where('id', '<>', except)
  return !(await query.executeTakeFirst())
}

export async function createOrganisation(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, input: SslOrganisationInput): Promise<SslOrganisation> {
  requirePermission(scope.actor, 'ssl-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  const clean = cleanInput(input)
  return change(deps.db, scope, async (tx, audit) => {
    if (!(await nameFree(tx, accountId, clean.legal_name, null))) throw nameTaken()
    const row = await tx
      .insertInto('ssl_organisations')
      .values({ ...clean, account_id: accountId, checks: JSON.stringify(emptyChecks()), created_at: deps.now(), updated_at: deps.now() })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'ssl', entityType: 'ssl_organisation', entityId: row.id, accountId, action: 'create', after: clean })
    return row
  })
}

/**
 * Stores an organisation's checks (and any other columns changed with them) with the status they
 * give: validated since the moment it first became so, and no longer once a check is not.
 */
async function storeChecks(tx: Tx, now: Date, before: SslOrganisation, checks: Record<SslOrganisationCheck, SslCheck>, columns: Partial<SslOrganisationDetails> = {}): Promise<SslOrganisation> {
  const status = organisationStatus(checks)
  return tx
    .updateTable('ssl_organisations')
    .set({ ...columns, checks: JSON.stringify(checks), status, validated_at: status === 'validated' ? (before.validated_at ?? now) : null, version: before.version + 1, updated_at: now })
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** One organisation the scope reaches; another account's is a 404 like a missing one. */
export async function findOrganisation(db: Kysely<DB> | Tx, scope: Scope, id: string, lock = false): Promise<SslOrganisation> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('Organisation not found')
  const reach = reachOf(scope)
  let query = db.selectFrom('ssl_organisations').selectAll().where('id', '=', id)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!row) throw notFound('Organisation not found')
  return row
}

export async function updateOrganisation(deps: PlatformDeps, scope: Scope, id: string, input: SslOrganisationInput & { version: number }): Promise<SslOrganisation> {
  requirePermission(scope.actor, 'ssl-manager')
  await findOrganisation(deps.db, scope, id)
  const clean = cleanInput(input)
  return change(deps.db, scope, async (tx, audit) => {
    const before = await findOrganisation(tx, scope, id, true)
    if (before.version !== input.version) throw staleVersion(before.version, 'organisation')
    if (!(await nameFree(tx, before.account_id, clean.legal_name, id))) throw nameTaken()
    const changed = (Object.keys(clean) as (keyof typeof clean)[]).filter((k) => String(before[k] ?? '').trim() !== String(clean[k] ?? ''))
    if (!changed.length) return before
    const checks = { ...emptyChecks(), ...before.checks }
    for (const check of SSL_ORGANISATION_CHECKS)
      if (CHECKED_BY[check].some((f) => changed.includes(f)) && checks[check].state !== 'waiting')
        checks[check] = { state: 'waiting', note: `Details changed: ${CHECKED_BY[check].filter((f) => changed.includes(f)).join(', ')}`, by: scope.actor.label, at: deps.now().toISOString() }
    const after = await storeChecks(tx, deps.now(), before, checks, clean)
    await audit.record({
      area: 'ssl',
      entityType: 'ssl_organisation',
      entityId: id,
      accountId: before.account_id,
      action: 'update',
      before: Object.fromEntries(changed.map((k) => [k, before[k]])),
      after: { ...Object.fromEntries(changed.map((k) => [k, clean[k]])), status: after.status },
    })
    return after
  })
}

/**
 * Staff mark one check (waiting, attention, validated) with a note. When the organisation becomes
 * validated, its OV/EV orders waiting in draft are queued for the CA in the same transaction.
 */
export async function markCheck(deps: PlatformDeps, scope: Scope, id: string, check: SslOrganisationCheck, input: { state: SslCheckState; note?: string }): Promise<SslOrganisation> {
  requirePermission(scope.actor, 'staff')
  await findOrganisation(deps.db, scope, id)
  const parsed = checkSchema.safeParse(input)
  if (!parsed.success) throw invalid('ssl.check-invalid', 'The check is not valid', checkErrors(parsed.error))
  const { state, note } = parsed.data
  return change(deps.db, scope, async (tx, audit) => {
    const before = await findOrganisation(tx, scope, id, true)
    const checks = { ...emptyChecks(), ...before.checks, [check]: { state, note, by: scope.actor.label, at: deps.now().toISOString() } }
    const after = await storeChecks(tx, deps.now(), before, checks)
    const status = after.status
    await audit.record({
      area: 'ssl',
      entityType: 'ssl_organisation',
      entityId: id,
      accountId: before.account_id,
      action: 'check',
      before: { check, state: before.checks[check]?.state ?? 'waiting', status: before.status },
      after: { check, state, note, status },
    })
    if (status === 'validated' && before.status !== 'validated') await releaseWaitingOrders(deps, tx, scope, id)
    return after
  })
}

/** The organisation is validated: its OV/EV orders in draft go to the CA. */
async function releaseWaitingOrders(deps: PlatformDeps, tx: Tx, scope: Scope, organisationId: string) {
  const waiting = await tx
    .updateTable('ssl_certificates')
    .set({ status: 'pending_validation', version: sql<number>`version + 1`, updated_at: deps.now() })
    .where('organisation_id', '=', organisationId)
    .where('status', '=', 'draft')
    .returningAll()
    .execute()
  const audit = auditWriter(tx, scope)
  for (const cert of waiting) {
    await audit.record({ area: 'ssl', entityType: 'ssl_certificate', entityId: cert.id, accountId: cert.account_id, action: 'organisation-validated', after: publicFields(cert) })
    await queueIssue(deps, tx, cert.id)
  }
}

export type OrganisationDocument = { id: string; filename: string; content_type: string; size_bytes: number; uploaded_by: string; created_at: Date }

export type OrganisationDetail = {
  organisation: SslOrganisation
  documents: OrganisationDocument[]
  certificates: { id: string; common_name: string; status: string; product: string; created_at: Date }[]
}

export async function getOrganisation(db: Kysely<DB>, scope: Scope, id: string): Promise<OrganisationDetail> {
  requirePermission(scope.actor, 'ssl-viewer')
  const organisation = await findOrganisation(db, scope, id)
  const [documents, certificates] = await Promise.all([
    db.selectFrom('ssl_organisation_documents').select(['id', 'filename', 'content_type', 'size_bytes', 'uploaded_by', 'created_at']).where('organisation_id', '=', id).orderBy('created_at').execute(),
    db.selectFrom('ssl_certificates').select(['id', 'common_name', 'status', 'product', 'created_at']).where('organisation_id', '=', id).orderBy('created_at', 'desc').limit(50).execute(),
  ])
  return { organisation: { ...organisation, checks: { ...emptyChecks(), ...organisation.checks } }, documents, certificates }
}

/** The organisations an order may name (the scope's account), for the order form. */
export async function organisationChoices(db: Kysely<DB>, accountId: string) {
  return db.selectFrom('ssl_organisations').select(['id', 'legal_name', 'status']).where('account_id', '=', accountId).orderBy('legal_name').limit(200).execute()
}

/** A document for the "documents" check: PDF, PNG or JPEG, at most 5 MB, its type read from its first bytes. */
export async function uploadDocument(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, id: string, input: { filename: string; content_base64: string }): Promise<OrganisationDocument> {
  requirePermission(scope.actor, 'ssl-manager')
  const organisation = await findOrganisation(deps.db, scope, id)
  const body = Buffer.from(input.content_base64, 'base64')
  const filename = input.filename
    .trim()
    .replace(/[\\/\0]/g, '_')
    .slice(0, 200)
  const type = sniff(body)
  const errors: CodedFieldError[] = []
  if (!filename) errors.push(fieldError('file', 'field.required', 'Choose a file'))
  if (!body.length) errors.push(fieldError('file', 'field.required', 'Choose a file'))
  else if (body.length > SSL_DOCUMENT_MAX_BYTES) errors.push(fieldError('file', 'ssl.document-too-large', `At most ${SSL_DOCUMENT_MAX_BYTES / 1024 / 1024} MB`))
  else if (!type) errors.push(fieldError('file', 'ssl.document-type', 'A PDF, PNG or JPEG file', [...SSL_DOCUMENT_TYPES]))
  if (errors.length) throw invalid('ssl.document-invalid', 'The document is refused', errors)
  const count = await deps.db
    .selectFrom('ssl_organisation_documents')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organisation_id', '=', id)
    .executeTakeFirstOrThrow()
  if (Number(count.n) >= 20) throw refused('ssl.document-limit', 'An organisation keeps at most 20 documents')
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('ssl_organisation_documents')
      .values({
        organisation_id: id,
        account_id: organisation.account_id,
        filename,
        content_type: type!,
        size_bytes: body.length,
        content: body,
        uploaded_by: scope.actor.label,
        created_at: deps.now(),
      })
      .returning(['id', 'filename', 'content_type', 'size_bytes', 'uploaded_by', 'created_at'])
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'ssl',
      entityType: 'ssl_organisation',
      entityId: id,
      accountId: organisation.account_id,
      action: 'upload-document',
      after: { filename, content_type: type, size_bytes: body.length },
    })
    return row
  })
}

export async function readDocument(db: Kysely<DB>, scope: Scope, id: string, documentId: string) {
  requirePermission(scope.actor, 'ssl-viewer')
  await findOrganisation(db, scope, id)
  // Read as base64 by the database: the driver's bytea parsing differs between PostgreSQL and PGlite.
  const row = await db
    .selectFrom('ssl_organisation_documents')
    .select(['filename', 'content_type', sql<string>`encode(content, 'base64')`.as('content_base64')])
    .where('organisation_id', '=', id)
    .where('id', '=', documentId)
    .executeTakeFirst()
  if (!row) throw notFound('Document not found')
  return row
}

/** The type of a document by its magic bytes (a name or a declared type is not trusted). */
function sniff(body: Buffer): (typeof SSL_DOCUMENT_TYPES)[number] | null {
  if (body.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  if (body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'image/jpeg'
  return null
}

/** What an OV/EV CA receives about the organisation: the CSR's subject (O, C, L, ST). */
export function organisationSubject(o: Pick<SslOrganisation, 'legal_name' | 'country' | 'city' | 'region'>) {
  return { organization: o.legal_name, country: o.country.trim(), locality: o.city, ...(o.region ? { state: o.region } : {}) }
}

/**
 * What an EV CA receives besides (EV Guidelines §7.1.4.2, the subject of the certificate it
 * issues): businessCategory, serialNumber (the registration number), jurisdictionC/ST/L and the
 * date of incorporation it verifies. The CA takes them from its own vetting of the organisation,
 * not from the CSR, whose subject stays O/L/ST/C.
 */
export function evSubject(o: Pick<SslOrganisation, 'registration_number' | 'jurisdiction_country' | 'jurisdiction_state' | 'jurisdiction_locality' | 'business_category' | 'incorporation_date'>) {
  const entries: [string, string][] = [
    ['business_category', o.business_category ? EV_BUSINESS_CATEGORY_TEXT[o.business_category] : ''],
    ['serial_number', o.registration_number],
    ['jurisdiction_country', o.jurisdiction_country],
    ['jurisdiction_state', o.jurisdiction_state],
    ['jurisdiction_locality', o.jurisdiction_locality],
    ['incorporation_date', o.incorporation_date ?? ''],
  ]
  return Object.fromEntries(entries.filter(([, v]) => v)) as Record<string, string>
}

/** What an EV order needs of its organisation and it lacks (the fields' names): none for OV. */
export function evMissing(o: Pick<SslOrganisation, 'registration_number' | 'jurisdiction_country' | 'business_category' | 'incorporation_date'>): string[] {
  return (['registration_number', 'jurisdiction_country', 'business_category', 'incorporation_date'] as const).filter((k) => !o[k])
}

/**
 * Deletes an uploaded document (the account's SSL managers, staff among them), in the trail. The
 * "documents" check it may have served goes back to waiting: what staff saw is no longer kept.
 */
export async function deleteDocument(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, id: string, documentId: string): Promise<SslOrganisation> {
  requirePermission(scope.actor, 'ssl-manager')
  await findOrganisation(deps.db, scope, id)
  return change(deps.db, scope, async (tx, audit) => {
    const before = await findOrganisation(tx, scope, id, true)
    const gone = await tx
      .deleteFrom('ssl_organisation_documents')
      .where('organisation_id', '=', id)
      .where('id', '=', documentId)
      .returning(['filename', 'content_type', 'size_bytes', 'uploaded_by'])
      .executeTakeFirst()
    if (!gone) throw notFound('Document not found')
    const checks = { ...emptyChecks(), ...before.checks }
    if (checks.documents.state !== 'waiting') checks.documents = { state: 'waiting', note: `Document deleted: ${gone.filename}`, by: scope.actor.label, at: deps.now().toISOString() }
    const after = await storeChecks(tx, deps.now(), before, checks)
    await audit.record({
      area: 'ssl',
      entityType: 'ssl_organisation',
      entityId: id,
      accountId: before.account_id,
      action: 'delete-document',
      before: { ...gone, id: documentId },
      after: { status: after.status },
    })
    return after
  })
}

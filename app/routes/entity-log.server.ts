import type { RouterContextProvider } from 'react-router'
import { activeContext } from '#app/lib/context-param.ts'
import { pageNotFound, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { accountsLogList } from './accounts/lists.ts'
import { contactsLogList } from './contacts/lists.ts'
import { intelligenceLogList } from './intelligence/lists.ts'
import { dnsLogList, dnsZoneLogList } from './domains/dns/lists.ts'
import { domainLogList, domainsLogList } from './domains/lists.ts'
import { billingEntityLogList, billingLogList, pricingLogList } from './invoicing/lists.ts'
import { usersAuthenticationLogList, usersLogList } from './users/lists.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Filter } from '#common/pql.ts'
import { domainScreen } from './domains/shared.server.ts'
import { dnsScreen, zoneOfDomain } from './domains/dns/shared.server.ts'
import { billingScreen, loadEntity } from './invoicing/billing.server.ts'
import { setOfPath } from './invoicing/shared.tsx'
import { loadCertificate } from './ssl/detail.server.ts'
import { sslLogList } from './ssl/lists.ts'
import type { Certificate } from './ssl/shared.tsx'
import { watchLogList } from './watch/lists.ts'
import { watchScreen } from './watch/shared.server.ts'

/**
 * Every log screen of the portal is the one module routes/entity-log.tsx; what differs between
 * them is the data below, found by the route's pattern (app/routes.ts): which API list and which
 * columns, the entity read first (an unknown or foreign id is the 404 screen, never an empty
 * list), the permission beyond the area's, the title and the way back. The list engine is the
 * one of every list (`loadListPage`, `DataTable`).
 */
export type LogKind = 'audit' | 'entity' | 'auth' | 'billing' | 'pricing' | 'domain' | 'dns' | 'ssl'

type Link = { to: string; label: string; current?: boolean }

/** What the page draws around the table: sent as is (plain data). */
export type LogView = {
  /** Picks the labels and the cells of the table (entity-log.tsx). */
  kind: LogKind
  /** The page's heading and document title; null under a frame that keeps its own (a domain's tabs). */
  title: string | null
  breadcrumb: Link[]
  description: string | null
  /** A "back" link above the heading (a price list's or rule's log). */
  back: string | null
  /** The entity's sub-navigation. */
  links: Link[]
  /** The tabs of an invoicing entity drawn by its area. */
  tabs: { kind: 'billing-entity' | 'transaction' | 'pricing-entity'; id: string; staff: boolean } | null
  /** An SSL certificate's header. */
  certificate: Pick<Certificate, 'id' | 'common_name' | 'status'> | null
  /** A domain's DNS log before the domain has a zone: said, with the way to create one. */
  noZone: { domainId: string } | null
}

type Args = { request: Request; context: Readonly<RouterContextProvider>; params: Record<string, string | undefined> }
type Found = {
  def: ListDefinition
  groupContext: string
  view: Partial<LogView> & Pick<LogView, 'kind' | 'title'>
}
type Reader = (args: Args) => Promise<Found>

const fixed = (def: ListDefinition, filters: Filter[]): ListDefinition => ({ ...def, fixedFilters: [...def.fixedFilters, ...filters] })
const entityIs = (id: string): Filter => ({ field: 'entity_id', operator: 'equals', values: [id] })
const tOf = (context: Args['context']) => getInstance(context).t

/** The audit trail of each directory area and of the domains. */
const AREA_LOGS = { accounts: accountsLogList, domains: domainsLogList, users: usersLogList, contacts: contactsLogList }

/** /accounts/log (every area) and /domains|users|contacts/log (their area fixed). */
const areaLog =
  (area: 'accounts' | 'domains' | 'users' | 'contacts'): Reader =>
  async ({ request, context, params }) => {
    const user = await requireScreen(request, context, params)
    const t = tOf(context)
    const title = area === 'accounts' ? t('audit.title') : t('audit.titleArea', { area: t(`audit.areas.${area}`) })
    return { def: AREA_LOGS[area], groupContext: activeContext(requestUrl(request), user.group_id), view: { kind: 'audit', title } }
  }

/** /accounts/{id}/log, /users/{id}/log, /contacts/{id}/log: the audit list fixed to one entity (an account's: every entry of that account). */
const directoryLog =
  (area: 'accounts' | 'users' | 'contacts'): Reader =>
  async ({ request, context, params }) => {
    const user = await requireScreen(request, context, params)
    const groupContext = activeContext(requestUrl(request), user.group_id)
    const platform = await getPlatform(request, context)
    const id = params.id!
    let name: string
    let def: ListDefinition
    if (area === 'accounts') {
      name = (await platform.get('/accounts/{id}', { path: { id } })).name
      def = { ...accountsLogList, apiPath: () => `/groups/${encodeURIComponent(id)}/audit-entries` }
    } else {
      const row =
        area === 'users'
          ? await platform.get('/groups/{context}/users/{id}', { path: { context: groupContext, id } })
          : await platform.get('/groups/{context}/contacts/{id}', { path: { context: groupContext, id } })
      name = row.name || ('email' in row ? row.email : '') || id
      def = fixed(AREA_LOGS[area], [entityIs(id)])
    }
    const t = tOf(context)
    const base = `/${area}/${id}`
    const links: Link[] = [
      { to: base, label: t('directory:details') },
      { to: `${base}/log`, label: t('directory:log'), current: true },
    ]
    if (area === 'users') links.push({ to: `${base}/authentication-log`, label: t('directory:users.authLog') })
    if (area === 'contacts') links.push({ to: `${base}/registry-handles`, label: t('directory:contacts.registryHandles') })
    if (area === 'accounts') links.push({ to: `${base}/webhooks`, label: t('webhooks:title') })
    const breadcrumb = [
      { label: t(`directory:${area}.title`), to: `/${area}` },
      { label: name, to: base },
    ]
    return { def, groupContext, view: { kind: 'entity', title: t('directory:entityLog', { name }), breadcrumb, links } }
  }

/** /users/authentication-log (the account's sign-ins) and /users/{id}/authentication-log (one user's). */
const authLog: Reader = async ({ request, context, params }) => {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const t = tOf(context)
  const breadcrumb = [{ label: t('directory:users.title'), to: '/users' }]
  const def = usersAuthenticationLogList
  if (!params.id) {
    const links = [
      { to: '/users', label: t('directory:users.title') },
      { to: '/users/log', label: t('directory:log') },
      { to: '/users/authentication-log', label: t('directory:users.authLog'), current: true },
    ]
    return { def, groupContext, view: { kind: 'auth', title: t('directory:users.authLog'), breadcrumb, links } }
  }
  const row = await (await getPlatform(request, context)).get('/groups/{context}/users/{id}', { path: { context: groupContext, id: params.id } })
  const links = [
    { to: `/users/${row.id}`, label: t('directory:details') },
    { to: `/users/${row.id}/log`, label: t('directory:log') },
    { to: `/users/${row.id}/authentication-log`, label: t('directory:users.authLog'), current: true },
  ]
  const title = `${t('directory:users.authLog')} — ${row.name || row.email}`
  return { def: { ...def, fixedFilters: [{ field: 'user_id', operator: 'equals', values: [row.id] }] }, groupContext, view: { kind: 'auth', title, breadcrumb, links } }
}

/**
 * The invoicing trail of a billing entity (its payments, limits, invoices and edits; staff also its accounts),
 * of one transaction (reserved, settled, released, refunded) and of every transaction.
 */
const billingLog =
  (of: 'billing-entity' | 'transaction' | 'transactions'): Reader =>
  async ({ request, context, params }) => {
    const screen = await billingScreen(request, context, params)
    const t = tOf(context)
    const home = { to: '/invoicing', label: t('common:nav.invoicing') }
    const transactions = { to: '/invoicing/transactions', label: t('billing:transactions.title') }
    const def = billingLogList
    if (of === 'billing-entity') {
      // Whoever opens the entity reads its trail (a client its own entity's, without other accounts: the API's rule).
      const entity = await loadEntity(screen, params.id)
      const breadcrumb = [home, { to: '/invoicing/billing-entities', label: t('billing:entities.title') }]
      const tabs = { kind: of, id: entity.id, staff: screen.staff }
      return {
        def: { ...billingEntityLogList, apiPath: (ctx) => `/groups/${encodeURIComponent(ctx)}/billing-entities/${entity.id}/log` },
        groupContext: screen.groupContext,
        view: { kind: 'billing', title: t('billing:entities.logOf', { name: entity.name }), breadcrumb, tabs },
      }
    }
    const isTransaction: Filter = { field: 'entity_type', operator: 'equals', values: ['transaction'] }
    if (of === 'transaction') {
      const transaction = await screen.platform.get('/groups/{context}/transactions/{id}', { path: { context: screen.groupContext, id: params.id } })
      // The trail of the account the transaction belongs to (staff read it from their own group too).
      const groupContext = screen.staff ? transaction.account_id : screen.groupContext
      const tabs = { kind: of, id: transaction.id, staff: screen.staff }
      return { def: fixed(def, [isTransaction, entityIs(transaction.id)]), groupContext, view: { kind: 'billing', title: t('billing:transactions.logOf'), breadcrumb: [home, transactions], tabs } }
    }
    const description = screen.staff ? t('billing:transactions.staffLog') : null
    return { def: fixed(def, [isTransaction]), groupContext: screen.groupContext, view: { kind: 'billing', title: t('billing:transactions.allLog'), breadcrumb: [home, transactions], description } }
  }

/** The invoicing trail of a price list (/invoicing/pricing-entities/{id}/log) or of a rule (…-pricing-rules/{id|custom}/{ruleName}/log): staff only. */
const pricingLog =
  (of: 'pricing-entity' | 'rule'): Reader =>
  async ({ request, context, params }) => {
    const user = await requireScreen(request, context, params)
    requireChange(request, user, 'staff')
    const url = requestUrl(request)
    const platform = await getPlatform(request, context)
    const t = tOf(context)
    const groupContext = activeContext(url, user.group_id)
    const def = pricingLogList
    if (of === 'pricing-entity') {
      const entity = await platform.get('/pricing-entities/{id}', { path: { id: params.id } })
      const view = { kind: 'pricing' as const, title: t('pricing:logOf', { name: entity.name }), back: `/invoicing/pricing-entities/${entity.id}`, tabs: { kind: of, id: entity.id, staff: true } }
      return { def: fixed(def, [entityIs(entity.id)]), groupContext, view }
    }
    const set = setOfPath(url.pathname)
    const product = params.id ?? 'custom'
    const ruleName = params.ruleName!
    await platform.get('/pricing-rules/{set}/{product}/{ruleName}', { path: { set, product, ruleName } })
    const view = { kind: 'pricing' as const, title: t('pricing:logOf', { name: ruleName }), back: url.pathname.replace(/\/log$/, '') }
    return { def: fixed(def, [entityIs(`${set}/${product}/${ruleName}`)]), groupContext, view }
  }

/** /domains/{id}/log: the domains trail of one domain, a tab of the domain's frame. */
const domainLog: Reader = async ({ request, context, params }) => {
  const screen = await domainScreen(request, context, params)
  return { def: fixed(domainLogList, [entityIs(params.id!)]), groupContext: screen.groupContext, view: { kind: 'domain', title: null } }
}

/** /domains/dns-log (every zone, audit area dns) and /domains/{id}/dns-log (the domain's zone, a tab of its frame). */
const dnsLog: Reader = async ({ request, context, params }) => {
  const screen = await dnsScreen(request, context, params)
  const t = tOf(context)
  if (!params.id) return { def: { ...dnsLogList, trayType: null }, groupContext: screen.groupContext, view: { kind: 'dns', title: t('dns:log.title') } }
  const zone = await zoneOfDomain(screen, params.id)
  const def: ListDefinition = { ...dnsZoneLogList, trayType: null, apiPath: (ctx) => `/groups/${encodeURIComponent(ctx)}/zones/${zone?.id}/log` }
  return { def, groupContext: screen.groupContext, view: { kind: 'dns', title: null, noZone: zone ? null : { domainId: params.id } } }
}

/** /ssls/{id}/log: the trail (area ssl) of one certificate. */
const sslLog: Reader = async ({ request, context, params }) => {
  const { groupContext, certificate } = await loadCertificate(request, context, params)
  const { id, common_name, status } = certificate
  return { def: fixed(sslLogList, [entityIs(id)]), groupContext, view: { kind: 'ssl', title: tOf(context)('ssl:tabs.log'), certificate: { id, common_name, status } } }
}

/** /intelligence/log (the area's trail) and /intelligence/{id}/log (one item's, a tab of its frame). */
const intelligenceLog: Reader = async ({ request, context, params }) => {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const t = tOf(context)
  if (!params.id) return { def: intelligenceLogList, groupContext, view: { kind: 'audit', title: t('intelligence:log.title') } }
  // The item first: another account's id is the 404 screen.
  await (await getPlatform(request, context)).get('/groups/{context}/intelligence/items/{id}', { path: { context: groupContext, id: params.id } })
  return { def: fixed(intelligenceLogList, [entityIs(params.id)]), groupContext, view: { kind: 'domain', title: null } }
}

/** /watch/log (every watch entry of the account) and /watch/{id}/log (a tab of the watch: its entries and its cases'). */
const watchLog: Reader = async ({ request, context, params }) => {
  const screen = await watchScreen(request, context, params)
  const t = tOf(context)
  if (!params.id) return { def: watchLogList, groupContext: screen.groupContext, view: { kind: 'audit', title: t('watch:logTitle'), breadcrumb: [{ label: t('watch:title'), to: '/watch' }] } }
  const path = { context: screen.groupContext }
  // The watch first (another account's is 404), then its cases, whose steps are entries of their own.
  await screen.platform.get('/groups/{context}/watches/{id}', { path: { ...path, id: params.id } })
  const cases = await screen.platform.get('/groups/{context}/watch-cases', { path, query: { pql: `watch_id equals '${params.id}'`, fields: 'id', limit: '1000' } })
  const ids = [params.id, ...cases.data.map((c) => c.id!)]
  return { def: fixed(watchLogList, [{ field: 'entity_id', operator: 'equals', values: ids }]), groupContext: screen.groupContext, view: { kind: 'audit', title: null } }
}

/** The log screens by route pattern (app/routes.ts): each one's data. */
const LOGS: Record<string, Reader> = {
  'accounts/log': areaLog('accounts'),
  'domains/log': areaLog('domains'),
  'users/log': areaLog('users'),
  'contacts/log': areaLog('contacts'),
  'accounts/:id/log': directoryLog('accounts'),
  'users/:id/log': directoryLog('users'),
  'contacts/:id/log': directoryLog('contacts'),
  'users/authentication-log': authLog,
  'users/:id/authentication-log': authLog,
  'invoicing/transactions/log': billingLog('transactions'),
  'invoicing/transactions/:id/log': billingLog('transaction'),
  'invoicing/billing-entities/:id/log': billingLog('billing-entity'),
  'invoicing/pricing-entities/:id/log': pricingLog('pricing-entity'),
  ...Object.fromEntries(
    ['invoicing/global-pricing-rules', 'invoicing/pricing-entity-rules'].flatMap((set) => [
      [`${set}/custom/:ruleName/log`, pricingLog('rule')],
      [`${set}/:id/:ruleName/log`, pricingLog('rule')],
    ]),
  ),
  'domains/:id/log': domainLog,
  'domains/dns-log': dnsLog,
  'domains/:id/dns-log': dnsLog,
  'ssls/:id/log': sslLog,
  'watch/log': watchLog,
  'watch/:id/log': watchLog,
  'intelligence/log': intelligenceLog,
  'intelligence/:id/log': intelligenceLog,
}

/** The log screen of a route pattern: its guards run, its entity is read, its list is ready for `loadListPage`. */
export async function readLog(args: Args & { pattern: string }): Promise<Found> {
  const reader = LOGS[args.pattern.replace(/^\//, '')]
  if (!reader) pageNotFound(requestUrl(args.request).pathname)
  return reader(args)
}

import { redirect, type RouterContextProvider } from 'react-router'
import { activeContext, carryContext, isUuid } from '#app/lib/context-param.ts'
import { canChange, pageNotFound, requireScreen } from '#app/lib/guards.server.ts'
import { getPlatform, PlatformError, type PlatformClient } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { SessionUser } from '#app/lib/session.server.ts'
import type { Zone } from './types.ts'

type Context = Readonly<RouterContextProvider>

export type DnsScreen = { user: SessionUser; platform: PlatformClient; groupContext: string; base: string; canAdmin: boolean; url: URL }

/** Every DNS loader and action starts here: the screen guard, then the platform client. */
export async function dnsScreen(request: Request, context: Context, params: Record<string, string | undefined> = {}): Promise<DnsScreen> {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const canAdmin = canChange(request, user, 'dns-admin')
  return { user, platform, groupContext, base: `/groups/${encodeURIComponent(groupContext)}`, canAdmin, url }
}

/** The zone of a domain (one per domain), or null when it has none yet. */
export async function zoneOfDomain(screen: DnsScreen, domainId: string): Promise<Zone | null> {
  const list = await screen.platform.get('/groups/{context}/zones', { path: { context: screen.groupContext }, query: { 'filter[domain_id]': domainId, limit: 1, fields: 'id' } })
  const id = list.data[0]?.id
  return id ? screen.platform.get('/groups/{context}/zones/{zone}', { path: { context: screen.groupContext, zone: id } }) : null
}

/**
 * The zone a zone screen is about, and where it lives: a domain's zone on the domain's DNS tab
 * (/domains/{id}/dns, null while the domain has none), or a standalone zone — for a name
 * registered elsewhere — on /domains/zones/{zoneId}. A domain's zone asked for by its zone id
 * is sent to its domain's tab; an unknown or foreign zone id is a 404.
 */
export async function screenZone(screen: DnsScreen, params: { id?: string; zoneId?: string }): Promise<{ zone: Zone | null; here: string }> {
  if (params.zoneId === undefined) {
    return { zone: await zoneOfDomain(screen, params.id!), here: `/domains/${params.id}/dns` }
  }
  if (!isUuid(params.zoneId)) pageNotFound(screen.url.pathname)
  const zone = await screen.platform.get('/groups/{context}/zones/{zone}', { path: { context: screen.groupContext, zone: params.zoneId } }).catch((error: unknown) => {
    if (error instanceof PlatformError && error.status === 404) pageNotFound(screen.url.pathname)
    throw error
  })
  if (zone.domain_id) throw redirect(carryContext(`/domains/${zone.domain_id}/dns`, screen.url.searchParams))
  return { zone, here: `/domains/zones/${zone.id}` }
}

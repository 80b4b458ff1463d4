import type { Context } from 'hono'
import { listQueryFromUrl, runList, type ListPage, type ListResource } from '#server/platform/list/engine.ts'
import type { PlatformEnv } from './http.ts'
import { reachOf, type Scope } from './scope.ts'

/** A list over every account (`whole`) and the same list narrowed to one account (`scoped`, its `accountColumn` set). */
export type ReachedResources = { whole: ListResource; scoped: ListResource }

/**
 * The answer of a list route (`GET …?pql=&sort=&page=`): the request's list query over the
 * resource, one page from the list engine (decision 003). Given `{ whole, scoped }`, the list the
 * scope reaches (`reachOf`): `whole` for staff in their own group, else `scoped` to the context
 * account; given one resource, that resource, scoped by the context account when it has an
 * `accountColumn`; with no scope (a staff list of no account's rows: products, templates), the
 * resource as it is.
 */
export function listPage(c: Context<PlatformEnv>, scope: Scope | null, resources: ListResource | ReachedResources): Promise<ListPage> {
  if (scope === null) {
    const resource = 'whole' in resources ? resources.whole : resources
    return runList(c.get('deps').db, resource, listQueryFromUrl(resource, new URL(c.req.url)), { accountId: null })
  }
  if ('whole' in resources) {
    const reach = reachOf(scope)
    const resource = reach === null ? resources.whole : resources.scoped
    return runList(c.get('deps').db, resource, listQueryFromUrl(resource, new URL(c.req.url)), { accountId: reach })
  }
  return runList(c.get('deps').db, resources, listQueryFromUrl(resources, new URL(c.req.url)), scope)
}

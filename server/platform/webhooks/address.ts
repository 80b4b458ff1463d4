import { isIP } from 'node:net'
import { WEBHOOK_URL_MAX } from '#common/webhooks.ts'
import { outboundOf, OutboundRefused, type Outbound } from '#server/platform/core/outbound.ts'

export type UrlProblem = 'too_long' | 'invalid' | 'https_required' | 'private_address'

/**
 * Why a URL cannot be an endpoint, or null: HTTPS only, no credentials in it, and no address the
 * outbound guard refuses (decision 022) written as the host — unless private addresses are allowed
 * (development and tests), which also allows plain HTTP. A name is resolved by `resolvedProblem`,
 * and again at each connection of a delivery (the guard's `lookup`).
 */
export function urlProblem(text: string, allowPrivate: boolean, outbound: Outbound = outboundOf({})): UrlProblem | null {
  if (text.length > WEBHOOK_URL_MAX) return 'too_long'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'invalid'
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'https_required'
  if (url.username || url.password) return 'invalid'
  try {
    outbound.requestOptions(url, { allowPrivate })
  } catch (error) {
    if (error instanceof OutboundRefused && error.reason === 'address') return 'private_address'
    return 'invalid'
  }
  return null
}

/**
 * A name that resolves, through the configured resolver, to an address the guard refuses is
 * refused when saved; a name that does not resolve (yet) is taken, and checked at each delivery.
 */
export async function resolvedProblem(text: string, allowPrivate: boolean, outbound: Outbound): Promise<UrlProblem | null> {
  const host = new URL(text).hostname
  if (isIP(host.replace(/^\[|\]$/g, ''))) return null
  try {
    await outbound.resolve(host, { allowPrivate })
    return null
  } catch (error) {
    return error instanceof OutboundRefused && error.reason === 'address' ? 'private_address' : null
  }
}

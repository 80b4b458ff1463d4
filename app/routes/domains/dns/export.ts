import { attachmentDisposition } from '#common/content-disposition.ts'
import { redirect } from 'react-router'
import type { Route } from './+types/export.ts'
import { dnsScreen, screenZone } from './shared.server.ts'

/**
 * GET /domains/{id}/dns/export and /domains/zones/{zoneId}/export: the zone as a BIND master file,
 * streamed from the platform.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const { zone, here } = await screenZone(screen, params)
  if (!zone) throw redirect(here)
  const answer = await screen.platform.raw(`${screen.base}/zones/${zone.id}/export`, { method: 'GET' })
  if (!answer.ok) throw new Response(await answer.text(), { status: answer.status })
  return new Response(answer.body, {
    headers: {
      'Content-Type': 'text/dns; charset=utf-8',
      'Content-Disposition': attachmentDisposition(`${zone.name}.zone`),
      'Cache-Control': 'no-store',
    },
  })
}

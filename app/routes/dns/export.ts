import { redirect } from 'react-router'
import type { Route } from './+types/export.ts'
import { dnsScreen, zoneOfDomain } from './shared.server.ts'

/** GET /domains/{id}/dns/export: the domain's zone as a BIND master file, streamed from the platform. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) throw redirect(`/domains/${params.id}/dns`)
  const answer = await screen.platform.raw(`${screen.base}/zones/${zone.id}/export`, { method: 'GET' })
  if (!answer.ok) throw new Response(await answer.text(), { status: answer.status })
  return new Response(answer.body, {
    headers: {
      'Content-Type': 'text/dns; charset=utf-8',
      'Content-Disposition': `attachment; filename="${zone.name}.zone"`,
      'Cache-Control': 'no-store',
    },
  })
}

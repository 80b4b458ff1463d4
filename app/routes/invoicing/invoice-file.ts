import { requireScreen } from '#app/lib/guards.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/invoice-file.ts'

/** GET /invoicing/invoices/{id}/{pdf|xml}: the document from the Platform API, downloaded as it is (another's is the API's 404). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const format = params.format === 'xml' ? 'xml' : 'pdf'
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const response = await (await getPlatform(request, context)).raw(`/groups/${encodeURIComponent(groupContext)}/invoices/${encodeURIComponent(params.id)}/${format}`)
  // The API's 400 is a malformed id or context in the address: no such document, like its 404.
  if (response.status === 400 || response.status === 404) throw new Response('Not found', { status: 404 })
  if (!response.ok) throw new Response('The document could not be read', { status: 502 })
  return new Response(response.body, {
    headers: {
      'Content-Type': response.headers.get('content-type') ?? 'application/octet-stream',
      'Content-Disposition': response.headers.get('content-disposition') ?? 'attachment',
      'Cache-Control': 'no-store',
    },
  })
}

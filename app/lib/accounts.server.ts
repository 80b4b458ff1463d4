import type { RouterContextProvider } from 'react-router'
import type { Row } from './platform-api.ts'
import { getPlatform } from './platform.server.ts'
import type { SessionUser } from './session.server.ts'

export type AccountChoice = Pick<Row<'/groups/{context}/accounts'>, 'id' | 'name'>

/**
 * The accounts a staff user can pick in the account switcher (the side navigation): GET
 * /v1/groups/{own group}/accounts (every account for staff in their own group).
 */
export async function listAccountChoices(request: Request, context: Readonly<RouterContextProvider>, user: SessionUser): Promise<AccountChoice[]> {
  const platform = await getPlatform(request, context)
  const page = await platform.get('/groups/{context}/accounts', { path: { context: user.group_id }, query: { fields: 'id,name', sort: 'name', limit: 1000 } })
  return page.data.map((a) => ({ id: a.id, name: a.name }))
}

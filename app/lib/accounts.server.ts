import type { RouterContextProvider } from 'react-router'
import { getPlatform } from './platform.server.ts'
import type { SessionUser } from './session.server.ts'

export type AccountChoice = { id: string; name: string }

/**
 * The accounts a staff user can pick in the account switcher (the side navigation): GET
 * /v1/groups/{own group}/accounts (every account for staff in their own group).
 */
export async function listAccountChoices(request: Request, context: Readonly<RouterContextProvider>, user: SessionUser): Promise<AccountChoice[]> {
  const platform = await getPlatform(request, context)
  const page = await platform.get<{ data: AccountChoice[] }>(`/groups/${user.group_id}/accounts`, {
    query: { fields: 'id,name', sort: 'name', limit: 1000 },
  })
  return page.data.map((a) => ({ id: a.id, name: a.name }))
}

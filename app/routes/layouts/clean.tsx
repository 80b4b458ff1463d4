import { Outlet } from 'react-router'
import { requireUser } from '#app/lib/session.server.ts'
import type { Route } from './+types/clean.ts'

/** Layout clean (spec §2): printable watch reports, no navigation chrome. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context)
  return null
}

export default function CleanLayout() {
  return (
    <main className="mx-auto max-w-4xl p-6 print:p-0">
      <Outlet />
    </main>
  )
}

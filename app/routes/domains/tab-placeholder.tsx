import { AreaPlaceholder } from '#app/components/area-placeholder.tsx'
import { requireScreen } from '#app/lib/guards.server.ts'
import type { Route } from './+types/tab-placeholder.ts'

/** A domain tab whose area is built by other work: the shell's honest empty state, no sample data. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireScreen(request, context, params)
  return null
}

export default function DomainTabPlaceholder() {
  return <AreaPlaceholder area="domains" />
}

import { data } from 'react-router'
import type { Route } from './+types/not-found.ts'

export function loader({ request }: Route.LoaderArgs) {
  throw data(`Page Not Found ${new URL(request.url).pathname}`, { status: 404 })
}

export default function NotFound() {
  return null
}

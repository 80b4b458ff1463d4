import { data } from 'react-router'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import type { Route } from './+types/not-found.ts'
import { requestUrl } from '#app/lib/request-url.ts'

export function loader({ request }: Route.LoaderArgs) {
  throw data(`Page Not Found ${requestUrl(request).pathname}`, { status: 404 })
}

// Inside the shell (a signed-in person; signed out, the default layout answers the 404 first).
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} inShell />
}

export default function NotFound() {
  return null
}

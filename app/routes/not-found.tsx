import { data } from 'react-router'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import type { Route } from './+types/not-found.ts'
import { requestUrl } from '#app/lib/request-url.ts'

export function loader({ request }: Route.LoaderArgs) {
  throw data(`Page Not Found ${requestUrl(request).pathname}`, { status: 404 })
}

// Renders itself (translated through the request's i18n instance) if the root boundary is not reached.
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} />
}

export default function NotFound() {
  return null
}

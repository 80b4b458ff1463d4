import { Outlet } from 'react-router'
import { ErrorScreen } from '#app/components/error-screen.tsx'
import type { Route } from './+types/shell-errors.ts'

/**
 * Every screen of the default layout sits under this pathless route, so an error a screen throws
 * (403, 404, a failed call) is shown inside the shell: header, navigation and account badge stay,
 * and the person is never taken out of the app by a mistyped address (issue 28).
 */
export default function ShellErrors() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorScreen error={error} inShell />
}

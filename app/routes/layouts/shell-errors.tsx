import { lazy } from 'react'
import { Outlet } from 'react-router'
import { useErrorTexts } from '#app/components/error-texts.ts'
import type { Route } from './+types/shell-errors.ts'

/**
 * Every screen of the default layout sits under this pathless route, so an error a screen throws
 * (403, 404, a failed call) is shown inside the shell: header, navigation and account badge stay,
 * and the person is never taken out of the app by a mistyped address (issue 28).
 */
export default function ShellErrors() {
  return <Outlet />
}

// Lazy, as the root's: the error screen is not part of every page's first load (its texts asked for first, see useErrorTexts).
const ErrorScreen = lazy(() => import('#app/components/error-screen.tsx').then((m) => ({ default: m.ErrorScreen })))

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useErrorTexts()
  return <ErrorScreen error={error} inShell />
}

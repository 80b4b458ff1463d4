import { Outlet } from 'react-router'
import { LoginFooter } from '#app/components/shell/footers.tsx'
import { LoginHeader } from '#app/components/shell/simple-headers.tsx'

/** Layout login (spec §2): /login, /reset, /logout, with the login header and footer. */
export default function LoginLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 dark:bg-slate-950">
      <LoginHeader />
      <div className="flex flex-1 items-start justify-center">
        <Outlet />
      </div>
      <LoginFooter />
    </div>
  )
}

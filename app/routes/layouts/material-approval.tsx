import { useTranslation } from '#app/lib/use-translation.ts'
import { Outlet } from 'react-router'
import { LoginFooter } from '#app/components/shell/footers.tsx'
import { PlainHeader } from '#app/components/shell/simple-headers.tsx'

/** Layout material-approval (spec §2): an approver opens /approvals/{id} without logging in. */
export default function MaterialApprovalLayout() {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-screen flex-col">
      <PlainHeader title={t('nav.approvals')} />
      <main className="mx-auto w-full max-w-3xl flex-1 p-4">
        <Outlet />
      </main>
      <LoginFooter />
    </div>
  )
}

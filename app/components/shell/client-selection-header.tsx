import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, useLocation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { AccountChoice } from '#app/lib/accounts.server.ts'

/**
 * Staff pick the account they act in. A GET form on the current path: the choice becomes the
 * `context` parameter (works without JavaScript; with it the select submits on change).
 */
export function ClientSelectionHeader({ accounts, context, ownGroup }: { accounts: AccountChoice[]; context: string; ownGroup: string }) {
  const { t } = useTranslation('common')
  const { pathname } = useLocation()
  const current = accounts.find((a) => a.id === context)
  return (
    <div className="border-b border-slate-200 bg-slate-50 px-4 py-2 dark:border-slate-800 dark:bg-slate-900" data-testid="client-selection">
      <Form method="get" action={pathname} className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-2 text-sm">
        <label htmlFor="client-context" className="text-slate-600 dark:text-slate-400">
          {t('client.label')}
        </label>
        <Select
          id="client-context"
          name="context"
          defaultValue={context}
          key={context}
          className="h-8 w-auto min-w-0 max-w-full flex-1 text-sm sm:min-w-56 sm:flex-none"
          onChange={(event) => event.currentTarget.form?.requestSubmit()}
        >
          {accounts.some((a) => a.id === ownGroup) ? null : <option value={ownGroup}>{t('client.own')}</option>}
          {accounts.map((account) => (
            <option key={account.id} value={account.id}>
              {account.id === ownGroup ? `${account.name} (${t('client.own')})` : account.name}
            </option>
          ))}
        </Select>
        {/* The choice applies as it is made; without JavaScript this button sends it. */}
        <noscript>
          <Button type="submit" size="sm" variant="outline">
            {t('client.apply')}
          </Button>
        </noscript>
        {context !== ownGroup ? (
          <span className="text-amber-800 dark:text-amber-300" data-testid="client-acting">
            {t('client.acting', { name: current?.name ?? context })}
          </span>
        ) : null}
      </Form>
    </div>
  )
}

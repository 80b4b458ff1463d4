import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, useLocation } from 'react-router'
import { Icon } from '#app/components/icon.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { AccountChoice } from '#app/lib/accounts.server.ts'
import { cn } from '#app/lib/utils.ts'

/**
 * Staff pick the account they act in (the spec's client selection), at the top of the side
 * navigation. A GET form on the current path: the choice becomes the `context` parameter (works
 * without JavaScript; with it the select submits on change). Their own account is "All accounts":
 * staff acting there reach every account.
 */
export function AccountSwitcher({ accounts, context, ownGroup }: { accounts: AccountChoice[]; context: string; ownGroup: string }) {
  const { t } = useTranslation('common')
  const { pathname } = useLocation()
  return (
    <div className="border-b border-slate-200 p-3 dark:border-slate-800" data-testid="client-selection">
      <Form method="get" action={pathname} className="flex flex-col gap-1.5 text-sm">
        <label htmlFor="client-context" className="text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
          {t('client.label')}
        </label>
        <div className="flex gap-2">
          <Select id="client-context" name="context" defaultValue={context} key={context} className="h-9 w-full min-w-0 text-sm" onChange={(event) => event.currentTarget.form?.requestSubmit()}>
            {accounts.some((a) => a.id === ownGroup) ? null : <option value={ownGroup}>{t('client.all')}</option>}
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.id === ownGroup ? t('client.all') : account.name}
              </option>
            ))}
          </Select>
          {/* The choice applies as it is made; without JavaScript this button sends it. */}
          <noscript>
            <Button type="submit" size="sm" variant="outline">
              {t('client.apply')}
            </Button>
          </noscript>
        </div>
      </Form>
    </div>
  )
}

/**
 * Which account a staff user acts in, always in the header (issue 28: staff acted on the wrong
 * account too easily): "All accounts" in their own, the account's name, marked, in another.
 */
export function AccountBadge({ accounts, context, ownGroup }: { accounts: AccountChoice[]; context: string; ownGroup: string }) {
  const { t } = useTranslation('common')
  const acting = context !== ownGroup
  const name = acting ? (accounts.find((a) => a.id === context)?.name ?? context) : t('client.all')
  return (
    <label
      htmlFor="client-context"
      className={cn(
        'flex min-w-0 max-w-56 cursor-pointer items-center gap-1.5 truncate rounded-full border px-2.5 py-1 text-xs font-medium',
        acting
          ? 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200'
          : 'border-slate-200 bg-slate-50 text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300',
      )}
      title={t('client.acting', { name })}
      data-testid="account-badge"
      data-acting={acting ? 'true' : 'false'}
    >
      <Icon name="building-2" className="size-3.5 shrink-0" />
      <span className="sr-only">{t('client.label')}: </span>
      <span className="truncate">{name}</span>
    </label>
  )
}

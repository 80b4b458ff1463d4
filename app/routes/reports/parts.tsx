import { Form, useLocation } from 'react-router'
import { HeaderAction } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Input } from '#app/components/ui/input.tsx'
import { Label } from '#app/components/ui/label.tsx'
import { Select } from '#app/components/ui/select.tsx'
import type { AccountChoice } from '#app/lib/accounts.server.ts'
import { CONTEXT_PARAM } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { TAG_MAX } from '#common/reports.ts'

/** The report's filters as a query string (the exports and the print view take the report's). */
export const searchOf = (params: Record<string, string | null | undefined>) => {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1])))
  return search.size ? `?${search}` : ''
}

/** Each report's plain links: CSV, XLSX and the print view, with the report's filters (they work without JavaScript and can be shared). */
export function ReportActions({ report, query }: { report: string; query: string }) {
  const { t } = useTranslation('reports')
  return (
    <>
      <HeaderAction to={`/reports/${report}/export/xlsx${query}`} reloadDocument data-testid="report-export-xlsx">
        {t('actions.xlsx')}
      </HeaderAction>
      <HeaderAction to={`/reports/${report}/export/csv${query}`} reloadDocument data-testid="report-export-csv">
        {t('actions.csv')}
      </HeaderAction>
      <HeaderAction to={`/reports/${report}/print${query}`} reloadDocument data-testid="report-print">
        {t('actions.print')}
      </HeaderAction>
    </>
  )
}

/** What staff choose a report's account from: every account, their own being all of them. */
export type AccountChoices = { ownGroup: string; accounts: AccountChoice[]; acting: string | null } | null

/**
 * The filters every report takes, a GET form (works without JavaScript): the tag, and for staff the
 * account (the request's `context`, as the account switcher sets it); for anyone else the context stays.
 */
export function TagFilter({
  tag,
  suggestions,
  accounts,
  showTag = true,
  period = null,
}: {
  tag: string | null
  suggestions: string[]
  accounts: AccountChoices
  /** A report of zones, certificates or the trail has no tag to filter by. */
  showTag?: boolean
  /** The activity's days back or the forecast's months ahead, chosen from a few. */
  period?: { name: 'days' | 'months'; value: number; choices: readonly number[] } | null
}) {
  const { t } = useTranslation('reports')
  const { search } = useLocation()
  const context = new URLSearchParams(search).get(CONTEXT_PARAM)
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2 print:hidden" data-testid="report-filters">
      {accounts ? (
        <div className="space-y-1">
          <Label htmlFor="report-account">{t('filters.account')}</Label>
          <Select id="report-account" name={CONTEXT_PARAM} defaultValue={context ?? accounts.ownGroup} className="h-9 w-56">
            {accounts.accounts.some((a) => a.id === accounts.ownGroup) ? null : <option value={accounts.ownGroup}>{t('filters.allAccounts')}</option>}
            {accounts.accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.id === accounts.ownGroup ? t('filters.allAccounts') : account.name}
              </option>
            ))}
          </Select>
        </div>
      ) : context ? (
        <input type="hidden" name={CONTEXT_PARAM} value={context} />
      ) : null}
      {period ? (
        <div className="space-y-1">
          <Label htmlFor="report-period">{t(`filters.${period.name}`)}</Label>
          <Select id="report-period" name={period.name} defaultValue={String(period.value)} className="h-9 w-44">
            {period.choices.map((n) => (
              <option key={n} value={n}>
                {t(`filters.${period.name}Choice`, { count: n })}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      {showTag ? (
        <div className="space-y-1">
          <Label htmlFor="report-tag">{t('filters.tag')}</Label>
          <Input id="report-tag" name="tag" defaultValue={tag ?? ''} maxLength={TAG_MAX} list="report-tags" className="w-56" aria-describedby="report-tag-hint" />
          <datalist id="report-tags">
            {suggestions.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </div>
      ) : null}
      <Button type="submit" size="sm">
        {t('filters.apply')}
      </Button>
      {showTag ? (
        <p id="report-tag-hint" className="w-full text-xs text-slate-500">
          {t('filters.tagHint')}
        </p>
      ) : null}
    </Form>
  )
}

/** Title, filters and generated-at: what heads a report on screen and on every printed page. */
export function ReportStamp({ tag, generatedAt, account = null, extra = [] }: { tag: string | null; generatedAt: string; account?: string | null; extra?: (string | null)[] }) {
  const { t, i18n } = useTranslation('reports')
  const filters = [account ? `${t('filters.account')} = ${account}` : null, tag ? `${t('filters.tag')} = ${tag}` : null, ...extra].filter(Boolean).join(', ')
  return (
    <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="report-stamp">
      {t('print.filters')}: {filters || t('filters.none')} · {t('generatedAt', { at: formatDateTime(generatedAt, i18n.language) })}
    </p>
  )
}

/** The frequencies a report is mailed at (calendar periods, UTC). */
const FREQUENCIES = ['weekly', 'monthly', 'quarterly'] as const

/**
 * "Mail me this report": a plain form (works without JavaScript) subscribing the person to the
 * report with the filters it shows now, weekly, monthly or quarterly; the XLSX comes attached.
 */
export function SubscribeForm({ report, filters }: { report: string; filters: Record<string, string | number | null | undefined> }) {
  const { t } = useTranslation('reports')
  const { pathname, search } = useLocation()
  return (
    <Form method="post" action={`/reports/subscriptions${search}`} className="flex flex-wrap items-center gap-2 text-sm print:hidden" data-testid="report-subscribe">
      <input type="hidden" name="report" value={report} />
      <input type="hidden" name="redirectTo" value={pathname + search} />
      {Object.entries(filters).map(([key, value]) => (value === null || value === undefined ? null : <input key={key} type="hidden" name={key} value={String(value)} />))}
      <Label htmlFor="report-frequency" className="text-slate-600 dark:text-slate-400">
        {t('subscriptions.mailMe')}
      </Label>
      <Select id="report-frequency" name="frequency" defaultValue="weekly" className="h-8 w-36">
        {FREQUENCIES.map((f) => (
          <option key={f} value={f}>
            {t(`subscriptions.frequency.${f}`)}
          </option>
        ))}
      </Select>
      <Button type="submit" size="sm" variant="outline">
        {t('subscriptions.subscribe')}
      </Button>
    </Form>
  )
}

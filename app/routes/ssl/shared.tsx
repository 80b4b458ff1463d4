import { useEffect } from 'react'
import { Link, useRevalidator } from 'react-router'
import { formatMoney } from '#common/money.ts'
import type { SslOrganisationStatus, SslState } from '#common/ssl.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { cn } from '#app/lib/utils.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** A certificate as /groups/{context}/ssls/{id} answers it. */
export type Certificate = Answer<'/groups/{context}/ssls/{id}'>

/** What a certificate is charged, in the user's words: the amount and where the charge stands, linked to its transaction. */
export function ChargeText({ charge }: { charge: NonNullable<Certificate['price']> }) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  return (
    <span data-testid="ssl-charge">
      <Link className="text-blue-700 hover:underline dark:text-blue-400" to={href(`/invoicing/transactions/${charge.transaction_id}`)}>
        {formatMoney(charge.amount_minor, charge.currency, i18n.language)}
      </Link>{' '}
      · {t(`charge.${charge.state}`)}
    </span>
  )
}

const ORGANISATION_COLORS: Record<SslOrganisationStatus, 'green' | 'amber' | 'grey'> = { validated: 'green', attention: 'amber', waiting: 'grey' }

/** An organisation's validation state (or one check's), as a badge. */
export function OrganisationStatus({ status, testId = 'ssl-organisation-status' }: { status: SslOrganisationStatus; testId?: string }) {
  const { t } = useTranslation('ssl')
  return (
    <Badge color={ORGANISATION_COLORS[status] ?? 'grey'} data-testid={testId} title={status}>
      {t(`organisations.states.${status}`)}
    </Badge>
  )
}

const COLORS: Record<SslState, 'green' | 'amber' | 'red' | 'blue' | 'grey'> = {
  draft: 'grey',
  pending_validation: 'blue',
  issuing: 'blue',
  issued: 'green',
  expiring: 'amber',
  expired: 'red',
  revoked: 'red',
  failed: 'red',
  cancelled: 'grey',
}

export function SslStatus({ status }: { status: SslState }) {
  const { t } = useTranslation('ssl')
  return (
    <Badge color={COLORS[status] ?? 'grey'} data-testid="ssl-status" title={status}>
      {t(`status.${status}`)}
    </Badge>
  )
}

/**
 * The head of each screen of one certificate: back to the list, its common name and status, its
 * tabs. While the CA works (pending validation, issuing) the screen refreshes itself every few seconds.
 */
export function SslHeader({ certificate: c, current }: { certificate: Pick<Certificate, 'id' | 'common_name' | 'status'>; current: SslTab }) {
  const { t } = useTranslation('ssl')
  useRefreshWhile(c.status === 'pending_validation' || c.status === 'issuing')
  return (
    <>
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/ssls' }]}
        title={
          <span className="break-all" data-testid="ssl-title">
            {c.common_name}
          </span>
        }
        status={<SslStatus status={c.status} />}
      />
      <SslTabs id={c.id} current={current} />
    </>
  )
}

/** While the CA works, the page refreshes: a revalidation every 3 s while the tab is visible. */
function useRefreshWhile(running: boolean) {
  const revalidator = useRevalidator()
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') void revalidator.revalidate()
    }, 3000)
    return () => clearInterval(timer)
  }, [running, revalidator])
}

export type SslTab = 'overview' | 'validation' | 'files' | 'transactions' | 'log'

/** The tabs of one certificate (/ssls/{id}, …/validation, …/files, …/transactions, …/log), as the domain's tabs look. */
export function SslTabs({ id, current }: { id: string; current: SslTab }) {
  const { t } = useTranslation('ssl')
  const href = useContextHref()
  const base = `/ssls/${id}`
  const tabs = [
    { key: 'overview', to: base },
    { key: 'validation', to: `${base}/validation` },
    { key: 'files', to: `${base}/files` },
    { key: 'transactions', to: `${base}/transactions` },
    { key: 'log', to: `${base}/log` },
  ] as const
  return (
    <nav aria-label={t('tabs.label')} className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0 dark:border-slate-800" data-testid="ssl-tabs">
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          to={href(tab.to)}
          aria-current={tab.key === current ? 'page' : undefined}
          className={cn(
            '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm',
            tab.key === current
              ? 'border-blue-600 font-medium text-blue-700 dark:text-blue-300'
              : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100',
          )}
        >
          {t(`tabs.${tab.key}`)}
        </Link>
      ))}
    </nav>
  )
}

import { useEffect } from 'react'
import { Link, useRevalidator } from 'react-router'
import { formatMoney } from '#common/money.ts'
import type { SslOrganisationStatus, SslState } from '#common/ssl.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
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
  const base = `/ssls/${id}`
  const tabs = [
    { key: 'overview', to: base },
    { key: 'validation', to: `${base}/validation` },
    { key: 'files', to: `${base}/files` },
    { key: 'transactions', to: `${base}/transactions` },
    { key: 'log', to: `${base}/log` },
  ] as const
  return <Tabs label={t('tabs.label')} testId="ssl-tabs" tabs={tabs.map((tab) => ({ to: tab.to, label: t(`tabs.${tab.key}`), current: tab.key === current }))} />
}

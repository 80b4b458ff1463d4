import { formatDateTime } from '#app/lib/dates.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { loadCertificate } from './detail.server.ts'
import { SslHeader } from './shared.tsx'
import type { Route } from './+types/validation.ts'

/** /ssls/{id}/validation: per name its method, the exact record, its state and the CA's problem. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { certificate } = await loadCertificate(request, context, params)
  const t = getInstance(context).t
  return { certificate, meta: pageMeta(request, context, t('ssl:tabs.validation')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const STATE_COLOR = { pending: 'blue', valid: 'green', invalid: 'red' } as const

export default function SslValidation({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const c = loaderData.certificate
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="validation" />
      {c.validations.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{t('validation.none')}</p> : null}
      <div className="space-y-3">
        {c.validations.map((v) => (
          <Card key={v.id} data-testid="ssl-validation">
            <div className="mb-2 flex flex-wrap items-center gap-2">
              <span className="break-all font-mono text-sm font-medium">{v.name}</span>
              <Badge color={STATE_COLOR[v.state]} data-testid="ssl-validation-state">
                {t(`validation.states.${v.state}`)}
              </Badge>
              <span className="text-xs text-slate-500 dark:text-slate-400">{v.method.toUpperCase()}</span>
            </div>
            <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">{v.hosted ? t(v.published ? 'validation.hostedPublished' : 'validation.hosted') : t('validation.elsewhere')}</p>
            <pre className="overflow-x-auto rounded-md bg-slate-100 p-2 text-xs dark:bg-slate-900">{`${v.record_name ?? ''}. ${v.record_type} "${v.record_value ?? ''}"`}</pre>
            {v.problem ? (
              <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                {v.problem.detail ?? v.problem.type}
              </p>
            ) : null}
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
              {v.checked_at ? t('validation.checked', { when: formatDateTime(v.checked_at, i18n.language) }) : t('validation.notChecked')}
            </p>
          </Card>
        ))}
      </div>
    </div>
  )
}

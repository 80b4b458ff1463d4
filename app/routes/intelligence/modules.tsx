import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { MEASURES } from '#common/intelligence.ts'
import type { Route } from './+types/modules.ts'
import { IntelligenceNav } from './shared.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireScreen(request, context, params)
  const modules = await (await getPlatform(request, context)).get('/intelligence/modules')
  return { modules, meta: pageMeta(request, context, getInstance(context).t('intelligence:modules.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** /intelligence/modules: the catalogue — what each module reads and how often, and the security score's published weights. */
export default function Modules({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('intelligence')
  const { modules } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader title={t('modules.title')} description={t('modules.description')} />
      <IntelligenceNav current="modules" />
      <div className="grid gap-4 md:grid-cols-2">
        {modules.data.map((m) => (
          <Card key={m.name} data-testid={`module-${m.name}`}>
            <CardTitle className="mb-1">{t(`module.${m.name}.name`)}</CardTitle>
            <p className="text-sm text-slate-600 dark:text-slate-300">{t(`module.${m.name}.what`)}</p>
            <dl className="mt-3 grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-500">{t('modules.reads')}</dt>
              <dd>{m.reads.map((r) => t(`source.${r}`)).join(', ')}</dd>
              <dt className="text-slate-500">{t('modules.cadence')}</dt>
              <dd>{t(`cadence.${m.cadence}`)}</dd>
            </dl>
          </Card>
        ))}
      </div>
      <Card>
        <CardTitle className="mb-2">{t('score.weights')}</CardTitle>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300">{t('score.help')}</p>
        <ul className="grid gap-1 text-sm sm:grid-cols-3">
          {MEASURES.map((m) => (
            <li key={m} className="flex justify-between gap-3 border-b border-slate-100 py-1 dark:border-slate-900">
              <span>{t(`measure.${m}`)}</span>
              <span className="font-semibold tabular-nums">{modules.weights[m]}</span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  )
}

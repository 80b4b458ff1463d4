import { useTranslation } from '#app/lib/use-translation.ts'
import { Construction } from 'lucide-react'

/** The one honest empty state for a screen whose area is not built yet: no sample data. */
export function AreaPlaceholder({ area }: { area: string }) {
  const { t } = useTranslation('common')
  return (
    <section className="flex flex-col items-center gap-3 py-16 text-center" data-testid="area-placeholder">
      <Construction aria-hidden className="size-10 text-slate-400" />
      <h1 className="text-xl font-semibold">{t(`placeholder.${area}`, { defaultValue: t('placeholder.generic') })}</h1>
      <p className="max-w-md text-slate-600 dark:text-slate-400">{t('placeholder.explanation')}</p>
    </section>
  )
}

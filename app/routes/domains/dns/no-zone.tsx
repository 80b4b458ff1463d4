import { Link } from 'react-router'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'

/** A DNS tab of a domain without a zone: says so and leads to the DNS tab, where it is created. */
export function NoZone({ domainId }: { domainId: string | undefined }) {
  const { t } = useTranslation('dns')
  const href = useContextHref()
  return (
    <p data-testid="no-zone">
      {t('zone.noneShort')}{' '}
      <Link className="underline" to={href(`/domains/${domainId}/dns`)}>
        {t('zone.goCreate')}
      </Link>
    </p>
  )
}

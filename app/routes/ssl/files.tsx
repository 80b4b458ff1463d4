import { Link } from 'react-router'
import { Card } from '#app/components/ui/card.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SSL_FILE_FORMATS, SSL_FILES } from '#common/ssl.ts'
import { canChange } from '../accounts/directory.server.ts'
import { loadCertificate } from './detail.server.ts'
import { SslStatus, SslTabs } from './shared.tsx'
import type { Route } from './+types/files.ts'

/**
 * /ssls/{id}/files: the files of an issued certificate. `?download=<file>&format=pem|der` answers
 * the file itself (the private key: ssl-manager only, and the API writes it to the trail).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, url, groupContext, platform, certificate } = await loadCertificate(request, context, params)
  const wanted = url.searchParams.get('download')
  if (wanted && (SSL_FILES as readonly string[]).includes(wanted)) {
    const format = url.searchParams.get('format') === 'der' ? 'der' : 'pem'
    const file = await platform.get<{ filename: string; content_type: string; content_base64: string }>(`/groups/${groupContext}/ssls/${certificate.id}/files/${wanted}?format=${format}`)
    return new Response(Buffer.from(file.content_base64, 'base64'), {
      headers: { 'content-type': file.content_type, 'content-disposition': `attachment; filename="${file.filename}"`, 'cache-control': 'private, no-store' },
    })
  }
  const t = getInstance(context).t
  return { certificate, canKey: canChange(request, user, 'ssl-manager'), meta: pageMeta(request, context, t('ssl:tabs.files')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData && 'meta' in loaderData ? loaderData.meta : undefined)

export default function SslFiles({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('ssl')
  const href = useContextHref()
  if (!('certificate' in loaderData)) return null
  const c = loaderData.certificate
  const issued = c.status === 'issued' || c.status === 'expiring' || c.status === 'revoked' || c.status === 'expired'
  const files = SSL_FILES.filter((f) => f !== 'private-key' || (c.has_private_key && loaderData.canKey))
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="break-all text-2xl font-semibold tracking-tight">{c.common_name}</h1>
        <SslStatus status={c.status} />
      </div>
      <SslTabs id={c.id} current="files" />
      {!issued ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('files.notYet')}</p>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {files.map((f) => (
              <li key={f} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div>
                  <div className="text-sm font-medium">{t(`files.${f}`)}</div>
                  <div className="text-xs text-slate-500 dark:text-slate-400">{t(`files.${f}Help`)}</div>
                </div>
                <div className="flex gap-2">
                  {SSL_FILE_FORMATS.map((format) => (
                    <Link key={format} reloadDocument className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800" to={href(`/ssls/${c.id}/files?download=${f}&format=${format}`)} data-testid={`ssl-download-${f}-${format}`}>
                      {format.toUpperCase()}
                    </Link>
                  ))}
                </div>
              </li>
            ))}
          </ul>
          {c.has_private_key && loaderData.canKey ? <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">{t('files.keyAudited')}</p> : null}
        </Card>
      )}
    </div>
  )
}

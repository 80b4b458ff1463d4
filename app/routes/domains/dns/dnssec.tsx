import { NoZone } from './no-zone.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Form } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { Route } from './+types/dnssec.ts'
import { refusalTextOf } from '#app/lib/refusal.server.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { dnsScreen, zoneOfDomain } from './shared.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) return data({ zone: null, dnssec: null, canAdmin: screen.canAdmin })
  const dnssec = await screen.platform.get('/groups/{context}/zones/{zone}/dnssec', { path: { context: screen.groupContext, zone: zone.id } })
  return data({ zone: { id: zone.id, name: zone.name }, dnssec, canAdmin: screen.canAdmin })
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const here = `/domains/${params.id}/dnssec`
  // A role the page offers no control for: said on the page, never a 403 problem document from the platform.
  if (!screen.canAdmin) return backWith(request, screen.url.pathname, { content: t('zone.needsAdmin'), color: 'error' })
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) return backWith(request, here, { content: t('zone.none'), color: 'error' })
  const intent = String((await request.formData()).get('intent') ?? '')
  if (intent !== 'sign' && intent !== 'unsign') return backWith(request, here, { content: t('editor.unknownIntent'), color: 'error' })
  try {
    await screen.platform.post(`/groups/{context}/zones/{zone}/dnssec/${intent}`, { path: { context: screen.groupContext, zone: zone.id } })
    return backWith(request, here, { content: t(`dnssec.${intent}Queued`), color: 'success' })
  } catch (error) {
    return backWith(request, here, { content: refusalTextOf(t, error), color: 'error' })
  }
}

const STEPS = ['removeDs', 'waitTtl', 'unsign'] as const

export default function Dnssec({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('dns')
  const { zone, dnssec, canAdmin } = loaderData
  if (!zone || !dnssec) {
    return <NoZone domainId={params.id} />
  }
  const color = dnssec.state === 'signed' ? 'green' : dnssec.state === 'unsigned' ? 'grey' : 'amber'
  const ds = dnssec.keys.flatMap((k) => k.ds).length ? dnssec.keys.flatMap((k) => k.ds) : dnssec.ds_records
  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <h2 className="text-lg font-semibold">{t('dnssec.title', { name: zone.name })}</h2>
        <Badge color={color} data-testid="dnssec-state">
          {t(`dnssec.states.${dnssec.state}`)}
        </Badge>
      </div>
      {!dnssec.powerdns_configured ? <Alert>{t('dnssec.notConfigured')}</Alert> : null}
      {dnssec.keys_error ? <Alert variant="error">{dnssec.keys_error}</Alert> : null}
      {dnssec.state === 'signing' ? <Alert>{t('dnssec.signing')}</Alert> : null}
      {dnssec.state === 'unsigning' ? (
        <section className="space-y-1" data-testid="unsign-steps">
          <p className="text-sm">{t('dnssec.unsigningIntro')}</p>
          <ol className="list-decimal pl-5 text-sm">
            {STEPS.map((s) => (
              <li key={s}>{t(`dnssec.steps.${s}`)}</li>
            ))}
          </ol>
        </section>
      ) : null}
      {dnssec.keys.length ? (
        <section className="space-y-2">
          <h3 className="font-semibold">DNSKEY</h3>
          <ul className="space-y-2">
            {dnssec.keys.map((k) => (
              <li key={k.id} className="rounded border border-slate-200 p-2 text-sm dark:border-slate-800">
                <p>
                  {k.keytype.toUpperCase()} · {k.algorithm} · {k.bits} bits · {k.active ? t('dnssec.active') : t('dnssec.inactive')}
                </p>
                <code className="block break-all text-xs">{k.dnskey}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {ds.length ? (
        <section className="space-y-2">
          <h3 className="font-semibold">DS</h3>
          <ul className="space-y-1">
            {ds.map((d) => (
              <li key={d}>
                <code className="break-all text-xs">{d}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canAdmin ? (
        <Form method="post" className="space-y-2">
          {dnssec.state === 'unsigned' ? (
            <Button type="submit" name="intent" value="sign">
              {t('dnssec.sign')}
            </Button>
          ) : null}
          {dnssec.state === 'signed' ? (
            <>
              <p className="text-sm">{t('dnssec.unsignHelp')}</p>
              <Button type="submit" name="intent" value="unsign" variant="outline">
                {t('dnssec.unsign')}
              </Button>
            </>
          ) : null}
        </Form>
      ) : null}
    </div>
  )
}

import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { z } from 'zod'
import type { TFunction } from 'i18next'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { Field, SelectField, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { FoldedForm } from '#app/components/screen-parts.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { activeContext, carryContext } from '#app/lib/context-param.ts'
import { backWith } from '#app/lib/flash.server.ts'
import { canChange, requireChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { formErrorsOf } from '#app/lib/refusal.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ITEM_KINDS, SCHEDULES } from '#common/intelligence.ts'
import { isStaffInContext } from '#common/permissions.ts'
import type { Route } from './+types/index.ts'
import { intelligenceItemsList } from './lists.ts'
import { IntelligenceNav, RunBadge, words } from './shared.tsx'

const ITEM_FIELDS = ['kind', 'name', 'brand', 'strings', 'keywords', 'known_domains', 'priority_cctlds', 'template_id', 'schedule'] as const

const itemSchema = (t: TFunction) =>
  z.object({
    kind: z.enum(ITEM_KINDS),
    name: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(100),
    brand: z
      .string({ message: t('validation:required') })
      .trim()
      .min(1, t('validation:required'))
      .max(63),
    strings: z.string().max(2000).optional(),
    keywords: z.string().max(2000).optional(),
    known_domains: z.string().max(20_000).optional(),
    priority_cctlds: z.string().max(1000).optional(),
    template_id: z.string().optional(),
    schedule: z.enum(SCHEDULES).optional(),
  })

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const [{ page, headers }, templates] = await Promise.all([
    loadListPage(request, context, intelligenceItemsList, groupContext),
    platform.get('/groups/{context}/intelligence/templates', { path: { context: groupContext } }),
  ])
  const t = getInstance(context).t
  return data(
    {
      page,
      templates: templates.data.map((tp) => ({ id: tp.id, name: tp.name })),
      canManage: canChange(request, user, 'prospect-manager'),
      // Staff in their own group (the registrar's account) keep prospects; in a client's context, the client's brand.
      defaultKind: isStaffInContext(user, groupContext) ? 'prospect' : 'client',
      meta: pageMeta(request, context, t('intelligence:title')),
    },
    { headers },
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'prospect-manager')
  const form = await request.formData()
  const t = getInstance(context).t
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const submission = parseWithZod(form, { schema: itemSchema(t) })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const v = submission.value
  const platform = await getPlatform(request, context)
  let id: string
  try {
    const created = await platform.post('/groups/{context}/intelligence/items', {
      path: { context: groupContext },
      body: {
        kind: v.kind,
        name: v.name,
        brand: v.brand,
        strings: words(v.strings),
        keywords: words(v.keywords),
        known_domains: words(v.known_domains),
        priority_cctlds: words(v.priority_cctlds),
        ...(v.template_id ? { template_id: v.template_id } : {}),
        ...(v.schedule ? { schedule: v.schedule } : {}),
      },
    })
    id = created.id
  } catch (error) {
    return data({ result: submission.reply(formErrorsOf(t, error, ITEM_FIELDS, {}, 'intelligence')) }, { status: 400 })
  }
  return backWith(request, carryContext(`/intelligence/${id}`, url.searchParams), { content: t('intelligence:done.added', { name: v.name }), color: 'success' })
}

export default function Intelligence({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('intelligence')
  const { page, canManage } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader title={t('title')} description={t('description')} />
      <IntelligenceNav current="items" />
      {canManage ? <AddItem lastResult={actionData?.result} templates={loaderData.templates} defaultKind={loaderData.defaultKind} /> : null}
      <DataTable
        def={intelligenceItemsList}
        page={page}
        labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
        valueLabel={(key, value) => (key === 'kind' ? t(`kind.${value}`) : key === 'last_status' ? t(`runStatus.${value}`) : key === 'schedule' ? t(`schedule.${value}`) : value)}
        empty={<p className="text-sm text-slate-500">{t('items.empty')}</p>}
        renderCell={(row, key) => {
          if (key === 'name')
            return (
              <Link to={`/intelligence/${String(row.id)}`} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
                {String(row.name)}
              </Link>
            )
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          if (key === 'kind') return t(`kind.${String(row.kind)}`)
          if (key === 'last_status') return row.last_status ? <RunBadge status={String(row.last_status)} /> : <span className="text-slate-500">{t('items.neverRun')}</span>
          if (key === 'last_run_at') return row.last_run_at ? <DateText value={String(row.last_run_at)} lng={i18n.language} /> : '—'
          if (key === 'covered' || key === 'exposed') return row[key] === null || row[key] === undefined ? '—' : <span className="tabular-nums">{String(row[key])}</span>
          return undefined
        }}
      />
    </div>
  )
}

function AddItem({ lastResult, templates, defaultKind }: { lastResult: Parameters<typeof useZodForm>[1]['lastResult']; templates: { id: string; name: string }[]; defaultKind: string }) {
  const { t } = useTranslation('intelligence')
  const [form, fields] = useZodForm(itemSchema(t), { id: 'intelligence-add', lastResult, defaultValue: { kind: defaultKind, schedule: 'none' } })
  return (
    <FoldedForm title={t('add.title')} testId="intelligence-add-open" open={!!lastResult} form={form} help={t('add.help')} submit={{ label: t('add.submit'), testId: 'intelligence-add-submit' }}>
      <SelectField label={t('fields.kind')} selectProps={getSelectProps(fields.kind)} errors={fields.kind.errors}>
        {ITEM_KINDS.map((k) => (
          <option key={k} value={k}>
            {t(`kind.${k}`)}
          </option>
        ))}
      </SelectField>
      <Field labelProps={{ children: t('fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), placeholder: 'Acme Corp', autoComplete: 'off' }} errors={fields.name.errors} />
      <Field labelProps={{ children: t('fields.brand') }} inputProps={{ ...getInputProps(fields.brand, { type: 'text' }), placeholder: 'acme', autoComplete: 'off' }} errors={fields.brand.errors} />
      <Field
        labelProps={{ children: t('fields.strings') }}
        inputProps={{ ...getInputProps(fields.strings, { type: 'text' }), placeholder: 'acmecorp acme-corp', autoComplete: 'off' }}
        errors={fields.strings.errors}
      />
      <Field
        labelProps={{ children: t('fields.keywords') }}
        inputProps={{ ...getInputProps(fields.keywords, { type: 'text' }), placeholder: 'pay shop login', autoComplete: 'off' }}
        errors={fields.keywords.errors}
      />
      <Field
        labelProps={{ children: t('fields.known_domains') }}
        inputProps={{ ...getInputProps(fields.known_domains, { type: 'text' }), placeholder: 'acme.org acme.co.uk', autoComplete: 'off', className: 'font-mono' }}
        errors={fields.known_domains.errors}
      />
      <Field
        labelProps={{ children: t('fields.priority_cctlds') }}
        inputProps={{ ...getInputProps(fields.priority_cctlds, { type: 'text' }), placeholder: 'de es eu io jp uk fr', autoComplete: 'off' }}
        errors={fields.priority_cctlds.errors}
      />
      <SelectField label={t('fields.template')} selectProps={getSelectProps(fields.template_id)} errors={fields.template_id.errors}>
        <option value="">{t('add.noTemplate')}</option>
        {templates.map((tp) => (
          <option key={tp.id} value={tp.id}>
            {tp.name}
          </option>
        ))}
      </SelectField>
      <SelectField label={t('fields.schedule')} selectProps={getSelectProps(fields.schedule)} errors={fields.schedule.errors}>
        {SCHEDULES.map((s) => (
          <option key={s} value={s}>
            {t(`schedule.${s}`)}
          </option>
        ))}
      </SelectField>
    </FoldedForm>
  )
}

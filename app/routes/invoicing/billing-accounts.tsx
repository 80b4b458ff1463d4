import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getSelectProps } from '#app/components/field-props.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect } from 'react-router'
import { FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { flashHeader } from '#app/lib/flash.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { formErrorsOf, refusalOf, refusalText } from '#app/lib/refusal.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { billingScreen, loadEntity } from './billing.server.ts'
import { EntityTabs } from './billing.tsx'
import { addAccountSchema } from './billing-forms.ts'
import type { Route } from './+types/billing-accounts.ts'

/** /invoicing/billing-entities/{id}/accounts: the accounts the entity pays for; staff add and remove them. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const entity = await loadEntity(screen, params.id)
  const paid = new Set(entity.accounts.map((a) => a.id))
  const others = screen.staff
    ? (await screen.platform.get('/groups/{context}/accounts', { path: { context: screen.groupContext }, query: { limit: '1000', fields: 'id,name', sort: 'name' } })).data.filter(
        (a) => !paid.has(a.id),
      )
    : []
  const t = getInstance(context).t
  return { entity, others, staff: screen.staff, meta: pageMeta(request, context, `${t('billing:accounts.title')} — ${entity.name}`) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request)
  const screen = await billingScreen(request, context, params)
  requireChange(request, screen.user, 'staff')
  const t = getInstance(context).t
  const form = await request.formData()
  const done = (intent: 'add' | 'remove') =>
    redirect(screen.url.pathname + screen.url.search, {
      headers: { 'Set-Cookie': flashHeader(request, { content: t(intent === 'remove' ? 'billing:accounts.removed' : 'billing:accounts.added'), color: 'success' }) },
    })
  const pathOf = (account: string) => ({ path: { context: screen.groupContext, id: params.id, account } })
  if (form.get('intent') === 'remove') {
    // A one-button post beside its account: a refusal is the page's alert.
    try {
      await screen.platform.delete('/groups/{context}/billing-entities/{id}/accounts/{account}', pathOf(String(form.get('account_id') ?? '')))
    } catch (error) {
      return data({ errors: [refusalText(t, refusalOf(error, { screens: [403] }).problem)], result: undefined }, { status: 400 })
    }
    return done('remove')
  }
  const submission = parseWithZod(form, { schema: addAccountSchema(t) })
  if (submission.status !== 'success') return data({ errors: [], result: submission.reply() }, { status: 400 })
  try {
    await screen.platform.put('/groups/{context}/billing-entities/{id}/accounts/{account}', pathOf(submission.value.account_id))
  } catch (error) {
    return data({ errors: [], result: submission.reply(formErrorsOf(t, error, ['account_id'], {}, 'billing')) }, { status: 400 })
  }
  return done('add')
}

function AddAccount({ others, lastResult }: { others: { id: string; name: string }[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('billing')
  const [form, fields] = useZodForm(addAccountSchema(t), { id: 'add-account', lastResult })
  return (
    <Card>
      <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-end gap-3" aria-label={t('accounts.add')}>
        <FormErrors id={form.errorId} errors={form.errors} />
        <SelectField label={t('accounts.account')} selectProps={{ ...getSelectProps(fields.account_id), id: fields.account_id.id }} errors={fields.account_id.errors}>
          <option value="">—</option>
          {others.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" name="intent" value="add" className="mb-4">
          {t('accounts.add')}
        </Button>
      </Form>
    </Card>
  )
}

export default function BillingAccounts({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  const { entity, staff, others } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        title={entity.name}
        breadcrumb={[
          { to: '/invoicing', label: t('common:nav.invoicing') },
          { to: '/invoicing/billing-entities', label: t('entities.title') },
        ]}
      />
      <EntityTabs id={entity.id} current="accounts" />
      <FormErrors errors={actionData?.errors} />
      <Card>
        <CardTitle>{t('accounts.title')}</CardTitle>
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{t('accounts.intro')}</p>
        {entity.accounts.length === 0 ? (
          <p className="text-sm text-slate-500">{t('accounts.none')}</p>
        ) : (
          <div className="overflow-x-auto">
            <Table data-testid="entity-accounts">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('accounts.name')}</TableHead>
                  <TableHead>{t('accounts.currency')}</TableHead>
                  {staff ? (
                    <TableHead className="text-right">
                      <span className="sr-only">{t('accounts.remove')}</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {entity.accounts.map((a) => (
                  <TableRow key={a.id} data-testid="entity-account">
                    <TableCell>
                      {staff ? (
                        <Link className="hover:underline" to={href(`/accounts/${a.id}`)}>
                          {a.name}
                        </Link>
                      ) : (
                        a.name
                      )}
                    </TableCell>
                    <TableCell className="font-mono">{a.currency}</TableCell>
                    {staff ? (
                      <TableCell className="text-right">
                        <Form method="post" className="inline">
                          <input type="hidden" name="account_id" value={a.id} />
                          <Button type="submit" name="intent" value="remove" variant="outline" size="sm" aria-label={t('accounts.removeQuestion', { name: a.name })}>
                            {t('accounts.remove')}
                          </Button>
                        </Form>
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </Card>
      {staff && others.length ? <AddAccount key={entity.accounts.length} others={others} lastResult={actionData?.result} /> : null}
    </div>
  )
}

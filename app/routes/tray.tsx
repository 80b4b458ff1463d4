import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { readTray } from '#app/lib/tray.server.ts'
import type { Route } from './+types/tray.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireScreen(request, context)
  return { items: readTray(request), meta: pageMeta(request, context, getInstance(context).t('tray.title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Tray({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('common')
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('tray.title')}</h1>
      {loaderData.items.length === 0 ? (
        <p>{t('tray.nothing')}</p>
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('tray.type')}</TableHead>
                <TableHead>{t('tray.item')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {loaderData.items.map((item) => (
                <TableRow key={`${item.type}:${item.id}`} data-testid="tray-row">
                  <TableCell>{item.type}</TableCell>
                  <TableCell>{item.label || item.id}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Form method="post" action="/tray/items">
            <input type="hidden" name="redirectTo" value="/tray" />
            <Button type="submit" name="intent" value="clear" variant="outline">
              {t('tray.clear')}
            </Button>
          </Form>
        </>
      )}
    </div>
  )
}

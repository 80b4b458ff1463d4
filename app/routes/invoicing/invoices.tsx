import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#app/components/ui/table.tsx'
import { formatDate } from '#app/lib/dates.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { moneyOf } from './billing.tsx'
import type { Row } from '#app/lib/platform-api.ts'

export type InvoiceRow = Row<'/groups/{context}/billing-entities/{id}/invoices'>

/** A billing entity's invoices and credit notes, each downloadable as PDF and as e-invoice XML. */
export function Invoices({ invoices }: { invoices: InvoiceRow[] }) {
  const { t, i18n } = useTranslation('billing')
  const href = useContextHref()
  if (!invoices.length) return <p className="text-sm text-slate-500">{t('invoices.none')}</p>
  return (
    <div className="overflow-x-auto">
      <Table data-testid="invoices">
        <TableHeader>
          <TableRow>
            <TableHead>{t('invoices.number')}</TableHead>
            <TableHead>{t('invoices.period')}</TableHead>
            <TableHead>{t('invoices.issued')}</TableHead>
            <TableHead className="text-right">{t('invoices.tax')}</TableHead>
            <TableHead className="text-right">{t('invoices.total')}</TableHead>
            <TableHead>{t('invoices.files')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {invoices.map((invoice) => (
            <TableRow key={invoice.id} data-testid="invoice">
              <TableCell>
                <span className="font-mono">{invoice.number}</span>
                <div className="text-xs text-slate-500 dark:text-slate-400">
                  {t(`invoices.kinds.${invoice.kind}`)}
                  {invoice.reverse_charge ? ` · ${t('invoices.reverseCharge')}` : ''}
                  {invoice.corrects ? ` · ${t('invoices.corrects', { number: invoice.corrects.number })}` : ''}
                </div>
              </TableCell>
              <TableCell className="tabular-nums">{invoice.period}</TableCell>
              <TableCell className="whitespace-nowrap">{formatDate(invoice.issued_at, i18n.language)}</TableCell>
              <TableCell className="text-right tabular-nums">{moneyOf(invoice.tax_minor, invoice.currency, i18n.language)}</TableCell>
              <TableCell className="text-right font-medium tabular-nums">{moneyOf(invoice.total_minor, invoice.currency, i18n.language)}</TableCell>
              <TableCell className="space-x-3 whitespace-nowrap">
                <a className="text-blue-700 hover:underline dark:text-blue-400" href={href(`/invoicing/invoices/${invoice.id}/pdf`)} download>
                  PDF
                </a>
                <a className="text-blue-700 hover:underline dark:text-blue-400" href={href(`/invoicing/invoices/${invoice.id}/xml`)} download>
                  {t('invoices.xml')}
                </a>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}

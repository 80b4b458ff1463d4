import { once } from 'node:events'
import { PassThrough, Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import { data, type RouterContextProvider } from 'react-router'
import { csvCell } from '#app/lib/csv.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { domainsList } from '#app/routes/domains/lists.ts'
import { attachmentDisposition } from '#common/content-disposition.ts'
import { printPql } from '#common/pql.ts'
import { sslsList } from '#app/routes/ssl/lists.ts'
import { DOMAIN_DIMENSIONS, domainFigureFilters, FIGURE_REPORTS, figureTarget, type DomainDimension, type FigureReport } from '#common/reports.ts'
import type { Route } from './+types/export.ts'
import { reportDnsRecordsList, REPORT_LISTS } from './lists.ts'
import { valueAt } from './print.tsx'
import { listPages, loadDomainsReport, loadSectionsReport, reportScreen } from './report.server.ts'
import { amountsText, figureLabel } from './sections-view.tsx'

/** A column of an export: its heading, how its cells are typed in XLSX. */
type Column = { key: string; header: string; kind: 'text' | 'number' | 'boolean' | 'timestamp' | 'tags' }
/** One sheet: its name, columns and rows arriving page by page. */
type Sheet = { name: string; columns: Column[]; pages: AsyncIterable<Record<string, unknown>[]> }

const DOMAIN_FIELDS = ['name', 'unicode_name', 'tld', 'status', 'expires_at', 'auto_renew', 'registry_lock', 'registrar_lock', 'dnssec', 'tags', 'registrant_name', 'created_at']

const kindOf = (def: ListDefinition, key: string): Column['kind'] => {
  const type = def.columns.find((c) => c.key === key)?.type
  return type === 'integer' ? 'number' : type === 'boolean' ? 'boolean' : type === 'timestamp' || type === 'date' ? 'timestamp' : type === 'tags' ? 'tags' : 'text'
}

/**
 * GET /reports/<report>/export/<csv|xlsx>?<the report's filters>: the report's table (and, for a
 * report of figures, its figures) as CSV or XLSX, streamed page by page (decision 028): the rows are
 * read 1000 at a time through the list engine and written out before the next page is read. Refused
 * by the report's own guards.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (params.format !== 'csv' && params.format !== 'xlsx') throw data('Page Not Found', { status: 404 })
  const t = getInstance(context).getFixedT(null, 'reports')
  const sheets = await sheetsOf(params.report, request, context, t)
  const stamp = new Date().toISOString().slice(0, 10)
  const filename = `${params.report}-report-${stamp}.${params.format}`
  // A report of figures exports its figures as CSV (the first sheet); the record report, its records.
  const body = params.format === 'csv' ? csvStream(sheets) : xlsxStream(sheets)
  return new Response(body, {
    headers: {
      'Content-Type': params.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'Content-Disposition': attachmentDisposition(filename),
      'Cache-Control': 'no-store',
    },
  })
}

type T = (key: string, options?: Record<string, unknown>) => string

/** A figure report's export: its figures (section, figure, count, amounts, the list's pql) and the rows of the list behind them. */
async function figureSheets(kind: FigureReport, request: Request, context: Readonly<RouterContextProvider>, t: T): Promise<Sheet[]> {
  const { report, platform, group, url } = await loadSectionsReport(request, context, kind)
  const language = getInstance(context).language
  const rows = report.sections.flatMap((section) =>
    section.figures.map((f) => {
      const target = figureTarget(kind, section.key, f.key, { today: report.today, filters: report.filters })
      return {
        section: t(`${kind}.section.${section.key}`),
        label: figureLabel(t, language, kind, section.key, f.key, f.label),
        key: f.key,
        count: f.count,
        amount: amountsText(f, language),
        list: target?.path ?? '',
        pql: target ? printPql(target.filters) : '',
      }
    }),
  )
  const figures: Sheet = {
    name: t('export.figures'),
    columns: [
      { key: 'section', header: t('export.dimension'), kind: 'text' },
      { key: 'label', header: t('export.label'), kind: 'text' },
      { key: 'key', header: t('export.key'), kind: 'text' },
      { key: 'count', header: t('export.count'), kind: 'number' },
      ...(kind === 'renewals-forecast' || kind === 'operations' ? [{ key: 'amount', header: t(`${kind}.amount`), kind: 'text' } as const] : []),
      { key: 'list', header: t('export.list'), kind: 'text' },
      { key: 'pql', header: 'pql', kind: 'text' },
    ],
    pages: (async function* () {
      yield rows
    })(),
  }
  // The operations' figures count three lists (orders, differences, transactions): each figure names its list and pql; no one sheet holds their rows.
  if (kind === 'operations') return [figures]
  // The rows behind the figures: the report's own list (as its URL filters it), or the area's list over the report's whole scope.
  const own = REPORT_LISTS[kind]
  const listUrl = new URL(url)
  let def: ListDefinition = own ?? sslsList
  if (kind === 'renewals-forecast') {
    def = domainsList
    listUrl.search = ''
    listUrl.searchParams.set('fields', DOMAIN_FIELDS.join(','))
    const window = figureTarget(kind, 'tld', '', { today: report.today, filters: report.filters })!.filters.filter((f) => f.field !== 'tld')
    listUrl.searchParams.set('pql', printPql(window))
  } else if (!own) listUrl.search = ''
  const list = await listPages(platform, def, group, listUrl)
  const label = (key: string) =>
    kind === 'dns'
      ? t(`dns.fields.${key}`, { defaultValue: key })
      : kind === 'portfolio-activity'
        ? t(`common:audit.${key}`, { defaultValue: key })
        : kind === 'ssls'
          ? t(`ssl:fields.${key}`, { defaultValue: key })
          : t(`domains:fields.${key}`, { defaultValue: key })
  return [figures, { name: t(`export.rows.${kind}`), columns: list.columns.map((key) => ({ key, header: label(key), kind: kindOf(def, key) })), pages: list.pages() }]
}

async function sheetsOf(report: string, request: Request, context: Readonly<RouterContextProvider>, t: T): Promise<Sheet[]> {
  if ((FIGURE_REPORTS as readonly string[]).includes(report)) return figureSheets(report as FigureReport, request, context, t)
  const domainsT = (key: string) => t(`domains:fields.${key}`, { defaultValue: key })
  if (report === 'domains') {
    const { report: figures, platform, group } = await loadDomainsReport(request, context)
    const label = (dimension: DomainDimension, key: string) =>
      dimension === 'status'
        ? t(`common:status.domain.${key}`, { defaultValue: key })
        : dimension === 'expiry'
          ? t(`domains.bucket.${key}`)
          : dimension === 'tld' || dimension === 'tag'
            ? key
            : t(`domains.bool.${dimension}.${key}`)
    const rows = DOMAIN_DIMENSIONS.flatMap((dimension) =>
      figures.by[dimension].map((f) => ({
        dimension: t(`domains.dimension.${dimension}`),
        key: f.key,
        label: label(dimension, f.key),
        count: f.count,
        pql: printPql(domainFigureFilters(dimension, f.key, figures.today, figures.filters)),
      })),
    )
    // The rows behind the figures: the domain list filtered as the report is (its tag).
    const url = new URL('http://portal.invalid/')
    url.searchParams.set('fields', DOMAIN_FIELDS.join(','))
    if (figures.filters.tag) url.searchParams.set('pql', printPql(domainFigureFilters('tag', figures.filters.tag, figures.today, { tag: null })))
    const domains = await listPages(platform, domainsList, group, url)
    return [
      {
        name: t('export.figures'),
        columns: [
          { key: 'dimension', header: t('export.dimension'), kind: 'text' },
          { key: 'label', header: t('export.label'), kind: 'text' },
          { key: 'key', header: t('export.key'), kind: 'text' },
          { key: 'count', header: t('export.count'), kind: 'number' },
          { key: 'pql', header: 'pql', kind: 'text' },
        ],
        pages: (async function* () {
          yield rows
        })(),
      },
      { name: t('export.domains'), columns: DOMAIN_FIELDS.map((key) => ({ key, header: domainsT(key), kind: kindOf(domainsList, key) })), pages: domains.pages() },
    ]
  }
  if (report === 'dns-records') {
    const screen = await reportScreen(request, context, 'dns-viewer')
    const records = await listPages(screen.platform, reportDnsRecordsList, screen.group, screen.url)
    const columns = records.columns.map((key) => ({ key, header: t(`dns:fields.${key}`, { defaultValue: key }), kind: kindOf(reportDnsRecordsList, key) }))
    return [{ name: t('export.records'), columns, pages: records.pages() }]
  }
  throw data('Page Not Found', { status: 404 })
}

const plain = (value: unknown) => (Array.isArray(value) ? value.join(' ') : value)

/** The first sheet as CSV, a line per row as each page arrives. */
function csvStream(sheets: Sheet[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const line = (cells: unknown[]) => encoder.encode(`${cells.map(csvCell).join(',')}\r\n`)
  const [sheet] = sheets
  const pages = sheet!.pages[Symbol.asyncIterator]()
  let header = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!header) {
        header = true
        controller.enqueue(line(sheet!.columns.map((c) => c.header)))
        return
      }
      const next = await pages.next()
      if (next.done) return controller.close()
      for (const row of next.value) controller.enqueue(line(sheet!.columns.map((c) => plain(valueAt(row, c.key)))))
    },
  })
}

/** A cell as XLSX types it: dates as dates, counts as numbers, booleans as booleans, tags joined. */
function cellOf(column: Column, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null
  switch (column.kind) {
    case 'number':
      return Number(value)
    case 'boolean':
      return value === true || value === 'true'
    case 'timestamp':
      return new Date(String(value))
    case 'tags':
      return Array.isArray(value) ? value.join(', ') : String(value)
    default:
      return String(value)
  }
}

/**
 * The sheets as XLSX through exceljs' streaming writer: each row committed as it is written (only
 * the current page is held), no shared-strings table growing with the rows, the header row frozen
 * and filtered, dates typed with a date format.
 */
function xlsxStream(sheets: Sheet[]): ReadableStream<Uint8Array> {
  const out = new PassThrough()
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false })
  void (async () => {
    for (const sheet of sheets) {
      const worksheet = workbook.addWorksheet(sheet.name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] })
      worksheet.columns = sheet.columns.map((c) => ({
        key: c.key,
        width: c.kind === 'timestamp' ? 18 : c.kind === 'boolean' || c.kind === 'number' ? 12 : 28,
        ...(c.kind === 'timestamp' ? { style: { numFmt: 'yyyy-mm-dd hh:mm' } } : {}),
      }))
      worksheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: sheet.columns.length } }
      const header = worksheet.addRow(sheet.columns.map((c) => c.header))
      header.font = { bold: true }
      header.commit()
      for await (const page of sheet.pages) {
        for (const row of page) worksheet.addRow(sheet.columns.map((c) => cellOf(c, valueAt(row, c.key)))).commit()
        // The reader is slower than the pages: wait for it rather than buffer the file.
        if (out.writableNeedDrain) await once(out, 'drain')
      }
      worksheet.commit()
    }
    await workbook.commit()
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))))
  return Readable.toWeb(out) as ReadableStream<Uint8Array>
}

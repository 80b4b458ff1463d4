import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import { countryName } from '#common/countries.ts'
import { currencyDecimals, formatMoney } from '#common/money.ts'
import type { Invoice, InvoiceLine } from '#server/db/schema-billing.ts'
import { REVERSE_CHARGE_NOTE, SELLER } from './invoices.ts'

/**
 * An invoice or credit note as a PDF (pdf-lib, on the server) in the entity's language, and as an
 * EN 16931 e-invoice in UBL 2.1. The PDF uses the standard Helvetica, so Japanese invoices print
 * their labels in English (no CJK font is shipped); names outside its character set print as "?".
 */

const LABELS: Record<string, Record<string, string>> = {
  en: {
    invoice: 'Invoice',
    'credit-note': 'Credit note',
    number: 'Number',
    issued: 'Date',
    due: 'Due',
    period: 'Period',
    to: 'Bill to',
    vat: 'VAT id',
    description: 'Description',
    qty: 'Qty',
    unit: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal',
    tax: 'VAT',
    total: 'Total',
    page: 'Page',
  },
  es: {
    invoice: 'Factura',
    'credit-note': 'Factura rectificativa',
    number: 'Número',
    issued: 'Fecha',
    due: 'Vencimiento',
    period: 'Periodo',
    to: 'Facturar a',
    vat: 'NIF-IVA',
    description: 'Concepto',
    qty: 'Cant.',
    unit: 'Precio',
    amount: 'Importe',
    subtotal: 'Base imponible',
    tax: 'IVA',
    total: 'Total',
    page: 'Página',
  },
}

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 50
const ROWS_FIRST = 28
const ROWS_NEXT = 40

export async function invoicePdf(invoice: Invoice, lines: InvoiceLine[]): Promise<Uint8Array> {
  const language = invoice.language in LABELS ? invoice.language : 'en'
  const L = LABELS[language]!
  const locale = language
  const currency = invoice.currency.trim()
  const doc = await PDFDocument.create()
  doc.setTitle(`${L[invoice.kind]} ${invoice.number}`)
  doc.setAuthor(SELLER.name)
  doc.setLanguage(language)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const charset = new Set(font.getCharacterSet())
  const safe = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : [...text].map((ch) => (charset.has(ch.codePointAt(0)!) ? ch : '?')).join(''))
  const money = (minor: number) => safe(formatMoney(minor, currency, locale).replace(/\u00a0|\u202f/g, ' '))
  const text = (page: PDFPage, value: string, x: number, y: number, options: { size?: number; font?: PDFFont; right?: boolean } = {}) => {
    const f = options.font ?? font
    const size = options.size ?? 9
    const s = safe(value)
    page.drawText(s, { x: options.right ? x - f.widthOfTextAtSize(s, size) : x, y, size, font: f, color: rgb(0.1, 0.12, 0.16) })
  }
  const day = (date: Date) => date.toISOString().slice(0, 10)
  const pages = Math.max(1, 1 + Math.ceil(Math.max(0, lines.length - ROWS_FIRST) / ROWS_NEXT))
  let index = 0
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage(A4)
    let y = A4[1] - MARGIN
    if (p === 0) {
      text(page, SELLER.name, MARGIN, y, { size: 12, font: bold })
      text(page, `${SELLER.street}, ${SELLER.postcode} ${SELLER.city}, ${countryName(SELLER.country, language === 'ja' ? 'en' : language)}`, MARGIN, y - 14)
      text(page, `${L.vat}: ${SELLER.vat_id}`, MARGIN, y - 26)
      text(page, `${L[invoice.kind]} ${invoice.number}`, A4[0] - MARGIN, y, { size: 16, font: bold, right: true })
      y -= 60
      const meta: [string, string][] = [
        [L.number!, invoice.number],
        [L.issued!, day(invoice.issued_at)],
        [L.due!, day(invoice.due_at)],
        [L.period!, invoice.period.slice(0, 7)],
      ]
      meta.forEach(([k, v], i) => {
        text(page, k, A4[0] - 200, y - i * 12, { font: bold })
        text(page, v, A4[0] - MARGIN, y - i * 12, { right: true })
      })
      const b = invoice.buyer
      const address = [
        b.address.street1,
        b.address.street2,
        [b.address.postcode, b.address.city].filter(Boolean).join(' '),
        b.address.state,
        countryName(b.country, language === 'ja' ? 'en' : language),
      ].filter(Boolean) as string[]
      text(page, L.to!, MARGIN, y, { font: bold })
      ;[b.name, ...address, ...(b.vat_id ? [`${L.vat}: ${b.vat_id}`] : [])].forEach((line, i) => text(page, line, MARGIN, y - 12 * (i + 1)))
      y -= 12 * (address.length + 4)
    } else {
      text(page, `${L[invoice.kind]} ${invoice.number}`, MARGIN, y, { font: bold })
      y -= 24
    }
    text(page, L.description!, MARGIN, y, { font: bold })
    text(page, L.qty!, 360, y, { font: bold, right: true })
    text(page, L.unit!, 450, y, { font: bold, right: true })
    text(page, L.amount!, A4[0] - MARGIN, y, { font: bold, right: true })
    page.drawLine({ start: { x: MARGIN, y: y - 4 }, end: { x: A4[0] - MARGIN, y: y - 4 }, thickness: 0.5, color: rgb(0.7, 0.72, 0.75) })
    y -= 16
    const rows = p === 0 ? ROWS_FIRST : ROWS_NEXT
    for (const line of lines.slice(index, index + rows)) {
      text(page, line.description.length > 60 ? `${line.description.slice(0, 59)}…` : line.description, MARGIN, y)
      text(page, String(line.quantity), 360, y, { right: true })
      text(page, money(Number(line.unit_minor)), 450, y, { right: true })
      text(page, money(Number(line.amount_minor)), A4[0] - MARGIN, y, { right: true })
      y -= 14
    }
    index += rows
    if (p === pages - 1) {
      y -= 10
      page.drawLine({ start: { x: 300, y: y + 8 }, end: { x: A4[0] - MARGIN, y: y + 8 }, thickness: 0.5, color: rgb(0.7, 0.72, 0.75) })
      const rate = Number(invoice.tax_rate_percent)
      const totals: [string, number, boolean][] = [
        [L.subtotal!, Number(invoice.subtotal_minor), false],
        [`${L.tax} ${rate.toFixed(2)} %`, Number(invoice.tax_minor), false],
        [L.total!, Number(invoice.total_minor), true],
      ]
      for (const [k, v, strong] of totals) {
        text(page, k, 300, y, strong ? { font: bold } : {})
        text(page, money(v), A4[0] - MARGIN, y, { right: true, ...(strong ? { font: bold } : {}) })
        y -= 14
      }
      if (invoice.reverse_charge) text(page, REVERSE_CHARGE_NOTE[language] ?? REVERSE_CHARGE_NOTE.en!, MARGIN, y - 10, { size: 8 })
    }
    text(page, `${L.page} ${p + 1} / ${pages}`, A4[0] - MARGIN, 30, { size: 8, right: true })
  }
  return doc.save()
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The document as an EN 16931 (CIUS-free) UBL 2.1 Invoice or CreditNote. */
export function invoiceUbl(invoice: Invoice, lines: InvoiceLine[]): string {
  const credit = invoice.kind === 'credit-note'
  const root = credit ? 'CreditNote' : 'Invoice'
  const currency = invoice.currency.trim()
  const decimals = currencyDecimals(currency)
  // A credit note states its amounts as positive numbers (UBL): its kind says they are credited.
  const amount = (minor: number) => `<cbc:__ currencyID="${currency}">${(Math.abs(minor) / 10 ** decimals).toFixed(decimals)}</cbc:__>`
  const a = (name: string, minor: number) => amount(minor).replace(/__/g, name)
  const day = (date: Date) => date.toISOString().slice(0, 10)
  const category = invoice.reverse_charge ? 'AE' : Number(invoice.tax_rate_percent) > 0 ? 'S' : 'O'
  const taxCategory = (tag: string) =>
    `<cac:${tag}><cbc:ID>${category}</cbc:ID>${category === 'O' ? '' : `<cbc:Percent>${Number(invoice.tax_rate_percent).toFixed(2)}</cbc:Percent>`}${tag === 'ClassifiedTaxCategory' ? '' : category === 'AE' ? '<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>Reverse charge</cbc:TaxExemptionReason>' : category === 'O' ? '<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>Not subject to VAT</cbc:TaxExemptionReason>' : ''}<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`
  const b = invoice.buyer
  const party = (name: string, street: string, city: string, postcode: string, country: string, vat: string | null) =>
    `<cac:Party><cac:PostalAddress>${street ? `<cbc:StreetName>${xml(street)}</cbc:StreetName>` : ''}${city ? `<cbc:CityName>${xml(city)}</cbc:CityName>` : ''}${postcode ? `<cbc:PostalZone>${xml(postcode)}</cbc:PostalZone>` : ''}<cac:Country><cbc:IdentificationCode>${country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>${vat ? `<cac:PartyTaxScheme><cbc:CompanyID>${xml(vat)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}<cac:PartyLegalEntity><cbc:RegistrationName>${xml(name)}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party>`
  const qty = credit ? 'CreditedQuantity' : 'InvoicedQuantity'
  const lineTag = credit ? 'CreditNoteLine' : 'InvoiceLine'
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">`,
    '<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>',
    `<cbc:ID>${xml(invoice.number)}</cbc:ID>`,
    `<cbc:IssueDate>${day(invoice.issued_at)}</cbc:IssueDate>`,
    credit ? '' : `<cbc:DueDate>${day(invoice.due_at)}</cbc:DueDate>`,
    `<cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>${credit ? 381 : 380}</cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>`,
    invoice.reverse_charge ? `<cbc:Note>${xml(REVERSE_CHARGE_NOTE.en!)}</cbc:Note>` : '',
    `<cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>`,
    `<cac:InvoicePeriod><cbc:StartDate>${invoice.period}</cbc:StartDate></cac:InvoicePeriod>`,
    `<cac:AccountingSupplierParty>${party(SELLER.name, SELLER.street, SELLER.city, SELLER.postcode, SELLER.country, SELLER.vat_id)}</cac:AccountingSupplierParty>`,
    `<cac:AccountingCustomerParty>${party(b.name, b.address.street1 ?? '', b.address.city ?? '', b.address.postcode ?? '', b.country, b.vat_id)}</cac:AccountingCustomerParty>`,
    `<cac:TaxTotal>${a('TaxAmount', Number(invoice.tax_minor))}<cac:TaxSubtotal>${a('TaxableAmount', Number(invoice.subtotal_minor))}${a('TaxAmount', Number(invoice.tax_minor))}${taxCategory('TaxCategory')}</cac:TaxSubtotal></cac:TaxTotal>`,
    `<cac:LegalMonetaryTotal>${a('LineExtensionAmount', Number(invoice.subtotal_minor))}${a('TaxExclusiveAmount', Number(invoice.subtotal_minor))}${a('TaxInclusiveAmount', Number(invoice.total_minor))}${a('PayableAmount', Number(invoice.total_minor))}</cac:LegalMonetaryTotal>`,
    ...lines.map(
      (line) =>
        `<cac:${lineTag}><cbc:ID>${line.position}</cbc:ID><cbc:${qty} unitCode="C62">${line.quantity}</cbc:${qty}>${a('LineExtensionAmount', Number(line.amount_minor))}<cac:Item><cbc:Name>${xml(line.description)}</cbc:Name>${taxCategory('ClassifiedTaxCategory')}</cac:Item><cac:Price>${a('PriceAmount', Number(line.unit_minor))}</cac:Price></cac:${lineTag}>`,
    ),
    `</${root}>`,
  ]
    .filter(Boolean)
    .join('\n')
}

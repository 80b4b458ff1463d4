import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import fontkit from '@pdf-lib/fontkit'
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib'
import subsetFont from 'subset-font'
import { countryName } from '#common/countries.ts'
import { currencyDecimals, formatMoney, formatPercent } from '#common/money.ts'
import type { Invoice, InvoiceLine } from '#server/db/schema-billing.ts'
import { REVERSE_CHARGE_NOTE, type CorrectedInvoice } from './invoices.ts'
import { compactIban, printedIban } from './seller.ts'

/**
 * An invoice or credit note as a PDF (pdf-lib, on the server) in the entity's language, and as an
 * EN 16931 e-invoice in UBL 2.1. English and Spanish print in the standard Helvetica; Japanese in
 * Noto Sans JP (OFL, the npm package @expo-google-fonts/noto-sans-jp), embedded as a subset of the
 * characters the document prints (subset-font: harfbuzz's hb-subset). A character its font lacks prints as "?".
 */

const require = createRequire(import.meta.url)
const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '…·'
let notoSansJp: Promise<[Uint8Array, Uint8Array]> | undefined
/** Noto Sans JP regular and bold, read once per process (5 MB each; the PDF carries only the glyphs it uses). */
const japaneseFonts = () =>
  (notoSansJp ??= Promise.all([
    readFile(require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf')),
    readFile(require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf')),
  ]))

const LABELS: Record<string, Record<string, string>> = {
  en: {
    invoice: 'Invoice',
    'credit-note': 'Credit note',
    number: 'Number',
    issued: 'Date',
    due: 'Due',
    corrects: 'Corrects invoice {number} of {date}.',
    period: 'Period',
    to: 'Bill to',
    vat: 'VAT id',
    registration: 'Company reg. no.',
    description: 'Description',
    qty: 'Qty',
    unit: 'Unit price',
    amount: 'Amount',
    subtotal: 'Subtotal',
    tax: 'VAT',
    total: 'Total',
    page: 'Page',
    pay: 'Please pay by bank transfer by {due}, quoting {number}.',
    holder: 'Account holder',
  },
  es: {
    invoice: 'Factura',
    'credit-note': 'Factura rectificativa',
    number: 'Número',
    issued: 'Fecha',
    due: 'Vencimiento',
    corrects: 'Rectifica la factura {number} del {date}.',
    period: 'Periodo',
    to: 'Facturar a',
    vat: 'NIF-IVA',
    registration: 'N.º de registro',
    description: 'Concepto',
    qty: 'Cant.',
    unit: 'Precio',
    amount: 'Importe',
    subtotal: 'Base imponible',
    tax: 'IVA',
    total: 'Total',
    page: 'Página',
    pay: 'Pague por transferencia bancaria antes del {due}, indicando {number}.',
    holder: 'Titular',
  },
  ja: {
    invoice: '請求書',
    'credit-note': '貸方票',
    number: '番号',
    issued: '発行日',
    due: '支払期限',
    corrects: '{date} 付けの請求書 {number} を訂正します。',
    period: '対象期間',
    to: '請求先',
    vat: 'VAT番号',
    registration: '登記番号',
    description: '内容',
    qty: '数量',
    unit: '単価',
    amount: '金額',
    subtotal: '小計',
    tax: '税',
    total: '合計',
    page: 'ページ',
    pay: '{due} までに、{number} を記載のうえ銀行振込でお支払いください。',
    holder: '口座名義',
  },
}

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 50
const ROWS_FIRST = 28
const ROWS_NEXT = 40

/**
 * The PDF. A credit note names the invoice it corrects (with that invoice's date) and has no due
 * date; amounts and the tax rate are written in the document's language (es: "IVA 21,00 %", "12,99 €").
 */
export async function invoicePdf(invoice: Invoice, lines: InvoiceLine[], corrects: CorrectedInvoice | null = null): Promise<Uint8Array> {
  const language = invoice.language in LABELS ? invoice.language : 'en'
  const L = LABELS[language]!
  const locale = language
  const currency = invoice.currency.trim()
  const doc = await PDFDocument.create()
  doc.setTitle(`${L[invoice.kind]} ${invoice.number}`)
  // The seller the document was issued by (configuration at the run, kept with it).
  const seller = invoice.seller
  doc.setAuthor(seller.name)
  doc.setLanguage(language)
  let font: PDFFont
  let bold: PDFFont
  if (language === 'ja') {
    // The font cut down (harfbuzz's hb-subset) to the characters this document can print: every
    // text it draws is known before it draws (pdf-lib's own subsetting, through fontkit, loses
    // glyphs of this font).
    const b = invoice.buyer
    const printed = [
      PRINTABLE_ASCII,
      ...Object.values(L),
      ...Object.values(seller),
      countryName(seller.country, language),
      countryName(b.country, language),
      invoice.number,
      b.name,
      ...Object.values(b.address),
      b.vat_id ?? '',
      REVERSE_CHARGE_NOTE[language] ?? '',
      ...lines.flatMap((line) => [line.description, formatMoney(Number(line.unit_minor), currency, locale), formatMoney(Number(line.amount_minor), currency, locale)]),
      ...[invoice.subtotal_minor, invoice.tax_minor, invoice.total_minor].map((minor) => formatMoney(Number(minor), currency, locale)),
    ].join('')
    const [regular, heavy] = await Promise.all((await japaneseFonts()).map((full) => subsetFont(Buffer.from(full), printed, { targetFormat: 'truetype' })))
    doc.registerFontkit(fontkit)
    // Its 'locl' feature swaps Latin runs' digits for other glyphs that print spaced out: left off.
    font = await doc.embedFont(regular!, { features: { locl: false } })
    bold = await doc.embedFont(heavy!, { features: { locl: false } })
    // A custom font lays out every string it measures or draws (fontkit), and an invoice repeats
    // its amounts hundreds of times: each distinct string is laid out once per font.
    for (const f of [font, bold]) {
      const encode = f.encodeText.bind(f)
      const width = f.widthOfTextAtSize.bind(f)
      const encoded = new Map<string, ReturnType<typeof encode>>()
      const widths = new Map<string, number>()
      f.encodeText = (t) => encoded.get(t) ?? encoded.set(t, encode(t)).get(t)!
      f.widthOfTextAtSize = (t, size) => (widths.get(t) ?? widths.set(t, width(t, 1)).get(t)!) * size
    }
  } else {
    font = await doc.embedFont(StandardFonts.Helvetica)
    bold = await doc.embedFont(StandardFonts.HelveticaBold)
  }
  const charset = new Set(font.getCharacterSet())
  const safe = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text : [...text].map((ch) => (charset.has(ch.codePointAt(0)!) ? ch : '?')).join(''))
  // Intl's spaces (no-break, narrow no-break) are not in the standard fonts: printed as spaces.
  const spaced = (value: string) => safe(value.replace(/\u00a0|\u202f/g, ' '))
  const money = (minor: number) => spaced(formatMoney(minor, currency, locale))
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
      text(page, seller.name, MARGIN, y, { size: 12, font: bold })
      text(page, `${seller.street}, ${seller.postcode} ${seller.city}, ${countryName(seller.country, language)}`, MARGIN, y - 14)
      text(page, `${L.vat}: ${seller.vat_id} · ${L.registration}: ${seller.registration}`, MARGIN, y - 26)
      text(page, `${L[invoice.kind]} ${invoice.number}`, A4[0] - MARGIN, y, { size: 16, font: bold, right: true })
      y -= 60
      const meta: [string, string][] = [
        [L.number!, invoice.number],
        [L.issued!, day(invoice.issued_at)],
        ...(invoice.due_at ? [[L.due!, day(invoice.due_at)] as [string, string]] : []),
        [L.period!, invoice.period.slice(0, 7)],
      ]
      meta.forEach(([k, v], i) => {
        text(page, k, A4[0] - 200, y - i * 12, { font: bold })
        text(page, v, A4[0] - MARGIN, y - i * 12, { right: true })
      })
      const b = invoice.buyer
      const address = [b.address.street1, b.address.street2, [b.address.postcode, b.address.city].filter(Boolean).join(' '), b.address.state, countryName(b.country, language)].filter(
        Boolean,
      ) as string[]
      text(page, L.to!, MARGIN, y, { font: bold })
      ;[b.name, ...address, ...(b.vat_id ? [`${L.vat}: ${b.vat_id}`] : [])].forEach((line, i) => text(page, line, MARGIN, y - 12 * (i + 1)))
      y -= 12 * (address.length + 4)
      // A credit note names the invoice it corrects, with its date.
      if (corrects) {
        text(page, L.corrects!.replace('{number}', corrects.number).replace('{date}', day(corrects.issued_at)), MARGIN, y, { font: bold })
        y -= 24
      }
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
        [`${L.tax} ${spaced(formatPercent(rate, locale))}`, Number(invoice.tax_minor), false],
        [L.total!, Number(invoice.total_minor), true],
      ]
      for (const [k, v, strong] of totals) {
        text(page, k, 300, y, strong ? { font: bold } : {})
        text(page, money(v), A4[0] - MARGIN, y, { right: true, ...(strong ? { font: bold } : {}) })
        y -= 14
      }
      if (invoice.reverse_charge) {
        text(page, REVERSE_CHARGE_NOTE[language] ?? REVERSE_CHARGE_NOTE.en!, MARGIN, y - 10, { size: 8 })
        y -= 14
      }
      // How to pay (issue 28): an invoice names the seller's account it was issued with; a credit note is not paid.
      if (invoice.kind === 'invoice' && seller.iban) {
        text(page, L.pay!.replace('{due}', invoice.due_at ? day(invoice.due_at) : day(invoice.issued_at)).replace('{number}', invoice.number), MARGIN, y - 18, { font: bold })
        const account = [`${L.holder}: ${seller.name}`, `IBAN: ${printedIban(seller.iban)}`, ...(seller.bic ? [`BIC: ${seller.bic}`] : []), ...(seller.bank_name ? [seller.bank_name] : [])]
        text(page, account.join(' · '), MARGIN, y - 30)
      }
    }
    text(page, `${L.page} ${p + 1} / ${pages}`, A4[0] - MARGIN, 30, { size: 8, right: true })
  }
  return doc.save()
}

const xml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The document as an EN 16931 (CIUS-free) UBL 2.1 Invoice or CreditNote. */
export function invoiceUbl(invoice: Invoice, lines: InvoiceLine[], corrects: CorrectedInvoice | null = null): string {
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
  // A supply not subject to VAT (category O) names no VAT identifier of either party (EN 16931
  // BR-O-02); the seller is then known by its legal registration (BR-CO-26).
  const vatIds = category !== 'O'
  const party = (name: string, street: string, city: string, postcode: string, country: string, vat: string | null, registration?: string) =>
    `<cac:Party><cac:PostalAddress>${street ? `<cbc:StreetName>${xml(street)}</cbc:StreetName>` : ''}${city ? `<cbc:CityName>${xml(city)}</cbc:CityName>` : ''}${postcode ? `<cbc:PostalZone>${xml(postcode)}</cbc:PostalZone>` : ''}<cac:Country><cbc:IdentificationCode>${country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>${vat && vatIds ? `<cac:PartyTaxScheme><cbc:CompanyID>${xml(vat)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}<cac:PartyLegalEntity><cbc:RegistrationName>${xml(name)}</cbc:RegistrationName>${registration ? `<cbc:CompanyID>${xml(registration)}</cbc:CompanyID>` : ''}</cac:PartyLegalEntity></cac:Party>`
  const qty = credit ? 'CreditedQuantity' : 'InvoicedQuantity'
  const lineTag = credit ? 'CreditNoteLine' : 'InvoiceLine'
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">`,
    '<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>',
    `<cbc:ID>${xml(invoice.number)}</cbc:ID>`,
    `<cbc:IssueDate>${day(invoice.issued_at)}</cbc:IssueDate>`,
    // A credit note is not paid: it has no due date (UBL's CreditNote has no DueDate).
    !credit && invoice.due_at ? `<cbc:DueDate>${day(invoice.due_at)}</cbc:DueDate>` : '',
    `<cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>${credit ? 381 : 380}</cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}>`,
    invoice.reverse_charge ? `<cbc:Note>${xml(REVERSE_CHARGE_NOTE.en!)}</cbc:Note>` : '',
    `<cbc:DocumentCurrencyCode>${currency}</cbc:DocumentCurrencyCode>`,
    // The month invoiced (a credit note: its invoice's), first to last day (BG-14).
    `<cac:InvoicePeriod><cbc:StartDate>${invoice.period}</cbc:StartDate><cbc:EndDate>${day(new Date(Date.UTC(Number(invoice.period.slice(0, 4)), Number(invoice.period.slice(5, 7)), 0)))}</cbc:EndDate></cac:InvoicePeriod>`,
    // The invoice a credit note corrects (BG-3: its number and issue date).
    corrects
      ? `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${xml(corrects.number)}</cbc:ID><cbc:IssueDate>${day(corrects.issued_at)}</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>`
      : '',
    `<cac:AccountingSupplierParty>${party(invoice.seller.name, invoice.seller.street, invoice.seller.city, invoice.seller.postcode, invoice.seller.country, invoice.seller.vat_id, invoice.seller.registration)}</cac:AccountingSupplierParty>`,
    `<cac:AccountingCustomerParty>${party(b.name, b.address.street1 ?? '', b.address.city ?? '', b.address.postcode ?? '', b.country, b.vat_id)}</cac:AccountingCustomerParty>`,
    // How to pay (BG-16/BG-17): a credit transfer (SEPA's, code 58, in euros; else 30) to the seller's account (BT-84), its BIC (BT-86), the invoice's number as the remittance reference (BT-83).
    !credit && invoice.seller.iban
      ? `<cac:PaymentMeans><cbc:PaymentMeansCode>${currency === 'EUR' ? 58 : 30}</cbc:PaymentMeansCode><cbc:PaymentID>${xml(invoice.number)}</cbc:PaymentID><cac:PayeeFinancialAccount><cbc:ID>${xml(compactIban(invoice.seller.iban))}</cbc:ID><cbc:Name>${xml(invoice.seller.name)}</cbc:Name>${invoice.seller.bic ? `<cac:FinancialInstitutionBranch><cbc:ID>${xml(invoice.seller.bic)}</cbc:ID></cac:FinancialInstitutionBranch>` : ''}</cac:PayeeFinancialAccount></cac:PaymentMeans>`
      : '',
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

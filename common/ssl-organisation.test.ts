import { describe, expect, it } from 'vitest'
import { checkErrors, organisationErrors, sslCheckSchema, sslOrganisationSchema } from './ssl-organisation.ts'

const details = { legal_name: ' Acme Labs ', street1: '1 Lab Lane', city: 'Boston', country: 'us', phone: '+1 617 555 0100', approver_name: 'Ada', approver_email: 'Ada@Acme.Example' }

describe('the organisation schema both sides parse with', () => {
  it('gives back the details as the API stores them', () => {
    expect(sslOrganisationSchema().parse({ ...details, jurisdiction_country: 'us', incorporation_date: '' })).toMatchObject({
      legal_name: 'Acme Labs',
      country: 'US',
      phone: '+16175550100',
      approver_email: 'ada@acme.example',
      approver_phone: '',
      jurisdiction_country: 'US',
      business_category: '',
      incorporation_date: null,
    })
  })

  it('says every refusal at once, each with its code, in the order of the fields; the words are the side’s own', () => {
    const bad = { ...details, legal_name: '', phone: '617 555 0100', jurisdiction_locality: 'Boston', incorporation_date: '2020-02-30' }
    const english = sslOrganisationSchema().safeParse(bad)
    expect(english.success || organisationErrors(english.error)).toEqual([
      { field: 'legal_name', code: 'field.required', message: 'This field is required' },
      { field: 'phone', code: 'phone.missing_plus', message: 'Start the number with + and the country calling code' },
      { field: 'jurisdiction_country', code: 'ssl.jurisdiction-country-required', message: 'A state or locality of incorporation needs its country' },
      { field: 'incorporation_date', code: 'date.invalid', message: 'Not a date (YYYY-MM-DD)' },
    ])
    const said = sslOrganisationSchema((code, values) => `[${code}${values?.max ? ` ${values.max}` : ''}]`).safeParse({ ...bad, street1: 'x'.repeat(201) })
    expect(said.success || said.error.issues.map((i) => i.message)).toEqual([
      '[field.required]',
      '[phone.missing_plus]',
      '[field.too_long 200]',
      '[date.invalid]',
      '[ssl.jurisdiction-country-required]',
    ])
  })

  it('names the categories it allows', () => {
    const parsed = sslOrganisationSchema().safeParse({ ...details, business_category: 'charity' })
    expect(parsed.success || organisationErrors(parsed.error)).toEqual([
      {
        field: 'business_category',
        code: 'ssl.business-category',
        message: 'Choose a business category offered',
        allowed: ['private_organization', 'government_entity', 'business_entity', 'non_commercial_entity'],
      },
    ])
  })
})

describe('the check schema both sides parse with', () => {
  it('takes a state offered and a note, which attention needs', () => {
    expect(sslCheckSchema().parse({ state: 'validated' })).toEqual({ state: 'validated', note: '' })
    const refused = (input: Record<string, unknown>) => {
      const parsed = sslCheckSchema().safeParse(input)
      return parsed.success ? [] : checkErrors(parsed.error).map((e) => `${e.field}:${e.code}`)
    }
    expect(refused({ state: 'attention', note: '  ' })).toEqual(['note:ssl.check-note-required'])
    expect(refused({ state: 'done', note: 'x'.repeat(2001) })).toEqual(['state:ssl.check-state', 'note:field.too_long'])
  })
})

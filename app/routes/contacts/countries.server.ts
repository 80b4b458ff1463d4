import { countryName } from '#common/countries.ts'
import { COUNTRY_CODES } from '#common/countries.ts'

/** Every assigned country, named and sorted in the user's language, for the country select. */
export function countryOptions(lng: string): { code: string; name: string }[] {
  const collator = new Intl.Collator(lng)
  return [...COUNTRY_CODES].map((code) => ({ code, name: countryName(code, lng) })).sort((a, b) => collator.compare(a.name, b.name))
}

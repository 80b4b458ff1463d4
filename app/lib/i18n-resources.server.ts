import type { Resource } from 'i18next'
import { i18nOptions } from './i18n.ts'

// Every locales/<lng>/<ns>.json in the server build: rendering is synchronous, with no loading
// state. The browser never imports this module; it gets the texts of one language (i18n-client.ts).
const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' })

export const resources: Resource = {}
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)
  if (!match) continue
  const [, lng, ns] = match as unknown as [string, string, string]
  ;(resources[lng] ??= {})[ns] = content
}

/** The i18next options of the server (and of unit tests): the shared ones with every text. */
export const serverI18nOptions = { ...i18nOptions, resources }

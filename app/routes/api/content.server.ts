import { en } from './content/en.ts'
import { es } from './content/es.ts'
import { ja } from './content/ja.ts'
import type { DocsContent } from './content/types.ts'

const CONTENT: Record<string, DocsContent> = { en, es, ja }

/** The docs pages' words in the request's language (English when it has none of its own). */
export function docsContent(locale: string): DocsContent {
  return CONTENT[locale] ?? en
}

import type { QuickStartStep } from '../quick-start.ts'
import type { SnippetKey } from '../snippets.ts'

/**
 * One section of a docs page: paragraphs, then a list, then commands (shared snippets, the same
 * in every language). Text between backticks renders as code.
 */
export type DocsSection = { id: string; title: string; paragraphs: string[]; items?: string[]; snippets?: SnippetKey[] }

/** Everything the public API pages say, in one language (decision 020). */
export type DocsContent = {
  overview: {
    title: string
    description: string
    lead: string
    facts: string[]
    quickStartTitle: string
    quickStartIntro: string
    steps: Record<QuickStartStep, { title: string; text: string }>
    nextTitle: string
    next: { context: string; authentication: string; reference: string }
  }
  context: { title: string; description: string; lead: string; sections: DocsSection[] }
  authentication: { title: string; description: string; lead: string; sections: DocsSection[] }
  reference: {
    title: string
    description: string
    searchLabel: string
    searchPlaceholder: string
    search: string
    clear: string
    download: string
    /** "{matched} of {total} operations". */
    count: string
    noMatch: string
    contents: string
    areas: string
    webhooks: string
    webhooksIntro: string
    schemas: string
    schemasIntro: string
    errorsTitle: string
    errorsIntro: string
    parameters: string
    requestBody: string
    responses: string
    example: string
    field: string
    type: string
    in: string
    required: string
    optional: string
    descriptionColumn: string
    permission: string
    permissionPublic: string
    permissionSignedIn: string
    permissionSessionOnly: string
    permissionUndeclared: string
    errorAnswers: string
    noFields: string
    oneOf: string
    deprecated: string
    backToTop: string
    /** The link from a page of the reference back to its first page. */
    allAreas: string
    /** Under the contents: where an operation's full entry is. */
    listed: string
  }
}

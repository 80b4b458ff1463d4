import { createElement, Fragment, type ReactNode } from 'react'
import type { DocumentNode } from '../../document-tree.ts'

export const meta = () => [{ title: 'Domains' }]

/**
 * The same document as the portal's signed-in /domains (issue 34): its <body>, captured once by
 * bench/render.ts and read into a tree of elements by bench/baseline/server.ts, rendered by React
 * from memory at every request — the portal's elements and text without its session, API calls,
 * database or i18n. Elements are made anew each time, as any render makes them.
 */
const element = (node: DocumentNode): ReactNode => (typeof node === 'string' ? node : createElement(node[0], node[1], ...node[2].map(element)))

export default function Document() {
  const tree = (globalThis as { baselineDocument?: DocumentNode[] }).baselineDocument
  if (!tree) throw new Response('No document captured: start the baseline with BASELINE_DOCUMENT', { status: 404 })
  return createElement(Fragment, null, ...tree.map(element))
}

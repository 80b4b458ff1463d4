import { XMLParser } from 'fast-xml-parser'

/**
 * Small XML toolkit for EPP. Building is string concatenation of escaped parts (fast, exact control
 * over element order, which the XSDs check). Parsing resolves namespaces to the canonical prefixes
 * below, so `<d:name xmlns:d="urn:ietf:params:xml:ns:domain-1.0">` from any client reads as
 * `domain:name`.
 */

export const NS = {
  epp: 'urn:ietf:params:xml:ns:epp-1.0',
  eppcom: 'urn:ietf:params:xml:ns:eppcom-1.0',
  domain: 'urn:ietf:params:xml:ns:domain-1.0',
  host: 'urn:ietf:params:xml:ns:host-1.0',
  contact: 'urn:ietf:params:xml:ns:contact-1.0',
  secDNS: 'urn:ietf:params:xml:ns:secDNS-1.1',
  rgp: 'urn:ietf:params:xml:ns:rgp-1.0',
  /** Our block object mapping (decision 302; schemas/block-1.0.xsd). */
  blk: 'urn:registrar-portal:params:xml:ns:block-1.0',
} as const

export type NsPrefix = keyof typeof NS
const PREFIX_BY_URI = new Map<string, string>(Object.entries(NS).map(([prefix, uri]) => [uri, prefix]))

// ---------------------------------------------------------------- building

/** Already-serialised XML; anything else given as a child is text and gets escaped. */
export class Raw {
  readonly xml: string
  constructor(xml: string) {
    this.xml = xml
  }
  toString(): string {
    return this.xml
  }
}

export type XmlChild = Raw | string | number | null | undefined | false | XmlChild[]
export type XmlAttrs = Record<string, string | number | boolean | null | undefined>

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;'))
}

function appendChildren(out: string[], children: XmlChild[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) appendChildren(out, child)
    else if (child instanceof Raw) out.push(child.xml)
    else out.push(escapeXml(String(child)))
  }
}

/** `el('domain:name', { avail: 1 }, 'example.test')` → `<domain:name avail="1">example.test</domain:name>` */
export function el(name: string, attrs?: XmlAttrs | null, ...children: XmlChild[]): Raw {
  let open = `<${name}`
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined) continue
      open += ` ${key}="${escapeXml(String(value))}"`
    }
  }
  const body: string[] = []
  appendChildren(body, children)
  return new Raw(body.length ? `${open}>${body.join('')}</${name}>` : `${open}/>`)
}

/** The object element of a command or response, carrying its namespace declaration. */
export function objectEl(prefix: NsPrefix, local: string, attrs: XmlAttrs | null, ...children: XmlChild[]): Raw {
  return el(`${prefix}:${local}`, { [`xmlns:${prefix}`]: NS[prefix], ...attrs }, ...children)
}

export function eppDocument(...children: XmlChild[]): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="no"?>${el('epp', { xmlns: NS.epp }, ...children).xml}`
}

// ---------------------------------------------------------------- parsing

/** One element with canonical name (`domain:name`, `epp:result`), attributes, text and children in order. */
export type XNode = {
  name: string
  attrs: Record<string, string>
  text: string
  children: XNode[]
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
  commentPropName: false,
})

export class XmlParseError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'XmlParseError'
  }
}

type Ordered = Record<string, unknown>

/** Parses a document and returns its root element with namespaces resolved. */
export function parseXml(xml: string): XNode {
  let items: Ordered[]
  try {
    items = parser.parse(xml, true) as Ordered[]
  } catch (error) {
    throw new XmlParseError(`Not well-formed XML: ${(error as Error).message}`)
  }
  const roots = convert(items, new Map())
  if (roots.length !== 1) throw new XmlParseError('Expected exactly one root element')
  return roots[0]!
}

function convert(items: Ordered[], scope: Map<string, string>): XNode[] {
  const nodes: XNode[] = []
  for (const item of items) {
    const tag = Object.keys(item).find((key) => key !== ':@')
    if (!tag || tag === '#text') continue
    const rawAttrs = (item[':@'] ?? {}) as Record<string, string>
    let inner = scope
    const attrs: Record<string, string> = {}
    for (const [key, value] of Object.entries(rawAttrs)) {
      if (key === 'xmlns' || key.startsWith('xmlns:')) {
        if (inner === scope) inner = new Map(scope)
        inner.set(key === 'xmlns' ? '' : key.slice(6), String(value))
      } else {
        // Attributes in EPP are unqualified; drop any prefix for simple lookup.
        attrs[key.includes(':') ? key.slice(key.indexOf(':') + 1) : key] = String(value)
      }
    }
    const colon = tag.indexOf(':')
    const prefix = colon === -1 ? '' : tag.slice(0, colon)
    const local = colon === -1 ? tag : tag.slice(colon + 1)
    const uri = inner.get(prefix) ?? ''
    const canonical = PREFIX_BY_URI.get(uri) ?? (uri ? `{${uri}}` : '')
    const content = (item[tag] ?? []) as Ordered[]
    let text = ''
    for (const part of content) if ('#text' in part) text += String(part['#text'])
    nodes.push({
      name: canonical ? (canonical.startsWith('{') ? `${canonical}${local}` : `${canonical}:${local}`) : local,
      attrs,
      text,
      children: convert(content, inner),
    })
  }
  return nodes
}

export function child(node: XNode | undefined, name: string): XNode | undefined {
  return node?.children.find((c) => c.name === name)
}

export function childrenOf(node: XNode | undefined, name: string): XNode[] {
  return node ? node.children.filter((c) => c.name === name) : []
}

export function textOf(node: XNode | undefined, name: string): string | undefined {
  return child(node, name)?.text
}

/** Follows a path of child names, `path(root, 'epp:response', 'epp:resData')`. */
export function path(node: XNode | undefined, ...names: string[]): XNode | undefined {
  let current = node
  for (const name of names) current = child(current, name)
  return current
}

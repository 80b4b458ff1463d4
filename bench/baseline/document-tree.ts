/**
 * The same-document baseline of bench:render (issue 34): a document's <body> as React rendered it,
 * turned into a tree of elements that React renders again from memory (bench/baseline/app/routes/
 * document.tsx) — the same elements, attributes and text, with no session, API, database or i18n.
 *
 * A small reader for what React's server render writes (every attribute quoted, void elements
 * unclosed, raw text in <script> and <style>, `<!-- -->` between two texts), not a general HTML
 * parser. `renderToStaticMarkup` of the tree gives back the body it was read from; bench/render.ts
 * prints both sizes.
 */

/** A text, or an element: [tag, props, children]. */
export type DocumentNode = string | [tag: string, props: Record<string, unknown>, children: DocumentNode[]]

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])
const RAW = new Set(['script', 'style'])
/** Attributes React takes as booleans (written as `name=""`). */
const BOOLEAN = new Set([
  'allowfullscreen',
  'async',
  'autofocus',
  'checked',
  'controls',
  'default',
  'defer',
  'disabled',
  'formnovalidate',
  'hidden',
  'inert',
  'loop',
  'multiple',
  'muted',
  'nomodule',
  'novalidate',
  'open',
  'playsinline',
  'readonly',
  'required',
  'reversed',
  'selected',
])
/** HTML attribute names React knows under another prop name. */
const PROP_NAMES: Record<string, string> = {
  class: 'className',
  for: 'htmlFor',
  tabindex: 'tabIndex',
  readonly: 'readOnly',
  maxlength: 'maxLength',
  minlength: 'minLength',
  autocomplete: 'autoComplete',
  autofocus: 'autoFocus',
  enctype: 'encType',
  formnovalidate: 'formNoValidate',
  novalidate: 'noValidate',
  crossorigin: 'crossOrigin',
  fetchpriority: 'fetchPriority',
  spellcheck: 'spellCheck',
  inputmode: 'inputMode',
  enterkeyhint: 'enterKeyHint',
  'accept-charset': 'acceptCharset',
  'http-equiv': 'httpEquiv',
  colspan: 'colSpan',
  rowspan: 'rowSpan',
  datetime: 'dateTime',
  srcset: 'srcSet',
  popovertarget: 'popoverTarget',
  popovertargetaction: 'popoverTargetAction',
  'stroke-width': 'strokeWidth',
  'stroke-linecap': 'strokeLinecap',
  'stroke-linejoin': 'strokeLinejoin',
  'fill-rule': 'fillRule',
  'clip-rule': 'clipRule',
  'aria-hidden': 'aria-hidden',
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
    name[0] === '#' ? String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))) : (ENTITIES[name] ?? whole),
  )

/** `a:b;--c:d` as React's style object (custom properties as they are). */
function styleObject(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rule of text.split(';')) {
    const at = rule.indexOf(':')
    if (at < 0) continue
    const name = rule.slice(0, at).trim()
    out[name.startsWith('--') ? name : name.replace(/^-ms-/, 'ms-').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] = rule.slice(at + 1).trim()
  }
  return out
}

function props(tag: string, attributes: [string, string | null][], children: DocumentNode[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, value] of attributes) {
    const prop = PROP_NAMES[name] ?? name
    if (name === 'style') out.style = styleObject(value ?? '')
    else if (BOOLEAN.has(name)) out[prop] = true
    else out[prop] = value ?? ''
  }
  // Form controls as a server render writes them: a value and a checked state that are the initial ones.
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    if ('value' in out) {
      out.defaultValue = out.value
      delete out.value
    }
    if ('checked' in out) {
      out.defaultChecked = out.checked
      delete out.checked
    }
  }
  if (tag === 'textarea' && children.length) out.defaultValue = children.join('')
  return out
}

/** Reads the children of <body> of a document React rendered. */
export function documentBody(html: string): DocumentNode[] {
  const start = html.indexOf('>', html.indexOf('<body')) + 1
  const end = html.lastIndexOf('</body>')
  if (start <= 0 || end < start) throw new Error('no <body> in the document')
  const root: DocumentNode[] = []
  const stack: { tag: string; attributes: [string, string | null][]; children: DocumentNode[] }[] = []
  const children = () => stack.at(-1)?.children ?? root
  let at = start
  while (at < end) {
    const lt = html.indexOf('<', at)
    const textEnd = lt < 0 || lt > end ? end : lt
    if (textEnd > at) children().push(decode(html.slice(at, textEnd)))
    if (textEnd === end) break
    at = lt
    if (html.startsWith('<!--', at)) {
      // A comment: React's separator between two texts (it writes it again when it renders them).
      at = html.indexOf('-->', at) + 3
      continue
    }
    if (html[at + 1] === '/') {
      const close = html.indexOf('>', at)
      const tag = html
        .slice(at + 2, close)
        .trim()
        .toLowerCase()
      const open = stack.pop()
      if (!open || open.tag !== tag) throw new Error(`</${tag}> closes <${open?.tag}> at ${at}`)
      const node: DocumentNode = [open.tag, props(open.tag, open.attributes, open.children), open.tag === 'textarea' ? [] : open.children]
      children().push(node)
      at = close + 1
      continue
    }
    // A start tag: its name, then attributes (name, name="value").
    const tagMatch = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(at, at + 64))
    if (!tagMatch) throw new Error(`unreadable markup at ${at}: ${html.slice(at, at + 40)}`)
    const tag = tagMatch[1]!.toLowerCase()
    at += tagMatch[0].length
    const attributes: [string, string | null][] = []
    const attribute = /\s*(?:([^\s"'>/=]+)(?:="([^"]*)")?|(\/?>))/y
    for (;;) {
      attribute.lastIndex = at
      const m = attribute.exec(html)
      if (!m) throw new Error(`unreadable attribute at ${at}: ${html.slice(at, at + 40)}`)
      at = attribute.lastIndex
      if (m[3]) break
      attributes.push([m[1]!, m[2] === undefined ? null : decode(m[2])])
    }
    if (VOID.has(tag)) {
      children().push([tag, props(tag, attributes, []), []])
    } else if (RAW.has(tag)) {
      const close = html.indexOf(`</${tag}>`, at)
      const own = props(tag, attributes, [])
      const text = html.slice(at, close)
      if (text) own.dangerouslySetInnerHTML = { __html: text }
      children().push([tag, own, []])
      at = close + tag.length + 3
    } else {
      stack.push({ tag, attributes, children: [] })
    }
  }
  if (stack.length) throw new Error(`<${stack.at(-1)!.tag}> is never closed`)
  return root
}

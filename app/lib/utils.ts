import { clsx, type ClassValue } from 'clsx'

// A small "later Tailwind utility wins" merge instead of tailwind-merge, whose engine and utility table
// cost ~6 KB gzipped in every first load (issue 6). A utility's group is its prefix (`px-4` → px,
// `min-w-0` → min-w, `rounded` / `rounded-lg` → rounded), with the few prefixes whose value decides the
// group (text, font, border, flex) split by hand; later classes of a group replace earlier ones under the
// same variants. utils.test.ts checks it against the full tailwind-merge for every pair of class strings
// the app contains, so a utility this does not understand shows up there.

const DISPLAY = /^(block|inline|inline-block|flex|inline-flex|grid|hidden)$/
const POSITION = /^(fixed|absolute|relative|sticky)$/
const TWO_PART =
  /^((min|max)-[wh]|border-spacing|(gap|space|inset|translate|overflow|border|divide)-[xytrbl]|col-span|grid-cols|justify-self|line-clamp|pointer-events|underline-offset|ring-offset|break-(inside|before|after))(-|$)/
const NUMBER = /^\d*$/
// The Tailwind utilities that are one word; any other word is a class of our own (a hook for CSS or a
// test), kept as given, as tailwind-merge keeps what it does not know.
const ONE_WORD =
  /^(block|inline|flex|grid|hidden|contents|table|flow-root|static|fixed|absolute|relative|sticky|rounded|border|shadow|ring|outline|grow|shrink|truncate|italic|underline|overline|uppercase|lowercase|capitalize|visible|invisible|collapse|container|transition|transform|filter|blur|antialiased|isolate|resize|invert|grayscale|sepia|ordinal|border-collapse)$/

// Which value-dependent group a `text-`, `font-`, `flex-`, `list-`, `ring-`, `border…-` or `divide…-` utility belongs to.
const byValue = (prefix: string, value: string): string => {
  if (prefix === 'text') return /^(xs|sm|base|lg|\d?xl|\[\d.*\])$/.test(value) ? 'font-size' : /^(left|center|right|justify|start|end)$/.test(value) ? 'text-align' : 'text-color'
  if (prefix === 'font') return /^(sans|serif|mono)$/.test(value) ? 'font-family' : 'font-weight'
  if (prefix === 'flex') return /^(row|col)/.test(value) ? 'flex-direction' : /wrap/.test(value) ? 'flex-wrap' : 'flex'
  if (prefix === 'list') return /^(inside|outside)$/.test(value) ? 'list-position' : 'list-type'
  if (prefix === 'ring') return NUMBER.test(value) ? 'ring' : value === 'inset' ? 'ring-inset' : 'ring-color'
  if (prefix.startsWith('border'))
    return /^(collapse|separate)$/.test(value) ? 'border-collapse' : /^(solid|dashed|dotted|double|hidden|none)$/.test(value) ? 'border-style' : `${prefix}${NUMBER.test(value) ? '' : '-color'}`
  if (prefix.startsWith('divide')) return /^(solid|dashed|dotted|double|none)$/.test(value) ? 'divide-style' : `${prefix}${NUMBER.test(value) ? '' : '-color'}`
  return prefix
}

/** The group of a utility (variants removed), e.g. `-mt-2` → mt, `text-sm` → font-size. */
export function utilityGroup(utility: string): string {
  // An arbitrary property is its own group, by the property's name.
  if (utility.startsWith('[')) return utility.slice(1, utility.indexOf(':'))
  const base = utility.replace(/^-/, '').replace(/^(t|r|b|l)[a-z]*(?=-)/, (side) => (/^(top|right|bottom|left)$/.test(side) ? `inset-${side[0]}` : side))
  if (DISPLAY.test(base)) return 'display'
  if (POSITION.test(base)) return 'position'
  const prefix = TWO_PART.exec(base)?.[1] ?? base.replace(/-.*/, '')
  return byValue(prefix, base.slice(prefix.length + 1))
}

// A class of the key group also replaces earlier classes of the listed groups.
const CONFLICTS: Record<string, string> = { size: 'w h', 'line-clamp': 'display overflow', 'font-size': 'leading', flex: 'grow shrink' }
// Box sides: p-4 replaces px/py/pt/…, px-2 replaces pr/pl, border replaces border-t, inset-0 replaces top-0 (inset-t).
for (const s of ['p', 'm', 'inset-', 'border-', 'gap-', 'overflow-']) {
  const b = s.replace('-', '')
  Object.assign(CONFLICTS, { [b]: `${s}x ${s}y ${s}t ${s}r ${s}b ${s}l`, [`${s}x`]: `${s}r ${s}l`, [`${s}y`]: `${s}t ${s}b` })
}
// And the sides' colours: border-slate-200 replaces border-l-slate-200.
Object.assign(CONFLICTS, {
  'border-color': 'border-x-color border-y-color border-t-color border-r-color border-b-color border-l-color',
  'border-x-color': 'border-r-color border-l-color',
  'border-y-color': 'border-t-color border-b-color',
})

function merge(classList: string): string {
  const taken = new Set<string>()
  const kept: string[] = []
  for (const cls of classList.split(/\s+/).reverse()) {
    // Variants sit before the last colon outside brackets (an arbitrary property, `[overflow-wrap:anywhere]`,
    // holds one); their order does not change the selector.
    const at = cls.endsWith(']') && cls.includes('[') ? cls.lastIndexOf(':', cls.lastIndexOf('[')) : cls.lastIndexOf(':')
    const variants = `${cls
      .slice(0, at + 1)
      .split(':')
      .sort()}:`
    const utility = cls.slice(at + 1)
    // Markers for other elements' variants (group, group/name, peer) and our own classes are no utilities: kept as given.
    if (/^(group|peer)(\/|$)/.test(utility) || (!utility.includes('-') && !ONE_WORD.test(utility))) {
      kept.push(cls)
      continue
    }
    const group = utilityGroup(utility)
    if (!cls || taken.has(variants + group)) continue
    for (const other of [group, ...(CONFLICTS[group]?.split(' ') ?? [])]) taken.add(variants + other)
    kept.push(cls)
  }
  return kept.reverse().join(' ')
}

// The app has a few hundred distinct class strings, and a list page merges the same ones for every
// row: remember the answers (bounded, in case class strings are ever built from data).
const merged = new Map<string, string>()

/** Joins class names; later Tailwind utilities win over earlier ones. */
export const cn = (...inputs: ClassValue[]) => {
  const classList = clsx(inputs)
  let result = merged.get(classList)
  if (result === undefined) {
    result = merge(classList)
    if (merged.size >= 2000) merged.clear()
    merged.set(classList, result)
  }
  return result
}

import { parseDomainName, type DomainNameError } from './domain-name.ts'

// Apart from common/blocks.ts: the list catalogue reads the block states on every list page, and the
// domain-name rules (the IANA TLD list) must not come with them.

export type BlockLabelError = DomainNameError | 'label-dot'

/**
 * A block's label as the provider takes it: one DNS label (no dot), an IDN converted to punycode
 * with the domain names' own rules (`parseDomainName`), and its Unicode form.
 */
export function parseBlockLabel(input: string): { ok: true; ascii: string; unicode: string } | { ok: false; error: BlockLabelError } {
  const label = input.trim().toLowerCase()
  if (!label) return { ok: false, error: 'empty' }
  if (label.includes('.')) return { ok: false, error: 'label-dot' }
  const parsed = parseDomainName(`${label}.com`)
  if (!parsed.ok) return parsed
  return { ok: true, ascii: parsed.domain.labels[0]!, unicode: parsed.domain.unicode.slice(0, -'.com'.length) }
}

/** The coded error of a label (`block.label-dot`, `block.label-hyphen-edge`, …), the same on both sides. */
export const blockLabelCode = (error: BlockLabelError) => `block.label-${error.replace(/^label-/, '')}`

/**
 * The zone a zone file says it is for, read from its beginning: the owner of its SOA, else its
 * first $ORIGIN (which may be a name inside the zone). Null when it says neither.
 */
export function declaredZone(head: string): { name: string; fromSoa: boolean } | null {
  let origin: string | null = null
  let firstOrigin: string | null = null
  const lines = head.split('\n')
  for (let i = 0; i < lines.length && i < 500; i++) {
    // A comment is cut at its ';' (a ';' in quotes does not matter before the SOA's owner).
    const line = lines[i]!.replace(/;.*$/, '').trimEnd()
    const directive = /^\$ORIGIN\s+(\S+)/i.exec(line)
    if (directive) {
      origin = absolute(directive[1]!, origin)
      firstOrigin ??= origin
      continue
    }
    const soa = /^(\S+)\s+(?:(?:\d+[smhdw]?|IN)\s+){0,2}SOA(?:\s|\(|$)/i.exec(line)
    if (soa) return { name: soa[1] === '@' ? (origin ?? '') : absolute(soa[1]!, origin), fromSoa: true }
  }
  return firstOrigin ? { name: firstOrigin, fromSoa: false } : null
}

function absolute(name: string, origin: string | null): string {
  const lower = name.toLowerCase()
  if (lower.endsWith('.')) return lower.slice(0, -1)
  return origin ? `${lower}.${origin}` : lower
}

/**
 * Which of the account's zones a file declaring `declared` goes to: the zone of that name, or for
 * a $ORIGIN inside a zone, that zone; `missing` names a zone the account does not have.
 */
export function matchZone<Z extends { name: string }>(declared: { name: string; fromSoa: boolean } | null, zones: Z[]): { zone?: Z; missing?: string } {
  if (!declared || !declared.name) return {}
  const exact = zones.find((z) => z.name === declared.name)
  if (exact) return { zone: exact }
  if (!declared.fromSoa) {
    const parent = zones.filter((z) => declared.name.endsWith(`.${z.name}`)).sort((a, b) => b.name.length - a.name.length)[0]
    if (parent) return { zone: parent }
  }
  return { missing: declared.name }
}

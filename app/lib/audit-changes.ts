/**
 * An audit entry's `changes` ({ before, after }, server/platform/core/change.ts) as one line for a
 * log's table: `field: before → after` for each field, joined by `; `. `skip` leaves out fields of
 * no interest (version, timestamps), `changedOnly` the fields whose value stayed, `max` cuts the
 * line after that many fields; `addedAsValue` shows a field the entity did not have before by its new value alone.
 */
export function changesText(changes: unknown, options: { skip?: readonly string[]; changedOnly?: boolean; max?: number; addedAsValue?: boolean } = {}): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
    .filter((k) => !options.skip?.includes(k))
    .filter((k) => !options.changedOnly || JSON.stringify(before?.[k]) !== JSON.stringify(after?.[k]))
  return keys
    .slice(0, options.max ?? keys.length)
    .map((k) =>
      options.addedAsValue && !(before && k in before) ? `${k}: ${JSON.stringify(after?.[k] ?? null)}` : `${k}: ${JSON.stringify(before?.[k] ?? null)} → ${JSON.stringify(after?.[k] ?? null)}`,
    )
    .join('; ')
}

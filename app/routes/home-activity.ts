/** An entry of the home's recent activity, as the audit list answers it. */
export type ActivityEntry = { id: string; created_at: string; area: string; entity_type: string; entity_id: string; action: string; actor_label: string }

/** Consecutive entries of one actor doing one thing to one entity, shown as one line (issue 28). */
export type ActivityGroup<T extends ActivityEntry> = T & { count: number; earliest: string }

/**
 * Folds repeats into one line with their count: "Ana updated their profile" five times in a row is
 * one line "×5", dated by the newest, with the oldest kept for its hover. Only consecutive
 * entries fold, so the order of what happened stays true. At most `limit` lines.
 */
export function groupActivity<T extends ActivityEntry>(entries: readonly T[], limit: number): ActivityGroup<T>[] {
  const groups: ActivityGroup<T>[] = []
  for (const entry of entries) {
    const last = groups.at(-1)
    if (last && last.actor_label === entry.actor_label && last.action === entry.action && last.entity_type === entry.entity_type && last.entity_id === entry.entity_id) {
      last.count += 1
      last.earliest = entry.created_at
      continue
    }
    if (groups.length === limit) break
    groups.push({ ...entry, count: 1, earliest: entry.created_at })
  }
  return groups
}

/**
 * Detections clustered (issue 31): two names are in one cluster when they share a registrant, the
 * same set of nameservers, an address or a certificate, and clusters join through any chain of
 * those, so one action (a notice to one abuse desk, one UDRP over several names) covers a group.
 * Pure: union–find over the keys each detection has.
 */
export type ClusterInput = { name: string; registrant?: string | null; nameservers?: readonly string[]; addresses?: readonly string[]; certificate?: string | null }

/** Each name's cluster, named by its smallest member (stable when a run adds names), and why the names are together. */
export function clusterDetections(items: readonly ClusterInput[]): Map<string, { cluster: string; size: number; by: string[] }> {
  const parent = new Map<string, string>()
  const find = (x: string): string => {
    let root = x
    while (parent.get(root) !== root) root = parent.get(root)!
    let node = x
    while (node !== root) {
      const next = parent.get(node)!
      parent.set(node, root)
      node = next
    }
    return root
  }
  const union = (a: string, b: string) => {
    const [ra, rb] = [find(a), find(b)]
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb)
  }
  for (const item of items) parent.set(item.name, item.name)
  const owner = new Map<string, string>()
  const reasons = new Map<string, Set<string>>()
  const link = (key: string, name: string, kind: string) => {
    const first = owner.get(key)
    if (first === undefined) owner.set(key, name)
    else if (first !== name) {
      union(first, name)
      for (const n of [first, name]) (reasons.get(n) ?? reasons.set(n, new Set()).get(n)!).add(kind)
    }
  }
  for (const item of items) {
    if (item.registrant) link(`registrant:${item.registrant.toLowerCase()}`, item.name, 'registrant')
    const ns = [...(item.nameservers ?? [])].map((n) => n.toLowerCase().replace(/\.$/, '')).sort()
    if (ns.length) link(`ns:${ns.join(',')}`, item.name, 'nameservers')
    for (const address of item.addresses ?? []) link(`ip:${address}`, item.name, 'address')
    if (item.certificate) link(`cert:${item.certificate}`, item.name, 'certificate')
  }
  const sizes = new Map<string, number>()
  for (const item of items) sizes.set(find(item.name), (sizes.get(find(item.name)) ?? 0) + 1)
  const byCluster = new Map<string, Set<string>>()
  for (const item of items) {
    const root = find(item.name)
    const set = byCluster.get(root) ?? byCluster.set(root, new Set()).get(root)!
    for (const r of reasons.get(item.name) ?? []) set.add(r)
  }
  return new Map(items.map((item) => [item.name, { cluster: find(item.name), size: sizes.get(find(item.name))!, by: [...byCluster.get(find(item.name))!].sort() }]))
}

/**
 * Work paced per server (issue 31): a re-check asks each RDAP server (and each registry's) no more
 * than once per `intervalMs`, servers in parallel, so 10,000 cases' re-checks never flood anyone's
 * server. `wait` is injected so the tests count the pauses instead of sleeping.
 */
export async function pacedByServer<T, R>(
  items: readonly T[],
  serverOf: (item: T) => string,
  intervalMs: number,
  work: (item: T) => Promise<R>,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<R[]> {
  const queues = Map.groupBy(
    items.map((item, index) => ({ item, index })),
    (x) => serverOf(x.item),
  )
  const results: R[] = new Array(items.length)
  await Promise.all(
    [...queues.values()].map(async (queue) => {
      for (const [i, { item, index }] of queue.entries()) {
        if (i > 0 && intervalMs > 0) await wait(intervalMs)
        results[index] = await work(item)
      }
    }),
  )
  return results
}

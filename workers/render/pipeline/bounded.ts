/**
 * Maps `items` through `fn` with at most `limit` calls in flight, results in input order. Stops
 * starting new calls once `stop` says a result ends the whole job (e.g. a failed piece).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  stop: (result: R) => boolean,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
      if (stop(results[i])) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
